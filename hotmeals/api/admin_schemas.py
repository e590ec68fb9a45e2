"""Request and answer payloads of the operator's calls (``api/admin.py``)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from hotmeals.api.account_schemas import In
from hotmeals.api.deps import ShortText, example_config


class CloseDayIn(In):
    model_config = example_config({"school": "12", "date": "2026-12-03", "reason": "storm"})
    school: ShortText | None = Field(default=None, description="The school's id or exact name")
    date: ShortText | None = Field(default=None, description="YYYY-MM-DD")
    reason: ShortText | None = Field(
        default=None,
        description="storm, strike, pa_day, emergency, power, heat (shown in the parent's "
        "language) or any text up to 120 characters",
    )


class ReopenDayIn(In):
    model_config = example_config({"school": "12", "date": "2026-12-03"})
    school: ShortText | None = None
    date: ShortText | None = None


class CloseDayOut(BaseModel):
    closure_id: int
    school: str
    date: str
    reason: str
    families: int = Field(description="Families whose meals this call handled")
    meals: int = Field(description="Meals this call handled (0 when all were handled before)")
    made_up: int = Field(description="Meals moved to a make-up day")
    refunded_cents: int = Field(description="Refunded to cards by this call")
    credited_cents: int = Field(description="Refunded to family credit by this call")
    refund_failures: int = Field(description="Refunds Converge refused now: retried later")
    outcomes: dict[str, int] = Field(description="Meals by outcome: card, credit, makeup, ...")


class ReopenDayOut(BaseModel):
    closure_id: int
    school: str
    date: str
