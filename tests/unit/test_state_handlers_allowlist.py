"""Every event handler the browser can call, decided on purpose.

Reflex registers every public method of a State as an event handler that any browser can call
over ``/_event`` with any arguments (docs/architecture.md). A helper left
public once let an anonymous socket act as any parent. This test lists the handlers of every
State class in the process - the app's, including ones added later, and Reflex's own - and
compares them with the list below: a new public method fails the suite until someone adds it
here, having checked that it is safe to call from a hostile browser (it derives the parent
from the token with ``acting_parent`` on that call, and lets the services check any id).
"""

from __future__ import annotations

import importlib
import pkgutil

import pytest
from reflex.state import BaseState

import hotmeals.ui

# Reflex's own states and the handler every state gets. ``setvar(name, value)`` only calls an
# existing public ``set_<name>`` handler (Reflex 0.10 makes no automatic setters), so it opens
# nothing that is not listed here.
REFLEX = {
    "reflex.state.State": {"hydrate", "hydrate_and_load", "set_is_hydrated", "setvar"},
    "reflex.state.ComponentState": {"hydrate", "hydrate_and_load", "set_is_hydrated", "setvar"},
    "reflex.state.OnLoadInternalState": {"on_load_internal", "set_is_hydrated", "setvar"},
    "reflex.state.UpdateVarsInternalState": {"setvar", "update_vars_internal"},
    "reflex.state.FrontendEventExceptionState": {"handle_frontend_exception", "setvar"},
    "reflex.istate.shared.SharedState": {"setvar"},
    "reflex.istate.shared.SharedStateBaseInternal": {"setvar"},
}

# What a mixin has: rx.State's handlers, none of its own.
MIXIN = {"hydrate", "hydrate_and_load", "set_is_hydrated"}

