"""The order history, order details and cancel cart screens and their routes;
``register_order_pages(app)`` is called once from ``hotmeals/hotmeals.py``.
All are logged-in pages: the session is checked first."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.pages.cancel_cart import cancel_cart_page
from hotmeals.ui.pages.order_details import order_details
from hotmeals.ui.pages.order_history import order_history
from hotmeals.ui.pages.page_registry import parent_pages
from hotmeals.ui.state.cancel_cart import CancelCartState
from hotmeals.ui.state.orders import (
    CANCEL_CART_ROUTE,
    DETAILS_ROUTE,
    HISTORY_ROUTE,
    OrderDetailState,
    OrderHistoryState,
)


def register_order_pages(app: rx.App) -> None:
    add = parent_pages(app)
    add(order_history, HISTORY_ROUTE, "title.order_history", OrderHistoryState.load, one_event=True)
    add(order_details, DETAILS_ROUTE, "title.order_details", OrderDetailState.load)
    add(cancel_cart_page, CANCEL_CART_ROUTE, "title.cancel_cart", CancelCartState.load)
