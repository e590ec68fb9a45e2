"""The money screens (donate, payment methods, family credit, a child away) and their routes;
``register_payment_pages(app)`` is called once from
``hotmeals/hotmeals.py``. All are logged-in pages: the session is checked first. (The payment
reconciliation job is started with the other periodic jobs: ``services/jobs.py``.)"""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.pages.child_away import child_away
from hotmeals.ui.pages.donate_payment import donate_payment
from hotmeals.ui.pages.family_credit import family_credit
from hotmeals.ui.pages.page_registry import parent_pages
from hotmeals.ui.pages.payment_methods import payment_methods
from hotmeals.ui.state.away import ChildAwayState
from hotmeals.ui.state.family_credit import FamilyCreditState
from hotmeals.ui.state.payments import CardsState, DonateState

DONATE_ROUTE = "/edit-profile/donate-payment"
PAYMENT_METHODS_ROUTE = "/edit-profile/payment-methods"
FAMILY_CREDIT_ROUTE = "/edit-profile/family-credit"
CHILD_AWAY_ROUTE = "/edit-profile/child-away"


def register_payment_pages(app: rx.App) -> None:
    add = parent_pages(app)
    add(donate_payment, DONATE_ROUTE, "title.donate", DonateState.load)
    add(payment_methods, PAYMENT_METHODS_ROUTE, "title.payment_methods", CardsState.load)
    add(family_credit, FAMILY_CREDIT_ROUTE, "title.family_credit", FamilyCreditState.load)
    add(child_away, CHILD_AWAY_ROUTE, "title.child_away", ChildAwayState.load)
