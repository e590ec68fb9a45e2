"""Request and answer payloads of the parent's closure and "child away" calls
(``api/closures.py``)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from hotmeals.api.account_schemas import In
from hotmeals.api.deps import Id, RequestKey, ShortText, example_config


class ClosureChoiceIn(In):
    closure_choice: str | None = Field(default=None, description="card, credit or makeup")


class ChoiceOption(BaseModel):
    value: str
    label: str


class ClosureChoiceOut(BaseModel):
    closure_choice: str = Field(description="card (default), credit or makeup")
    options: list[ChoiceOption] = []


class AwayIn(In):
    model_config = example_config(
        {"child_ids": [41], "from_date": "2026-12-07", "to_date": "2026-12-11"}
    )
    child_ids: list[Id] | None = Field(default=None, description="One or several children")
    from_date: ShortText | None = Field(default=None, description="YYYY-MM-DD, the first day")
    to_date: ShortText | None = Field(default=None, description="YYYY-MM-DD, the last day")
    refund_to: ShortText | None = Field(
        default=None, description="card or credit; default: the family's refund choice"
    )


class MarkAwayIn(AwayIn):
    model_config = example_config(
        {
            "child_ids": [41],
            "from_date": "2026-12-07",
            "to_date": "2026-12-11",
            "expected_refund_cents": 1244,
            "donate_line_ids": [311],
            "request_key": "away-7f3c",
        }
    )
    donate_line_ids: list[Id] | None = Field(
        default=None, description="Meals past their cut-off to give to the school"
    )
    expected_refund_cents: int | None = Field(
        default=None, description="The total the parent confirmed (AwayPreview)"
    )
    request_key: RequestKey | None = Field(
        default=None, description="Or the Idempotency-Key header: one per confirmation"
    )


class AwayMealOut(BaseModel):
    order_line_id: int
    order_id: int
    child_id: int
    child_name: str
    date: str
    day: str
    name: str
    quantity: int
    state: str = Field(description="cancel (before its cut-off), past, or donated")
    can_donate: bool
    label: str


class AwayPreviewOut(BaseModel):
    meals: list[AwayMealOut]
    cancel_count: int
    refund_cents: int
    refund: str
    refund_to: str


class MarkAwayOut(BaseModel):
    cancelled: int
    donated: int
    refund_cents: int
    refund: str
    credit_cents: int = Field(description="Of refund_cents, what went to family credit")
    card_cents: int
    message: str
    repeated: bool = Field(description="This key was already applied: its first answer")
