"""The Book meal screen's route; ``register_booking_pages(app)`` is called once from
``hotmeals/hotmeals.py``. A logged-in page: the session is checked first."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.pages.meal_detailed import meal_detailed
from hotmeals.ui.pages.page_registry import add_booking_page, parent_pages
from hotmeals.ui.state.booking import BookingState

MEAL_DETAILED_ROUTE = "/edit-profile/meal-detailed"


def register_booking_pages(app: rx.App) -> None:
    add = parent_pages(app)
    add_booking_page(
        add, meal_detailed, MEAL_DETAILED_ROUTE, "title.meal_detailed", BookingState.load
    )
