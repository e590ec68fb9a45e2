"""Request and answer payloads of the many-days calls (extensions)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from hotmeals.api.account_schemas import Id, In, Text
from hotmeals.api.deps import examples
from hotmeals.api.menu_schemas import AddToCartIn


class AddManyIn(In):
    items: list[AddToCartIn] = Field(
        default_factory=list,
        max_length=100,
        description="Lines as AddToCart takes them (child_id, date or menu_day_id, meal_id, "
        "size or portion_id, quantity, options, addons, special_note, allergy_ack).",
    )

    model_config = examples(
        {
            "items": [
                {"child_id": 2, "date": "2026-11-24", "meal_id": 5, "size": "small"},
                {"child_id": 2, "date": "2026-11-25", "meal_id": 7, "size": "large"},
                {"child_id": 3, "date": "2026-11-24", "meal_id": 9},
            ]
        }
    )


class RepeatWeekIn(In):
    child_id: Id | None = None
    source_week_start: Text | None = Field(
        default=None, description="Any day of the week to copy (YYYY-MM-DD or M/D/YYYY)."
    )
    target_week_start: Text | None = Field(default=None, description="Any day of the week to book.")

    model_config = examples(
        {
            "child_id": 2,
            "source_week_start": "2026-11-16",
            "target_week_start": "2026-11-23",
        }
    )


class BookedLineOut(BaseModel):
    index: int = Field(description="Position of the line in the request (or the copy list).")
    cart_id: int
    child_id: int
    child_name: str
    date: str
    date_label: str
    meal_id: int
    meal: str
    size: str
    quantity: int
    line_total_cents: int
    line_total: str
    allergy_ack: str
    allergy_notice: str
    left_out: list[str] = Field(
        default_factory=list,
        description="RepeatWeek: the options and add-ons not copied because of the child's "
        "allergies, each with the allergen ('Cheese string left out: it contains Milk').",
    )
    source_date: str | None = Field(default=None, description="RepeatWeek: the day copied.")


class NotBookedLineOut(BaseModel):
    index: int | None = None
    child_id: int
    child_name: str
    date: str
    date_label: str
    meal_id: int | None = None
    meal: str
    code: str = Field(description="The message key, e.g. menu_day_closed, meal_day_closed.")
    reason: str = Field(description="Why, in the parent's language.")
    left_out: list[str] = Field(default_factory=list, description="As in BookedLineOut.")
    source_date: str | None = None


_ADDED: dict[str, Any] = {
    "index": 0,
    "cart_id": 41,
    "child_id": 2,
    "child_name": "Emma",
    "date": "2026-11-24",
    "date_label": "Tuesday, November 24",
    "meal_id": 5,
    "meal": "Mac and cheese",
    "size": "small",
    "quantity": 1,
    "line_total_cents": 650,
    "line_total": "$6.50",
    "allergy_ack": "",
    "allergy_notice": "",
}
_REFUSED: dict[str, Any] = {
    "index": 1,
    "child_id": 2,
    "child_name": "Emma",
    "date": "2026-11-25",
    "date_label": "Wednesday, November 25",
    "meal_id": 7,
    "meal": "Chicken wrap",
    "code": "menu_day_closed",
    "reason": "No meals on Wednesday, November 25: PA Day – no school",
}


class AddManyOut(BaseModel):
    added: list[BookedLineOut]
    refused: list[NotBookedLineOut]
    skipped: list[NotBookedLineOut] = Field(
        description="RepeatWeek: meals already in the cart or ordered on that day, and meals "
        "that do not fit the child's dietary needs (code diet; the reason names the meal and "
        "what it misses)."
    )
    added_count: int
    refused_count: int
    cart_count: int
    message: str

    model_config = examples(
        {
            "added": [_ADDED],
            "refused": [_REFUSED],
            "skipped": [],
            "added_count": 1,
            "refused_count": 1,
            "cart_count": 3,
            "message": "Meals added to cart: 1. Not added: 1.",
        }
    )


class RepeatWeekOut(AddManyOut):
    child_id: int
    source_week_start: str
    target_week_start: str
    skipped_count: int

    model_config = examples(
        {
            "added": [{**_ADDED, "source_date": "2026-11-17"}],
            "refused": [{**_REFUSED, "source_date": "2026-11-18"}],
            "skipped": [],
            "added_count": 1,
            "refused_count": 1,
            "skipped_count": 0,
            "cart_count": 3,
            "message": "Meals copied to your cart: 1. Not copied: 1.",
            "child_id": 2,
            "source_week_start": "2026-11-16",
            "target_week_start": "2026-11-23",
        }
    )
