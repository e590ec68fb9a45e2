"""The payment screens and their routes; ``register_payment_pages(app)`` is called once from
``hotmeals/hotmeals.py``. Both are logged-in pages: the session is checked first. (The payment
reconciliation job is started with the other periodic jobs: ``services/jobs.py``.)"""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.pages.donate_payment import donate_payment
from hotmeals.ui.pages.page_registry import parent_pages
from hotmeals.ui.pages.payment_methods import payment_methods
from hotmeals.ui.state.payments import CardsState, DonateState

DONATE_ROUTE = "/edit-profile/donate-payment"
PAYMENT_METHODS_ROUTE = "/edit-profile/payment-methods"


def register_payment_pages(app: rx.App) -> None:
    add = parent_pages(app)
    add(donate_payment, DONATE_ROUTE, "title.donate", DonateState.load)
    add(payment_methods, PAYMENT_METHODS_ROUTE, "title.payment_methods", CardsState.load)
