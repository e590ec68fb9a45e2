"""/sign-in and /sign-in-with-phone: one screen, log in with e-mail or phone (docs/product.md
§2). Also forgot password, and the code screen for an e-mail never verified. A logged-in
parent sees the landing screen."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.form_parts import (
    PHONE_INPUT,
    bound_field,
    form_end,
    password_field,
)
from hotmeals.ui.components.forms import notice, server_form
from hotmeals.ui.components.icons import icon as svg_icon
from hotmeals.ui.components.otp_dialog import otp_panel
from hotmeals.ui.components.screens import focus_screen, screen_heading
from hotmeals.ui.screens.landing.page import landing
from hotmeals.ui.screens.sign_in.forgot_password import forgot_panel
from hotmeals.ui.screens.sign_in.state import PREFIX, SignInState
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.i18n import t
from hotmeals.ui.shared_state.otp import VERIFY_EMAIL, OtpState


def parent_sees_landing(screen: rx.Component) -> rx.Component:
    """A visitor's ``screen`` (sign-in, sign-up, the first child): a logged-in parent gets
    the landing screen instead."""
    return rx.cond(AuthState.is_parent, landing(), screen)


def welcome_screen(content: rx.Component, aside_title: Any, aside_text: Any) -> rx.Component:
    """Sign-in and sign-up: ``content`` beside the welcome illustration, for visitors."""
    return parent_sees_landing(
        focus_screen(
            content,
            illustration="/illustrations/welcome.svg",
            aside_title=aside_title,
            aside_text=aside_text,
        )
    )


def identifier_field() -> rx.Component:
    def identifier(label_key: str, **props: Any) -> rx.Component:
        return bound_field(
            PREFIX,
            "identifier",
            label_key,
            SignInState.errors,
            on_blur=SignInState.blur_identifier,
            **props,
        )

    return rx.cond(
        SignInState.mode == "phone",
        identifier(
            "ui.field.phone", **PHONE_INPUT, input_mode="tel", hint=t("ui.field.phone_hint")
        ),
        identifier(
            "ui.field.email", input_type="email", auto_complete="username", input_mode="email"
        ),
    )


def _mode_tab(mode: str, icon: str, label_key: str, route: str) -> rx.Component:
    active = SignInState.mode == mode
    query = rx.cond(SignInState.next_path != "", "?next=" + SignInState.next_path, "")
    return rx.link(
        svg_icon(icon, size=16, aria_hidden="true"),
        t(label_key),
        href=route + query,
        class_name=rx.cond(active, "hm-tab is-active", "hm-tab"),
        custom_attrs={"aria-current": rx.cond(active, "page", "false")},
        underline="none",
        id=f"use-{mode}",
    )


def mode_switch() -> rx.Component:
    """Two ways in, as the two routes of docs/product.md §2."""
    return rx.el.nav(
        _mode_tab("email", "mail", "ui.signin.by_email", "/sign-in"),
        _mode_tab("phone", "smartphone", "ui.signin.by_phone", "/sign-in-with-phone"),
        class_name="hm-tabs",
        aria_label=t("ui.signin.how"),
    )


def sign_in_form() -> rx.Component:
    return rx.box(
        screen_heading(t("ui.signin.title"), t("ui.signin.subtitle")),
        rx.cond(
            SignInState.reset_done,
            rx.box(notice(t("password_reset_success")), margin_bottom="16px"),
        ),
        server_form(
            mode_switch(),
            rx.cond(
                SignInState.form_error != "",
                rx.el.p(
                    svg_icon("circle-alert", size=16, aria_hidden="true"),
                    SignInState.form_error,
                    class_name="hm-error hm-form-error",
                    id="signin-form-error",
                ),
            ),
            identifier_field(),
            rx.box(
                password_field(
                    PREFIX,
                    "password",
                    "ui.field.password",
                    SignInState.errors,
                    auto_complete="current-password",
                ),
                rx.el.button(
                    t("ui.signin.forgot"),
                    type="button",
                    on_click=SignInState.forgot,
                    class_name="hm-linklike",
                    id="forgot-password",
                ),
                width="100%",
            ),
            *form_end(
                SignInState,
                ("ui.signin.submit", "ui.signin.submitting"),
                "signin-submit",
                ("ui.signin.new_here", "ui.signin.create_account", "/sign-up"),
            ),
            on_submit=SignInState.submit,
        ),
        width="100%",
    )


def sign_in() -> rx.Component:
    return welcome_screen(
        rx.cond(
            OtpState.purpose == VERIFY_EMAIL,
            otp_panel(),
            rx.cond(SignInState.view == "forgot", forgot_panel(), sign_in_form()),
        ),
        t("ui.signin.aside_title"),
        t("ui.signin.aside_text"),
    )
