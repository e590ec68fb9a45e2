"""Every screen of the parent app in one table (docs/product.md §2): its route, its page, its
tab title (a catalog key, shown in the parent's language) and what its on_load runs.
``register_pages(app)`` is called once from ``hotmeals/hotmeals.py``.

Each page's on_load first leaves the previous screen (its refusal goes with it), then:

- ``visitor``: the loads as listed (a screen for everyone; its loads check the session
  themselves where they need to);
- ``signed_in``: the session check (``AuthState.require_parent``), then the loads;
- ``signed_in_at_once``: the session check and the loads (handlers without arguments) as one
  backend event (``shared_state/page_load.py``): one round trip and one answer;
- ``booking``: a screen that books (Book meal, the cart): ``signed_in_at_once`` with the school
  year's gate first (``SchoolYearState.gate``), then the screen's load.

Each route is marked ready for the links that lead to it (``components/links.py``); the
not-found page (``NOT_FOUND``) has no on_load."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

import reflex as rx
from reflex_components_sonner.toast import ToastProps

from hotmeals.ui.components.links import mark_ready
from hotmeals.ui.screens.add_child.page import add_another_child, add_child
from hotmeals.ui.screens.allergy_profile.page import allergy_profile
from hotmeals.ui.screens.allergy_profile.state import AllergyState
from hotmeals.ui.screens.book_meal.page import meal_detailed
from hotmeals.ui.screens.book_meal.state import BookingState
from hotmeals.ui.screens.cancel_cart.page import cancel_cart_page
from hotmeals.ui.screens.cancel_cart.state import CancelCartState
from hotmeals.ui.screens.cart.page import cart_page
from hotmeals.ui.screens.cart.state import CART_ROUTE, PAYMENT_ROUTE, SUMMARY_ROUTE, CartState
from hotmeals.ui.screens.child_away.page import child_away
from hotmeals.ui.screens.child_away.state import ChildAwayState
from hotmeals.ui.screens.donate_payment.page import donate_payment
from hotmeals.ui.screens.donate_payment.state import DonateState
from hotmeals.ui.screens.edit_child.page import edit_child
from hotmeals.ui.screens.edit_profile.page import edit_profile
from hotmeals.ui.screens.family_credit.page import family_credit
from hotmeals.ui.screens.family_credit.state import FamilyCreditState
from hotmeals.ui.screens.landing.page import landing
from hotmeals.ui.screens.manage_meal.page import manage_confirm, manage_meal
from hotmeals.ui.screens.manage_meal.state import CONFIRM_MOVE_ROUTE, MANAGE_ROUTE, ManageMealState
from hotmeals.ui.screens.modify_order.page import add_item, modify_order
from hotmeals.ui.screens.modify_order.state import (
    ADD_ITEM_ROUTE,
    MODIFY_MEAL_ROUTE,
    MODIFY_ROUTE,
    ModifyOrderState,
)
from hotmeals.ui.screens.not_found.page import not_found
from hotmeals.ui.screens.order_details.page import order_details
from hotmeals.ui.screens.order_history.page import order_history
from hotmeals.ui.screens.order_history.state import (
    CANCEL_CART_ROUTE,
    DETAILS_ROUTE,
    HISTORY_ROUTE,
    OrderDetailState,
    OrderHistoryState,
)
from hotmeals.ui.screens.order_summary.page import order_summary
from hotmeals.ui.screens.parent_edit_profile.page import parent_edit_profile
from hotmeals.ui.screens.parent_edit_profile.state import ParentEditState
from hotmeals.ui.screens.payment.page import checkout_payment
from hotmeals.ui.screens.payment.state import CheckoutState
from hotmeals.ui.screens.payment_methods.page import payment_methods
from hotmeals.ui.screens.payment_methods.state import CardsState
from hotmeals.ui.screens.public_content.page import PUBLIC_PAGES, public_content
from hotmeals.ui.screens.receipt.page import receipt_page
from hotmeals.ui.screens.receipt.state import RECEIPT_ROUTE, ReceiptState
from hotmeals.ui.screens.school_year.page import school_year
from hotmeals.ui.screens.school_year.state import ROUTE as SCHOOL_YEAR_ROUTE
from hotmeals.ui.screens.school_year.state import SchoolYearState
from hotmeals.ui.screens.sign_in.page import sign_in
from hotmeals.ui.screens.sign_in.state import SignInState
from hotmeals.ui.screens.sign_up.page import sign_up
from hotmeals.ui.screens.sign_up.state import SignUpState
from hotmeals.ui.screens.standing_orders.page import standing_orders
from hotmeals.ui.screens.standing_orders.state import STANDING_ROUTE, StandingState
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.children import ChildFormState
from hotmeals.ui.shared_state.content import ContentState
from hotmeals.ui.shared_state.edit_profile import EditProfileState
from hotmeals.ui.shared_state.i18n import t
from hotmeals.ui.shared_state.otp import OtpState
from hotmeals.ui.shared_state.page_load import PageLoadState, register_loads
from hotmeals.ui.shared_state.toasts import leave_screen


class Access(Enum):
    """What a page's on_load runs before and with its loads (module doc)."""

    VISITOR = "visitor"
    SIGNED_IN = "signed in"
    SIGNED_IN_AT_ONCE = "signed in, one event"
    NOT_FOUND = "not found"


