"""The payment screens and their routes; ``register_payment_pages(app)`` is called once from
``hotmeals/hotmeals.py``. Both are logged-in pages: the session is checked first.

It also starts the payment reconciliation job with the app (a lifespan task): every
``HOTMEALS_RECONCILE_SECONDS`` (default 120; 0 turns it off) payments and refunds whose answer
never came are looked up at Converge (``services.payments.reconciliation_loop``)."""

from __future__ import annotations

import os

import reflex as rx

from hotmeals.services import payments
from hotmeals.ui.components.links import mark_ready
from hotmeals.ui.pages.donate_payment import donate_payment
from hotmeals.ui.pages.payment_methods import payment_methods
from hotmeals.ui.state.auth import AuthState
from hotmeals.ui.state.payments import CardsState, DonateState

DONATE_ROUTE = "/edit-profile/donate-payment"
PAYMENT_METHODS_ROUTE = "/edit-profile/payment-methods"


def register_payment_pages(app: rx.App) -> None:
    app.add_page(
        donate_payment,
        route=DONATE_ROUTE,
        title="Donate — Hot Meals",
        on_load=[AuthState.require_parent, DonateState.load],
    )
    app.add_page(
        payment_methods,
        route=PAYMENT_METHODS_ROUTE,
        title="Payment methods — Hot Meals",
        on_load=[AuthState.require_parent, CardsState.load],
    )
    for route in (DONATE_ROUTE, PAYMENT_METHODS_ROUTE):
        mark_ready(route)
    seconds = float(os.environ.get("HOTMEALS_RECONCILE_SECONDS", "120") or 0)
    if seconds > 0:
        app.register_lifespan_task(payments.reconciliation_loop, interval_seconds=seconds)
