"""Every screen of the parent app and its route (docs/product.md §2), with the on_load that
checks the session first. ``register_pages(app)`` is called once from ``hotmeals/hotmeals.py``."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.links import mark_ready
from hotmeals.ui.pages.add_child import add_another_child, add_child
from hotmeals.ui.pages.allergy_profile import allergy_profile
from hotmeals.ui.pages.edit_child import edit_child
from hotmeals.ui.pages.edit_profile import edit_profile
from hotmeals.ui.pages.landing import landing
from hotmeals.ui.pages.parent_edit_profile import parent_edit_profile
from hotmeals.ui.pages.sign_in import sign_in
from hotmeals.ui.pages.sign_up import sign_up
from hotmeals.ui.state.allergy import AllergyState
from hotmeals.ui.state.auth import AuthState
from hotmeals.ui.state.children import ChildFormState
from hotmeals.ui.state.edit_profile import EditProfileState
from hotmeals.ui.state.otp import OtpState
from hotmeals.ui.state.parent_profile import ParentEditState
from hotmeals.ui.state.sign_in import SignInState
from hotmeals.ui.state.sign_up import SignUpState

TITLE = "Hot Meals"


def toaster() -> rx.Component:
    """docs/product.md §9: toasts top-right, closing after 5000 ms."""
    return rx.toast.provider(
        position="top-right",
        close_button=True,
        toast_options=rx.toast.options(duration=5000),
    )


def register_pages(app: rx.App) -> None:
    def add(component, route: str, title: str, on_load=None) -> None:
        app.add_page(component, route=route, title=f"{title} — {TITLE}", on_load=on_load)
        mark_ready(route)

    # Visitor set (docs/product.md §2); each renders the landing screen for a logged-in parent.
    app.add_page(landing, route="/", title="Hot Meals — hot school lunches in Ontario",
                 on_load=AuthState.load_session)
    mark_ready("/")
    add(sign_up, "/sign-up", "Sign up",
        [AuthState.load_session, SignUpState.enter])
    add(sign_in, "/sign-in", "Log in", SignInState.open_email)
    add(sign_in, "/sign-in-with-phone", "Log in with phone", SignInState.open_phone)
    add(add_child, "/add-child", "Add your child",
        [AuthState.require_signup_step("ADD_CHILD"), ChildFormState.start_add])
    add(allergy_profile, "/allergy-profile", "Allergy profile",
        [AuthState.require_session, AllergyState.start])
    # Logged-in set.
    add(add_another_child, "/add-another-child", "Add a child",
        [AuthState.require_parent, ChildFormState.start_add])
    add(edit_profile, "/edit-profile", "My profile",
        [AuthState.require_parent, EditProfileState.enter])
    add(parent_edit_profile, "/edit-profile/parent-edit-profile", "Edit profile",
        [AuthState.require_parent, ParentEditState.load, OtpState.cancel])
    add(edit_child, "/edit-profile/edit-child", "Edit child",
        [AuthState.require_parent, ChildFormState.start_edit])
