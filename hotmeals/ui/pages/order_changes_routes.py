"""Modify an order and manage one meal and their routes;
``register_order_change_pages(app)`` is called once from ``hotmeals/hotmeals.py``. All are
logged-in pages: the session is checked first."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.pages.manage_meal import manage_confirm, manage_meal
from hotmeals.ui.pages.modify_order import add_item, modify_order
from hotmeals.ui.pages.page_registry import parent_pages
from hotmeals.ui.state.booking import BookingState
from hotmeals.ui.state.manage_meal import CONFIRM_MOVE_ROUTE, MANAGE_ROUTE, ManageMealState
from hotmeals.ui.state.modify_order import (
    ADD_ITEM_ROUTE,
    MODIFY_MEAL_ROUTE,
    MODIFY_ROUTE,
    ModifyOrderState,
)

CONFIRM_CART_ROUTE = "/edit-profile/manage-meal-details/manage-confirm-cart"


def register_order_change_pages(app: rx.App) -> None:
    add = parent_pages(app)
    add(modify_order, MODIFY_ROUTE, "title.modify_order", ModifyOrderState.load)
    for route in (ADD_ITEM_ROUTE, MODIFY_MEAL_ROUTE):
        # BookingState.load first (it forgets any order), then the order the dialog adds to.
        add(add_item, route, "title.add_item", BookingState.load, ModifyOrderState.load_add_item)
    add(manage_meal, MANAGE_ROUTE, "title.manage_meal", ManageMealState.load)
    for route in (CONFIRM_MOVE_ROUTE, CONFIRM_CART_ROUTE):
        add(manage_confirm, route, "title.manage_confirm", ManageMealState.load_confirm)
