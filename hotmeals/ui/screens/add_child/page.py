"""/add-child (sign-up step ADD_CHILD; a logged-in parent sees the landing screen,
docs/product.md §2) and /add-another-child (logged in). Saving goes on to the child's allergy
profile."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.child_form import child_form
from hotmeals.ui.components.form_parts import loading_block
from hotmeals.ui.components.progress import signup_progress
from hotmeals.ui.components.screens import (
    focus_screen,
    parent_only,
    screen_heading,
    session_only,
)
from hotmeals.ui.screens.sign_in.page import parent_sees_landing
from hotmeals.ui.shared_state.children import ChildFormState
from hotmeals.ui.shared_state.i18n import t


def _form(subtitle_key: str, submit_key: str) -> rx.Component:
    return rx.cond(
        ChildFormState.loading,
        loading_block(),
        rx.box(
            screen_heading(t("ui.child.add_title"), t(subtitle_key)),
            child_form(submit_key),
        ),
    )


def _screen(*children: rx.Component, back_href: str | None = None) -> rx.Component:
    return focus_screen(
        *children,
        illustration="/illustrations/backpack.svg",
        aside_title=t("ui.child.aside_title"),
        aside_text=t("ui.child.aside_text"),
        back_href=back_href,
        back_key="ui.common.back_to_profile",
    )


def add_child() -> rx.Component:
    return parent_sees_landing(
        session_only(
            _screen(signup_progress(2), _form("ui.child.add_subtitle", "ui.child.save_continue"))
        )
    )


def add_another_child() -> rx.Component:
    return parent_only(
        _screen(
            _form("ui.child.another_subtitle", "ui.child.save_continue"), back_href="/edit-profile"
        )
    )