@dataclass(frozen=True)
class Screen:
    route: str
    page: Callable[[], rx.Component]
    title_key: str
    loads: tuple[Any, ...] = ()
    access: Access = Access.SIGNED_IN


def visitor(route: str, page: Callable[[], rx.Component], title: str, *loads: Any) -> Screen:
    return Screen(route, page, title, loads, Access.VISITOR)


def signed_in(route: str, page: Callable[[], rx.Component], title: str, *loads: Any) -> Screen:
    return Screen(route, page, title, loads, Access.SIGNED_IN)


def signed_in_at_once(
    route: str, page: Callable[[], rx.Component], title: str, *loads: Any
) -> Screen:
    return Screen(route, page, title, loads, Access.SIGNED_IN_AT_ONCE)


def booking(route: str, page: Callable[[], rx.Component], title: str, load: Any) -> Screen:
    return signed_in_at_once(route, page, title, SchoolYearState.gate, load)


SCREENS: tuple[Screen, ...] = (
    # The visitor set (docs/product.md §2); each renders the landing screen for a logged-in
    # parent.
    visitor("/", landing, "title.landing", AuthState.load_session),
    visitor("/sign-up", sign_up, "title.sign_up", AuthState.load_session, SignUpState.enter),
    visitor("/sign-in", sign_in, "title.sign_in", SignInState.open_email),
    visitor("/sign-in-with-phone", sign_in, "title.sign_in_phone", SignInState.open_phone),
    visitor(
        "/add-child",
        add_child,
        "title.add_child",
        # An event handler given its argument (mypy sees the class's decorated function).
        AuthState.require_signup_step("ADD_CHILD"),  # type: ignore[operator]
        ChildFormState.start_add,
    ),
    visitor(
        "/allergy-profile",
        allergy_profile,
        "title.allergy",
        AuthState.require_session,
        AllergyState.start,
    ),
    # About, terms, privacy and FAQ at addresses of their own, for everyone.
    *(
        visitor(path, public_content, title, AuthState.load_session, ContentState.show_page)
        for path, (_slug, title) in PUBLIC_PAGES.items()
    ),
    # The logged-in set: the account.
    signed_in(
        "/add-another-child",
        add_another_child,
        "title.add_another_child",
        ChildFormState.start_add,
    ),
    signed_in("/edit-profile", edit_profile, "title.edit_profile", EditProfileState.enter),
    signed_in(
        "/edit-profile/parent-edit-profile",
        parent_edit_profile,
        "title.parent_edit_profile",
        ParentEditState.load,
        OtpState.cancel,
    ),
    signed_in(
        "/edit-profile/edit-child", edit_child, "title.edit_child", ChildFormState.start_edit
    ),
    # Money: donate, payment methods, family credit, a child away.
    signed_in("/edit-profile/donate-payment", donate_payment, "title.donate", DonateState.load),
    signed_in(
        "/edit-profile/payment-methods", payment_methods, "title.payment_methods", CardsState.load
    ),
    signed_in(
        "/edit-profile/family-credit",
        family_credit,
        "title.family_credit",
        FamilyCreditState.load,
    ),
    signed_in("/edit-profile/child-away", child_away, "title.child_away", ChildAwayState.load),
    # Book meal, then the cart, the order summary and the payment. The summary loads the
    # cards first: it shows its payment choice with its lines.
    booking("/edit-profile/meal-detailed", meal_detailed, "title.meal_detailed", BookingState.load),
    booking(CART_ROUTE, cart_page, "title.cart", CartState.load_cart),
    signed_in(
        SUMMARY_ROUTE,
        order_summary,
        "title.order_summary",
        CheckoutState.load_choice,
        CartState.load_summary,
    ),
    signed_in(PAYMENT_ROUTE, checkout_payment, "title.payment", CheckoutState.load),
    # The orders: history, details, cancel cart.
    signed_in_at_once(HISTORY_ROUTE, order_history, "title.order_history", OrderHistoryState.load),
    signed_in(DETAILS_ROUTE, order_details, "title.order_details", OrderDetailState.load),
    signed_in(CANCEL_CART_ROUTE, cancel_cart_page, "title.cancel_cart", CancelCartState.load),
    # Changing an order: modify it, add to it (BookingState.load first: it forgets any
    # order, then the order the dialog adds to), manage one meal and confirm its move.
    signed_in(MODIFY_ROUTE, modify_order, "title.modify_order", ModifyOrderState.load),
    *(
        signed_in(
            route, add_item, "title.add_item", BookingState.load, ModifyOrderState.load_add_item
        )
        for route in (ADD_ITEM_ROUTE, MODIFY_MEAL_ROUTE)
    ),
    signed_in(MANAGE_ROUTE, manage_meal, "title.manage_meal", ManageMealState.load),
    *(
        signed_in(route, manage_confirm, "title.manage_confirm", ManageMealState.load_confirm)
        for route in (
            CONFIRM_MOVE_ROUTE,
            "/edit-profile/manage-meal-details/manage-confirm-cart",
        )
    ),
    # The start of the school year, standing orders, receipts.
    signed_in(SCHOOL_YEAR_ROUTE, school_year, "title.school_year", SchoolYearState.load),
    signed_in(STANDING_ROUTE, standing_orders, "title.standing_orders", StandingState.load),
    signed_in(RECEIPT_ROUTE, receipt_page, "receipt.view", ReceiptState.load),
    Screen("404", not_found, "title.not_found", access=Access.NOT_FOUND),
)


