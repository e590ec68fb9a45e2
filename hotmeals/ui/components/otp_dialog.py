"""The 6-digit code screen (docs/product.md §4: e-mail OTP verification with resend). Shown inside
/sign-up, /sign-in (forgot password, or an e-mail never verified) and the alternate e-mail
dialog of the profile; ``OtpState.purpose`` says which."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.after_parts import spread_row
from hotmeals.ui.components.form_parts import muted
from hotmeals.ui.components.forms import field_frame, field_input, server_form, submit_button
from hotmeals.ui.components.layout import static
from hotmeals.ui.components.panels import column
from hotmeals.ui.components.screens import back_button
from hotmeals.ui.shared_state.i18n import t
from hotmeals.ui.shared_state.otp import OtpState

FIELD_ID = "otp"


def resend_row() -> rx.Component:
    return spread_row(
        rx.cond(
            OtpState.resend_wait > 0,
            muted(
                t("ui.otp.resend_in"),
                " ",
                rx.el.span(OtpState.resend_wait, class_name="hm-tabular"),
                " s",
                id="otp-cooldown",
            ),
            muted(t("ui.otp.no_code")),
        ),
        rx.button(
            rx.cond(
                OtpState.resending,
                rx.spinner(size="1"),
                rx.icon("refresh-cw", size=14, aria_hidden="true"),
            ),
            t("ui.otp.resend"),
            type="button",
            variant="ghost",
            size="2",
            on_click=OtpState.resend,
            disabled=~OtpState.can_resend,
            id="otp-resend",
            # Disabled looks disabled (a ghost button's grey alone did not say so).
            opacity=rx.cond(OtpState.can_resend, "1", "0.5"),
            cursor=rx.cond(OtpState.can_resend, "pointer", "not-allowed"),
        ),
        align="center",
        wrap="wrap",
        spacing="2",
    )


def otp_panel(
    show_image: bool = True, heading: bool = True, on_submit: Any = OtpState.submit
) -> rx.Component:
    """The code form. ``heading=False`` inside a dialog, which has its own title;
    ``on_submit`` is the handler of the screen's purpose (the sign-up code by default)."""
    error = OtpState.error
    hint = t("ui.otp.hint")
    return column(
        rx.image(src=static("/illustrations/mail-code.svg"), alt="", width="160px", height="110px")
        if show_image
        else rx.fragment(),
        rx.heading(t("ui.otp.title"), as_="h1", size="7", id="otp-title")
        if heading
        else rx.fragment(),
        muted(
            t("ui.otp.sent_to"),
            " ",
            rx.el.strong(OtpState.email, class_name="hm-break"),
            ". ",
            t("ui.otp.valid_for"),
            " ",
            OtpState.expires_minutes,
            " ",
            t("ui.otp.minutes"),
            size="3",
        ),
        server_form(
            field_frame(
                FIELD_ID,
                t("ui.otp.label"),
                error,
                field_input(
                    FIELD_ID,
                    "otp",
                    error,
                    hint=hint,
                    # Digits only, six at most (a pasted "Code: 123456" works).
                    more_attrs={"data-hm-digits": "6"},
                    type="text",
                    input_mode="numeric",
                    auto_complete="one-time-code",
                    pattern="[0-9]*",
                    auto_focus=True,
                    placeholder="123456",
                    class_name="hm-otp",
                ),
                hint=hint,
                width="100%",
            ),
            submit_button(
                t("ui.otp.verify"), OtpState.busy, t("ui.otp.verifying"), id="otp-submit"
            ),
            resend_row(),
            on_submit=on_submit,
            width="100%",
        ),
        back_button(t("ui.otp.change_email"), OtpState.cancel),
        spacing="4",
        align="start",
        id="otp-panel",
    )