# The app's states. Handlers that touch a parent's data call acting_parent() first.
APP = {
    "hotmeals.ui.shared_state.i18n.I18nState": {"set_lang", "toggle_lang"},
    "hotmeals.ui.shared_state.auth.AuthState": {
        "load_session",  # on_load guards: they re-check the token themselves
        "require_parent",
        "require_session",
        "require_signup_step",
        "open_logout",
        "set_logout_open",
        "confirm_logout",  # revokes the token the browser holds, nothing else
    },
    # A guarded page's on_load: the session check (AuthState's), then the route's own loads.
    "hotmeals.ui.shared_state.page_load.PageLoadState": {"enter"},
    "hotmeals.ui.shared_state.steps.ProfileStepState": set(),  # moved only by EditProfileState
    "hotmeals.ui.shared_state.edit_profile.EditProfileState": {"enter", "go", "open_step"},
    "hotmeals.ui.shared_state.content.ContentState": {
        "open_dialog",  # public CMS text
        "show_page",  # public CMS text, the page the address names
        "open_from_footer",
        "set_dialog_open",
    },
    "hotmeals.ui.shared_state.contact.ContactState": {"blur", "submit"},
    "hotmeals.ui.screens.book_meal.state.BookingState": {
        "load",  # on_load: the acting parent's children and the chosen child's calendar
        "relang",  # reloads the same screen in the language now chosen
        "choose_child",  # one of the listed children; every service call checks it again
        "set_mode",
        "set_safe_only",  # what the cards show; the services refuse a Major allergen anyway
        "prev_month",
        "next_month",
        "choose_day",  # a day of the loaded calendar; GetMenu checks child and date
        "open_meal",  # a meal of the loaded menu; MenuDetail checks meal and child
        "set_detail_open",
        "set_portion",  # choices among the loaded meal's; AddToCart checks them all again
        "set_menu_option",
        "set_meal_option",
        "toggle_addon",
        "change_quantity",
        "set_note",
        "set_acknowledged",
        "add",  # AddToCart for the acting parent, once per submission key
        "confirm_diet",  # the same add, the diet notice seen
    },
    "hotmeals.ui.screens.book_meal.many_days_state.ManyDaysState": {
        "open",  # the acting parent's children and one week_choices for the chosen ones
        "relang",
        "toggle_child",  # one of the loaded children; week_choices checks them again
        "pick_range",  # this_week, next_week or month only
        "toggle_day",  # rows and meals of the loaded answer only; add_many checks again
        "set_meal",
        "set_size",
        "set_ack",
        "set_diet_ack",  # a row of the loaded answer only; add_many checks again
        "set_source_week",  # one of the offered weeks
        "set_target_week",
        "add_all",  # add_many for the acting parent, once per submission key
        "repeat",  # repeat_weeks for the acting parent, once per submission key
    },
    "hotmeals.ui.shared_state.children.ChildChoiceState": {"edit", "allergies"},
    "hotmeals.ui.shared_state.children.ChildrenState": {
        "load",
        "set_default",
        "ask_delete",
        "set_delete_open",
        "confirm_delete",
    },
    "hotmeals.ui.shared_state.children.ChildFormState": {
        "start_add",
        "start_edit",
        "set_first_name",
        "set_last_name",
        "blur_name",
        "set_city",  # public places lists
        "set_school",
        "set_teacher",
        "set_grade",
        "toggle_diet",  # a code of domain.diet, checked there
        "save",
    },
    "hotmeals.ui.screens.allergy_profile.state.AllergyState": {
        "start",
        "search",  # public ingredient names
        "add",
        "remove",
        "set_level",
        "save",
        "skip",
    },
    "hotmeals.ui.shared_state.otp.OtpState": {"cancel", "countdown", "submit", "resend"},
    "hotmeals.ui.screens.parent_edit_profile.state.ParentEditState": {
        "load",
        "set_first_name",
        "set_last_name",
        "set_phone",
        "blur",
        "save",
        "add_alt",
        "verify_alt",
        "remove_alt",
        "submit_alt_code",
        "close_otp",
        "upload_picture",
        "choose_language",
    },
    "hotmeals.ui.shared_state.settings.LanguageState": {"choose", "toggle"},
    "hotmeals.ui.shared_state.settings.NotificationState": {"set_pref", "save"},
    # Standing orders: acting_parent() first; the service checks the ids.
    "hotmeals.ui.screens.standing_orders.state.StandingState": {
        "load",
        "relang",
        "ask_end",  # only opens the dialog
        "set_end_open",
        "confirm_end",
        "act",  # pause or resume, nothing else
    },
    "hotmeals.ui.screens.standing_orders.state.RepeatState": {
        "toggle",
        "set_until",
        "set_ends_on",
        "prepare",  # reads the dialog's day from BookingState, on the server
        "create",  # the meal, size, child and day are BookingState's or the order line's
        "open_line",  # a booked meal: the line is loaded on the server for the token's parent
        "set_line_open",
    },
    "hotmeals.ui.shared_state.settings.ChangePasswordState": {"clear", "submit"},
    "hotmeals.ui.screens.sign_in.state.SignInState": {
        "open_email",
        "open_phone",
        "use_mode",
        "blur_identifier",
        "submit",
        "forgot",
        "back_to_login",
    },
    "hotmeals.ui.screens.sign_in.state.ForgotState": {
        "blur_email",
        "send_code",
        "submit_code",
        "save_password",
    },
    "hotmeals.ui.screens.sign_up.state.SignUpState": {
        "enter",  # on_load: which step to show; touches no account
        "reset_form",
        "blur",
        "change",
        "set_terms",
        "submit",
    },
    "hotmeals.ui.screens.cart.state.CartState": {
        "load_cart",  # on_load: the acting parent's cart
        "relang",  # the same screen again in the language just chosen (acting parent's)
        "change_quantity",  # a line on screen; the service checks it is the parent's
        "ask_delete",
        "set_delete_open",
        "confirm_delete",
        "book_meal",  # resets the edit-profile step, nothing else
        "load_summary",
        "set_promo_input",
        "apply_promo",  # the service checks the code for the acting parent
        "use_promo",
        "remove_promo",
        "set_donation",  # one of the presets; the service checks the amount
    },
    "hotmeals.ui.screens.payment.state.CheckoutState": {
        "load",
        "load_choice",  # on_load of the summary: the acting parent's cards
        "relang",
        "set_card_choice",  # a card id the checkout service checks is the parent's
        "set_save_card",
        "pay",
        "lightbox_closed",  # the Lightbox's callback: the server verifies with Converge
    },
    "hotmeals.ui.screens.donate_payment.state.DonateState": {
        "load",
        "set_choice",
        "set_other_amount",
        "set_school",
        "pay",  # the form's submit (LightboxPayment)
        "lightbox_closed",  # the Lightbox's callback: the server verifies with Converge
    },
    "hotmeals.ui.screens.payment_methods.state.CardsState": {
        "load",
        "pay",  # add a card (LightboxPayment)
        "lightbox_closed",
        "ask_delete",
        "set_delete_open",
        "confirm_delete",
    },
    # Order history, order details, cancel cart. Every handler that reads or writes
    # an order calls acting_parent(); ids must be on screen and the services check ownership.
    "hotmeals.ui.screens.order_history.state.OrderHistoryState": {"load", "set_tab", "relang"},
    # The mixins: never a state of their own (Reflex registers no handler of a mixin; it keeps
    # rx.State's). Their handlers (the cancel reason's set_reason, set_other_text,
    # set_refund_to and set_sure_open; the Lightbox's pay and lightbox_closed; the card
    # choice's setters) are copied onto each state that uses them and are listed there.
    "hotmeals.ui.shared_state.cancel_reason.CancelReasonForm": MIXIN,
    "hotmeals.ui.shared_state.lightbox.LightboxPayment": MIXIN,
    "hotmeals.ui.shared_state.card_choice.CardPayment": MIXIN,
    "hotmeals.ui.shared_state.change_payment.ChangePayment": MIXIN,
    "hotmeals.ui.screens.book_meal.meal_dialog_state.MealDialog": MIXIN,
    "hotmeals.ui.shared_state.forms.OnceKey": MIXIN,
    "hotmeals.ui.shared_state.forms.OnceForm": MIXIN,
    "hotmeals.ui.shared_state.forms.NameForm": MIXIN,
    "hotmeals.ui.shared_state.forms.RemoveDialog": MIXIN,
    "hotmeals.ui.shared_state.forms.FamilyChoiceForm": MIXIN,
    "hotmeals.ui.shared_state.screens.LoadedScreen": MIXIN,
    "hotmeals.ui.shared_state.screens.RelangScreen": MIXIN,
    # The calendar feed and the receipt: each handler calls acting_parent(); the receipt's ids
    # come from the address and services.receipts checks they are the parent's.
    "hotmeals.ui.screens.receipt.state.CalendarFeedState": {"load", "set_rotate_open", "rotate"},
    "hotmeals.ui.screens.receipt.state.ReceiptState": {"load", "relang", "download_pdf"},
    "hotmeals.ui.screens.order_history.state.OrderDetailState": {
        "load",  # the ?id= is browser input: order_detail answers 'No data found' if not who's
        "relang",
        "ask_add",  # only a line on screen that can still be cancelled
        "set_add_open",
        "set_add_qty",
        "confirm_add",
        "set_reason",
        "set_other_text",
        "set_refund_to",  # "card" or "credit" only; the service checks it again
        "ask_cancel_order",
        "set_sure_open",
        "confirm_cancel_order",
    },
    # Modify an order, manage one meal. acting_parent() on every call; ids must be
    # on screen (or the address's, checked by the services against the parent).
    "hotmeals.ui.screens.modify_order.state.ModifyOrderState": {
        "load",
        "relang",
        "remove",  # only a line on screen that can still change
        "undo",  # only a step on screen
        "set_card_choice",
        "set_save_card",
        "pay",  # confirm the change (ChangePayment)
        "lightbox_closed",  # only the payment this tab opened (backend-only id)
        "load_add_item",
    },
    "hotmeals.ui.screens.manage_meal.state.ManageMealState": {
        "load",
        "load_confirm",
        "relang",
        "set_reason",
        "set_other_text",
        "set_refund_to",  # "card" or "credit" only; the service checks it again
        "ask_cancel",
        "set_sure_open",
        "confirm_cancel",
        "set_card_choice",
        "set_save_card",
        "pay",  # confirm the move (ChangePayment)
        "lightbox_closed",
    },
    "hotmeals.ui.screens.cancel_cart.state.CancelCartState": {
        "load",
        "relang",
        "change_quantity",
        "remove",
        "set_reason",
        "set_other_text",
        "set_refund_to",  # "card" or "credit" only; the service checks it again
        "ask_confirm",
        "set_sure_open",
        "confirm",
    },
    # The give-back dashboard and the start of the school year (each call checks
    # the token; confirm and archive go through services.school_year, which checks the child).
    "hotmeals.ui.screens.edit_profile.giveback_state.GiveBackState": {"load"},
    # The family credit screen; acting_parent() on each call, the choice is checked.
    "hotmeals.ui.screens.family_credit.state.FamilyCreditState": {"load", "set_refund_to", "save"},
    # The closure choice (family credit screen); the setter keeps only a known value.
    "hotmeals.ui.screens.family_credit.closure_choice_state.ClosureChoiceState": {
        "load",
        "set_closure_choice",
        "save",
    },
    # Child away; only children and meals on screen, services.away checks them again.
    "hotmeals.ui.screens.child_away.state.ChildAwayState": {
        "load",
        "toggle_child",
        "set_from_date",
        "set_to_date",
        "set_refund_to",
        "toggle_donate",
        "check",
        "confirm",
    },
    "hotmeals.ui.screens.school_year.state.SchoolYearState": {
        "gate",
        "load",
        "set_school",
        "set_teacher",
        "set_grade",
        "set_reviewed",
        "ask_archive",
        "confirm",
        "archive",
    },
}


