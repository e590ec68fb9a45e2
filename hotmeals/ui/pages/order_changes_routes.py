"""Modify an order and manage one meal and their routes;
``register_order_change_pages(app)`` is called once from ``hotmeals/hotmeals.py``. All are
logged-in pages: the session is checked first."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.links import mark_ready
from hotmeals.ui.pages.manage_meal import manage_confirm, manage_meal
from hotmeals.ui.pages.modify_order import add_item, modify_order
from hotmeals.ui.state.auth import AuthState
from hotmeals.ui.state.booking import BookingState
from hotmeals.ui.state.i18n import t
from hotmeals.ui.state.manage_meal import CONFIRM_MOVE_ROUTE, MANAGE_ROUTE, ManageMealState
from hotmeals.ui.state.modify_order import (
    ADD_ITEM_ROUTE,
    MODIFY_MEAL_ROUTE,
    MODIFY_ROUTE,
    ModifyOrderState,
)
from hotmeals.ui.state.toasts import leave_screen

CONFIRM_CART_ROUTE = "/edit-profile/manage-meal-details/manage-confirm-cart"


def register_order_change_pages(app: rx.App) -> None:
    app.add_page(
        modify_order,
        route=MODIFY_ROUTE,
        title=t("title.modify_order"),
        on_load=[leave_screen(), AuthState.require_parent, ModifyOrderState.load],
    )
    for route in (ADD_ITEM_ROUTE, MODIFY_MEAL_ROUTE):
        # BookingState.load first (it forgets any order), then the order the dialog adds to.
        app.add_page(
            add_item,
            route=route,
            title=t("title.add_item"),
            on_load=[
                leave_screen(),
                AuthState.require_parent,
                BookingState.load,
                ModifyOrderState.load_add_item,
            ],
        )
    app.add_page(
        manage_meal,
        route=MANAGE_ROUTE,
        title=t("title.manage_meal"),
        on_load=[leave_screen(), AuthState.require_parent, ManageMealState.load],
    )
    for route in (CONFIRM_MOVE_ROUTE, CONFIRM_CART_ROUTE):
        app.add_page(
            manage_confirm,
            route=route,
            title=t("title.manage_confirm"),
            on_load=[leave_screen(), AuthState.require_parent, ManageMealState.load_confirm],
        )
    for route in (
        MODIFY_ROUTE,
        ADD_ITEM_ROUTE,
        MODIFY_MEAL_ROUTE,
        MANAGE_ROUTE,
        CONFIRM_MOVE_ROUTE,
        CONFIRM_CART_ROUTE,
    ):
        mark_ready(route)
