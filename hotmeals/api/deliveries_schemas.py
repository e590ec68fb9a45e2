"""Request and answer payloads of the operator's delivery call (``api/deliveries.py``)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from hotmeals.api.account_schemas import In
from hotmeals.api.deps import ShortText, example_config


class ConfirmDeliveryIn(In):
    model_config = example_config({"school": "12", "date": "2026-12-03", "vendor": "Chef Co"})
    school: ShortText | None = Field(default=None, description="The school's id or exact name")
    date: ShortText | None = Field(default=None, description="YYYY-MM-DD, today or before")
    vendor: ShortText | None = Field(
        default=None,
        description="The vendor's id or exact name; left out: every vendor serving the school "
        "that day",
    )


class VendorDeliveryOut(BaseModel):
    vendor_id: int
    vendor: str
    meals: int = Field(description="Meals its confirmation delivered")
    confirmed_at: str = Field(description="When it was first confirmed (ISO 8601, UTC)")
    confirmed_by: str = Field(description="Who confirmed it: operator:api, operator:cli")
    repeated: bool = Field(description="Confirmed before this call (nothing changed now)")


class ConfirmDeliveryOut(BaseModel):
    school_id: int
    school: str
    date: str
    vendors: list[VendorDeliveryOut]
    meals: int = Field(description="Meals delivered, every vendor asked")
    orders_delivered: int = Field(
        description="Orders with a meal of this day now delivered in full (an order with meals "
        "on later days stays placed until its last meal is delivered)"
    )
    repeated: bool = Field(description="Every vendor asked was confirmed before this call")