def _import_the_app_states() -> None:
    """Import every module of the UI (states, pages, components), so a State defined
    anywhere in it is known to Python - ones added after this test was written included."""
    for module in pkgutil.walk_packages(hotmeals.ui.__path__, "hotmeals.ui."):
        importlib.import_module(module.name)


def _every_state() -> dict[str, type[BaseState]]:
    _import_the_app_states()
    found: dict[str, type[BaseState]] = {}
    todo = [BaseState]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            name = f"{sub.__module__}.{sub.__qualname__}"
            if name not in found:
                found[name] = sub
                todo.append(sub)
    return found


def _handlers(cls: type[BaseState]) -> set[str]:
    return set(cls.event_handlers)


def test_every_state_is_known():
    states = _every_state()
    unknown = sorted(set(states) - set(REFLEX) - set(APP))
    assert not unknown, (
        "New State classes: list their event handlers in APP once each is safe to call from "
        f"any browser: {unknown}"
    )
    # The list names real classes (a renamed state must be renamed here too).
    assert set(APP) <= set(states), sorted(set(APP) - set(states))


@pytest.mark.parametrize("name", sorted(APP))
def test_app_state_handlers_match_the_allow_list(name):
    cls = _every_state().get(name)
    assert cls is not None, f"{name} no longer exists"
    assert _handlers(cls) == APP[name] | {"setvar"}, (
        f"{name}: handlers now {sorted(_handlers(cls) - {'setvar'})}; a public method is "
        "callable by any browser - make helpers private (_name) or allow-list it here"
    )


