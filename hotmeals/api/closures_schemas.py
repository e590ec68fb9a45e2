"""Request and answer payloads of the parent's closure and "child away" calls
(``api/closures.py``)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from hotmeals.api.account_schemas import In


class ClosureChoiceIn(In):
    closure_choice: str | None = Field(default=None, description="card, credit or makeup")


class ChoiceOption(BaseModel):
    value: str
    label: str


class ClosureChoiceOut(BaseModel):
    closure_choice: str = Field(description="card (default), credit or makeup")
    options: list[ChoiceOption] = []
