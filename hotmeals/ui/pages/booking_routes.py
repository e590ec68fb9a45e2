"""The Book meal screen's route; ``register_booking_pages(app)`` is called once from
``hotmeals/hotmeals.py``. A logged-in page: the session is checked first."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.links import mark_ready
from hotmeals.ui.pages.meal_detailed import meal_detailed
from hotmeals.ui.state.auth import AuthState
from hotmeals.ui.state.booking import BookingState
from hotmeals.ui.state.i18n import t
from hotmeals.ui.state.school_year import SchoolYearState
from hotmeals.ui.state.toasts import leave_screen

MEAL_DETAILED_ROUTE = "/edit-profile/meal-detailed"


def register_booking_pages(app: rx.App) -> None:
    app.add_page(
        meal_detailed,
        route=MEAL_DETAILED_ROUTE,
        title=t("title.meal_detailed"),
        on_load=[leave_screen(), AuthState.require_parent, SchoolYearState.gate, BookingState.load],
    )
    mark_ready(MEAL_DETAILED_ROUTE)
