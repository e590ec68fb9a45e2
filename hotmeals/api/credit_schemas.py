"""Request and answer payloads of the family credit calls (``api/credit.py``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from hotmeals.api.account_schemas import In

# Where one refund goes, on the bodies of the calls that refund (cancels, a modify's decrease,
# a cheaper move): checked by the service (refund_destination_invalid).
RefundTo = Annotated[str, Field(max_length=8, examples=["card", "credit"])]
REFUND_TO_HELP = (
    "card or credit: where this refund goes (credit: family credit, at once, no card "
    "processor). Default: the family's standing choice (POST user/RefundChoice), else the card."
)


class CreditMoveOut(BaseModel):
    id: int
    kind: str = Field(description="refund, spend, restore or adjust")
    label: str
    amount_cents: int = Field(description="Signed: a spend is negative")
    amount: str
    order_id: int | None
    order_number: str | None = Field(description="The order it moved for")
    about: str = Field(
        description="What it was for, in the parent's language: 'Order HM-000041', or an "
        "adjustment's reason"
    )
    reason: str | None = Field(
        description="An operator's adjustment says why: a known code (demo, goodwill, "
        "correction: 'about' says it in the parent's language) or the operator's words"
    )
    date: str
    created_at: str


class FamilyCreditOut(BaseModel):
    balance_cents: int = Field(description="The sum of the family's credit movements")
    balance: str
    refund_to: str = Field(description="Where refunds go by default: card or credit")
    history: list[CreditMoveOut]


class RefundChoiceIn(In):
    refund_to: str | None = Field(default=None, description="card or credit")


class RefundChoiceOut(BaseModel):
    refund_to: str
