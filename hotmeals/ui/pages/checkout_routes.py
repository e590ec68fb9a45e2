"""The cart, order summary and payment screens and their routes;
``register_checkout_pages(app)`` is called once from ``hotmeals/hotmeals.py``. All three are
logged-in pages: the session is checked first."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.links import mark_ready
from hotmeals.ui.pages.cart import cart_page
from hotmeals.ui.pages.checkout_payment import checkout_payment
from hotmeals.ui.pages.order_summary import order_summary
from hotmeals.ui.state.auth import AuthState
from hotmeals.ui.state.cart import CART_ROUTE, PAYMENT_ROUTE, SUMMARY_ROUTE, CartState
from hotmeals.ui.state.checkout import CheckoutState
from hotmeals.ui.state.i18n import t
from hotmeals.ui.state.school_year import SchoolYearState
from hotmeals.ui.state.toasts import leave_screen


def register_checkout_pages(app: rx.App) -> None:
    app.add_page(
        cart_page,
        route=CART_ROUTE,
        title=t("title.cart"),
        on_load=[
            leave_screen(),
            AuthState.require_parent,
            SchoolYearState.gate,
            CartState.load_cart,
        ],
    )
    app.add_page(
        order_summary,
        route=SUMMARY_ROUTE,
        title=t("title.order_summary"),
        # The cards first: the summary shows its payment choice with its lines.
        on_load=[
            leave_screen(),
            AuthState.require_parent,
            CheckoutState.load_choice,
            CartState.load_summary,
        ],
    )
    app.add_page(
        checkout_payment,
        route=PAYMENT_ROUTE,
        title=t("title.payment"),
        on_load=[leave_screen(), AuthState.require_parent, CheckoutState.load],
    )
    for route in (CART_ROUTE, SUMMARY_ROUTE, PAYMENT_ROUTE):
        mark_ready(route)
