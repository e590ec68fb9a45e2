"""The payment screens and their routes; ``register_payment_pages(app)`` is called once from
``hotmeals/hotmeals.py``. Both are logged-in pages: the session is checked first. (The payment
reconciliation job is started with the other periodic jobs: ``services/jobs.py``.)"""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.links import mark_ready
from hotmeals.ui.pages.donate_payment import donate_payment
from hotmeals.ui.pages.payment_methods import payment_methods
from hotmeals.ui.state.auth import AuthState
from hotmeals.ui.state.i18n import t
from hotmeals.ui.state.payments import CardsState, DonateState
from hotmeals.ui.state.toasts import leave_screen

DONATE_ROUTE = "/edit-profile/donate-payment"
PAYMENT_METHODS_ROUTE = "/edit-profile/payment-methods"


def register_payment_pages(app: rx.App) -> None:
    app.add_page(
        donate_payment,
        route=DONATE_ROUTE,
        title=t("title.donate"),
        on_load=[leave_screen(), AuthState.require_parent, DonateState.load],
    )
    app.add_page(
        payment_methods,
        route=PAYMENT_METHODS_ROUTE,
        title=t("title.payment_methods"),
        on_load=[leave_screen(), AuthState.require_parent, CardsState.load],
    )
    for route in (DONATE_ROUTE, PAYMENT_METHODS_ROUTE):
        mark_ready(route)