@pytest.mark.parametrize("name", sorted(REFLEX))
def test_reflex_state_handlers_match_the_allow_list(name):
    cls = _every_state().get(name)
    if cls is None:
        pytest.skip(f"{name} is not defined by this Reflex version")
    assert _handlers(cls) == REFLEX[name], f"{name}: {sorted(_handlers(cls))}"


def test_the_helpers_a_websocket_attack_called_are_not_handlers():
    """The ones the attack used, by name: never again callable from the browser."""
    states = _every_state()
    forbidden = {
        "hotmeals.ui.shared_state.auth.AuthState": {
            "apply_profile",
            "start_session",
            "forget_session",
            "refresh",
            "checked_parent_id",
            "session_expired",
            "lang",
            "client_address",
            "user_agent",
        },
        "hotmeals.ui.shared_state.steps.ProfileStepState": {
            "set_steps",
            "reset_steps",
            "load_for_step",
        },
        "hotmeals.ui.shared_state.content.ContentState": {"ensure_loaded"},
        "hotmeals.ui.shared_state.contact.ContactState": {"fill_from_profile"},
        "hotmeals.ui.shared_state.settings.NotificationState": {"reload"},
        "hotmeals.ui.shared_state.children.ChildrenState": {"reload"},
        "hotmeals.ui.shared_state.children.ChildChoiceState": {"chosen"},
        "hotmeals.ui.shared_state.otp.OtpState": {"begin", "close"},
        "hotmeals.ui.screens.sign_in.state.ForgotState": {"start", "code_checked"},
        "hotmeals.ui.screens.sign_in.state.SignInState": {"password_was_reset"},
        "hotmeals.ui.screens.parent_edit_profile.state.ParentEditState": {"apply_alt_emails"},
    }
    for name, names in forbidden.items():
        assert not names & _handlers(states[name]), (name, sorted(names & _handlers(states[name])))