def on_load(screen: Screen) -> list[Any] | None:
    """What ``screen``'s on_load runs (the module doc); a one-event screen's loads are
    registered for its route here."""
    if screen.access is Access.NOT_FOUND:
        return None
    if screen.access is Access.VISITOR:
        return [leave_screen(), *screen.loads]
    if screen.access is Access.SIGNED_IN:
        return [leave_screen(), AuthState.require_parent, *screen.loads]
    register_loads(screen.route, screen.loads)
    return [leave_screen(), PageLoadState.enter]


def register_pages(app: rx.App) -> None:
    """Every screen of ``SCREENS`` added to ``app``, in the table's order."""
    for screen in SCREENS:
        loads = on_load(screen)
        app.add_page(screen.page, route=screen.route, title=t(screen.title_key), on_load=loads)
        if loads is not None:
            mark_ready(screen.route)


def toaster() -> rx.Component:
    """docs/product.md §9: toasts top-right, closing after 5000 ms. Their close button and
    region are named in the page's language, and on a phone they start below the header
    (``--hm-toast-top``, kept by assets/forms.js) instead of covering it."""
    options = rx.Var.create({"duration": 5000, "closeButtonAriaLabel": t("ui.toast.close")}).to(
        ToastProps
    )
    return rx.toast.provider(
        position="top-right",
        close_button=True,
        toast_options=options,
        custom_attrs={
            "containerAriaLabel": t("ui.toast.region"),
            "mobileOffset": {"top": "var(--hm-toast-top, 16px)"},
            # Desktops too: below the header, never over it.
            "offset": {"top": "var(--hm-toast-top, 80px)", "right": "24px"},
        },
    )
