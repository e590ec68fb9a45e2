"""The order history, order details and cancel cart screens and their routes;
``register_order_pages(app)`` is called once from ``hotmeals/hotmeals.py``.
All are logged-in pages: the session is checked first."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.links import mark_ready
from hotmeals.ui.pages.cancel_cart import cancel_cart_page
from hotmeals.ui.pages.order_details import order_details
from hotmeals.ui.pages.order_history import order_history
from hotmeals.ui.state.auth import AuthState
from hotmeals.ui.state.cancel_cart import CancelCartState
from hotmeals.ui.state.i18n import t
from hotmeals.ui.state.orders import (
    CANCEL_CART_ROUTE,
    DETAILS_ROUTE,
    HISTORY_ROUTE,
    OrderDetailState,
    OrderHistoryState,
)
from hotmeals.ui.state.toasts import leave_screen


def register_order_pages(app: rx.App) -> None:
    app.add_page(
        order_history,
        route=HISTORY_ROUTE,
        title=t("title.order_history"),
        on_load=[leave_screen(), AuthState.require_parent, OrderHistoryState.load],
    )
    app.add_page(
        order_details,
        route=DETAILS_ROUTE,
        title=t("title.order_details"),
        on_load=[leave_screen(), AuthState.require_parent, OrderDetailState.load],
    )
    app.add_page(
        cancel_cart_page,
        route=CANCEL_CART_ROUTE,
        title=t("title.cancel_cart"),
        on_load=[leave_screen(), AuthState.require_parent, CancelCartState.load],
    )
    for route in (HISTORY_ROUTE, DETAILS_ROUTE, CANCEL_CART_ROUTE):
        mark_ready(route)
