"""Every screen of the parent app and its route (docs/product.md §2), with the on_load that
checks the session first. ``register_pages(app)`` is called once from ``hotmeals/hotmeals.py``."""

from __future__ import annotations

import reflex as rx
from reflex_components_sonner.toast import ToastProps

from hotmeals.ui.components.links import mark_ready
from hotmeals.ui.pages.add_child import add_another_child, add_child
from hotmeals.ui.pages.allergy_profile import allergy_profile
from hotmeals.ui.pages.edit_child import edit_child
from hotmeals.ui.pages.edit_profile import edit_profile
from hotmeals.ui.pages.landing import landing
from hotmeals.ui.pages.parent_edit_profile import parent_edit_profile
from hotmeals.ui.pages.public_content import PUBLIC_PAGES, public_content
from hotmeals.ui.pages.sign_in import sign_in
from hotmeals.ui.pages.sign_up import sign_up
from hotmeals.ui.state.allergy import AllergyState
from hotmeals.ui.state.auth import AuthState
from hotmeals.ui.state.children import ChildFormState
from hotmeals.ui.state.content import ContentState
from hotmeals.ui.state.edit_profile import EditProfileState
from hotmeals.ui.state.i18n import t
from hotmeals.ui.state.otp import OtpState
from hotmeals.ui.state.parent_profile import ParentEditState
from hotmeals.ui.state.sign_in import SignInState
from hotmeals.ui.state.sign_up import SignUpState
from hotmeals.ui.state.toasts import leave_screen


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


def register_pages(app: rx.App) -> None:
    def add(component, route: str, title_key: str, on_load=None) -> None:
        # The tab's title follows the page's language; the screen left takes its refusal
        # with it.
        loads = on_load if isinstance(on_load, list) else [on_load] if on_load else []
        app.add_page(component, route=route, title=t(title_key), on_load=[leave_screen(), *loads])
        mark_ready(route)

    # Visitor set (docs/product.md §2); each renders the landing screen for a logged-in parent.
    app.add_page(
        landing,
        route="/",
        title=t("title.landing"),
        on_load=[leave_screen(), AuthState.load_session],
    )
    mark_ready("/")
    add(sign_up, "/sign-up", "title.sign_up", [AuthState.load_session, SignUpState.enter])
    add(sign_in, "/sign-in", "title.sign_in", SignInState.open_email)
    add(sign_in, "/sign-in-with-phone", "title.sign_in_phone", SignInState.open_phone)
    add(
        add_child,
        "/add-child",
        "title.add_child",
        [AuthState.require_signup_step("ADD_CHILD"), ChildFormState.start_add],
    )
    add(
        allergy_profile,
        "/allergy-profile",
        "title.allergy",
        [AuthState.require_session, AllergyState.start],
    )
    # About, terms, privacy and FAQ at addresses of their own, for everyone.
    for path, (_slug, title_key) in PUBLIC_PAGES.items():
        add(public_content, path, title_key, [AuthState.load_session, ContentState.show_page])
    # Logged-in set.
    add(
        add_another_child,
        "/add-another-child",
        "title.add_another_child",
        [AuthState.require_parent, ChildFormState.start_add],
    )
    add(
        edit_profile,
        "/edit-profile",
        "title.edit_profile",
        [AuthState.require_parent, EditProfileState.enter],
    )
    add(
        parent_edit_profile,
        "/edit-profile/parent-edit-profile",
        "title.parent_edit_profile",
        [AuthState.require_parent, ParentEditState.load, OtpState.cancel],
    )
    add(
        edit_child,
        "/edit-profile/edit-child",
        "title.edit_child",
        [AuthState.require_parent, ChildFormState.start_edit],
    )
