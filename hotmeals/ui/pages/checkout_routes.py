"""The cart, order summary and payment screens and their routes;
``register_checkout_pages(app)`` is called once from ``hotmeals/hotmeals.py``. All three are
logged-in pages: the session is checked first."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.pages.cart import cart_page
from hotmeals.ui.pages.checkout_payment import checkout_payment
from hotmeals.ui.pages.order_summary import order_summary
from hotmeals.ui.pages.page_registry import add_booking_page, parent_pages
from hotmeals.ui.state.cart import CART_ROUTE, PAYMENT_ROUTE, SUMMARY_ROUTE, CartState
from hotmeals.ui.state.checkout import CheckoutState


def register_checkout_pages(app: rx.App) -> None:
    add = parent_pages(app)
    add_booking_page(add, cart_page, CART_ROUTE, "title.cart", CartState.load_cart)
    # The cards first: the summary shows its payment choice with its lines.
    add(
        order_summary,
        SUMMARY_ROUTE,
        "title.order_summary",
        CheckoutState.load_choice,
        CartState.load_summary,
    )
    add(checkout_payment, PAYMENT_ROUTE, "title.payment", CheckoutState.load)
