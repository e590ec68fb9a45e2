"""Request and answer payloads of the standing orders calls (extensions)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from hotmeals.api.account_schemas import Id, In, Text
from hotmeals.api.deps import examples


class StandingCreateIn(In):
    child_id: Id | None = None
    meal_id: Id | None = None
    portion_id: Id | None = None
    size: Text | None = Field(default=None, description="small or large (or portion_id).")
    weekday: int | None = Field(
        default=None, ge=0, le=6, description="0 Monday .. 4 Friday; default: from_date's."
    )
    from_date: Text | None = Field(
        default=None, description="First date (YYYY-MM-DD), default today: the day picked."
    )
    until: Literal["term", "year", "date"] | None = Field(
        default=None, description="End of term (default), of the school year, or ends_on."
    )
    ends_on: Text | None = Field(default=None, description="Last date (YYYY-MM-DD), until=date.")

    model_config = examples(
        {"child_id": 2, "meal_id": 5, "size": "small", "weekday": 0, "until": "term"}
    )


class StandingIdIn(In):
    standing_order_id: Id | None = None

    model_config = examples({"standing_order_id": 3})


class StandingOut(BaseModel):
    id: int
    child_id: int
    child_name: str
    meal_id: int
    meal_name: str
    portion_id: int
    size: str
    size_label: str
    weekday: int = Field(description="0 Monday .. 4 Friday")
    summary: str
    starts_on: str
    ends_on: str
    ends_label: str
    status: Literal["active", "paused", "ended"]
    status_label: str
    next_date: str | None
    next_label: str
    last_label: str = Field(description="What the job did for the latest date it dealt with.")
