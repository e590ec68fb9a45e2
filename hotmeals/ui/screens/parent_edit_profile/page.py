"""/edit-profile/parent-edit-profile: names, phone, picture (rx.upload), alternate e-mails with
verify / verified state, and the language. Header and footer hidden (docs/product.md §2)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.after_parts import RULED_ROW, form_dialog
from hotmeals.ui.components.form_parts import (
    PHONE_INPUT,
    action_row,
    busy_icon_button,
    done_badge,
    loading_block,
    muted,
    name_pair,
    remove_button,
    section_card,
    synced_field,
)
from hotmeals.ui.components.forms import (
    field_frame,
    field_input,
    kept_form,
    once_attrs,
    save_button,
    server_form,
    submit_button,
    text_field,
)
from hotmeals.ui.components.header import avatar
from hotmeals.ui.components.otp_dialog import otp_panel
from hotmeals.ui.components.panels import column, items_or
from hotmeals.ui.components.screens import plain_screen, screen_heading
from hotmeals.ui.screens.edit_profile.settings import language_choice
from hotmeals.ui.screens.parent_edit_profile.state import PREFIX, UPLOAD_ID, ParentEditState
from hotmeals.ui.shared_state.i18n import t
from hotmeals.ui.shared_state.otp import ALT_EMAIL, OtpState
from hotmeals.ui.shared_state.toasts import SCREEN_ERROR

IMAGE_TYPES = {"image/png": [".png"], "image/jpeg": [".jpg", ".jpeg"], "image/webp": [".webp"]}


def picture_section() -> rx.Component:
    return rx.flex(
        avatar("7"),
        rx.vstack(
            rx.text(t("ui.profile.picture"), weight="bold"),
            muted(t("ui.profile.picture_hint"), id="picture-hint"),
            rx.upload.root(
                busy_icon_button(
                    "camera",
                    t("ui.profile.change_picture"),
                    t("ui.common.saving"),
                    ParentEditState.uploading,
                    type="button",
                    variant="soft",
                    custom_attrs={"aria-describedby": "picture-hint"},
                ),
                id=UPLOAD_ID,
                accept=IMAGE_TYPES,
                max_files=1,
                multiple=False,
                no_drag=True,
                no_keyboard=True,  # the button inside is the one keyboard stop
                on_drop=ParentEditState.upload_picture(rx.upload_files(upload_id=UPLOAD_ID)),
                # A file of another type never leaves the phone: say so in the page's language
                # (the library's own message is English only).
                on_drop_rejected=rx.toast.error(t("image_type_invalid"), id=SCREEN_ERROR),
                border="none",
                padding="0",
            ),
            spacing="2",
            align="start",
            # react-dropzone's file input sits beside the button that opens it; the button is
            # the one control assistive technology should meet, so the input is hidden from it.
            on_mount=rx.call_script(
                f"document.querySelectorAll('#{UPLOAD_ID} input[type=file]').forEach("
                "i => {i.setAttribute('aria-hidden', 'true'); i.setAttribute('tabindex', '-1');"
                " i.setAttribute('aria-label', 'profile picture file');})"
            ),
        ),
        spacing="5",
        align="center",
        wrap="wrap",
    )


def _detail(name: str, label_key: str, **props: Any) -> rx.Component:
    """One of the parent's details, checked when the field is left."""
    return synced_field(
        PREFIX, ParentEditState, name, label_key, on_blur=ParentEditState.blur(name), **props
    )


def details_form() -> rx.Component:
    return server_form(
        name_pair(_detail),
        _detail("phone", "ui.field.phone", **PHONE_INPUT, hint=t("ui.field.phone_hint")),
        text_field(
            PREFIX + "email",
            "email",
            t("ui.field.email"),
            rx.Var.create(""),
            value=ParentEditState.email,
            read_only=True,
            hint=t("ui.profile.email_fixed"),
            required=False,
            show_optional=False,
        ),
        save_button(
            ParentEditState.busy,
            width="auto",
            id="profile-save",
            turn=ParentEditState.turn,
        ),
        on_submit=ParentEditState.save,
        align="start",
        width="100%",
    )


def alt_row(row: rx.Var) -> rx.Component:
    verified = row["verified"] != ""
    return rx.flex(
        rx.icon("mail", size=16, aria_hidden="true", color=rx.color("gray", 10)),
        rx.text(row["email"], flex="1", min_width="160px", class_name="hm-break"),
        rx.cond(
            verified,
            done_badge("badge-check", t("ui.alt_email.verified")),
            rx.button(
                t("ui.alt_email.verify"),
                size="1",
                variant="soft",
                on_click=ParentEditState.verify_alt(row["email"]),
                aria_label=t("ui.alt_email.verify") + " " + row["email"],
            ),
        ),
        remove_button(
            "trash-2",
            14,
            row["email"],
            ParentEditState.remove_alt(row["email"]),
            size="1",
            color_scheme="red",
            custom_attrs=once_attrs(ParentEditState.turn),
        ),
        align="center",
        spacing="3",
        wrap="wrap",
        **RULED_ROW,
    )


def alt_emails_section() -> rx.Component:
    field_id = PREFIX + "alt_email"
    error = ParentEditState.alt_error
    return column(
        rx.heading(t("ui.alt_email.title"), as_="h2", size="4"),
        muted(t("ui.alt_email.intro")),
        items_or(
            ParentEditState.alt_emails,
            column(rx.foreach(ParentEditState.alt_emails, alt_row), spacing="0"),
        ),
        rx.cond(
            ParentEditState.can_add_alt,
            alt_add_form(field_id, error),
            muted(t("ui.alt_email.limit_reached"), id="alt-limit"),
        ),
        spacing="3",
    )


def alt_add_form(field_id: str, error) -> rx.Component:
    return kept_form(
        field_frame(
            field_id,
            t("ui.alt_email.add_label"),
            error,
            action_row(
                field_input(
                    field_id,
                    "alt_email",
                    error,
                    required=False,
                    type="email",
                    auto_complete="email",
                    flex="1",
                    min_width="200px",
                ),
                submit_button(
                    t("ui.alt_email.add"),
                    ParentEditState.adding,
                    t("ui.common.please_wait"),
                    width="auto",
                    variant="soft",
                    id="alt-add",
                    turn=ParentEditState.turn,
                ),
            ),
        ),
        on_submit=ParentEditState.add_alt,
        width="100%",
    )


def alt_otp_dialog() -> rx.Component:
    return form_dialog(
        t("ui.otp.title"),
        otp_panel(show_image=False, heading=False, on_submit=ParentEditState.submit_alt_code),
        open_=OtpState.purpose == ALT_EMAIL,
        on_open_change=ParentEditState.close_otp,
    )


def parent_edit_profile() -> rx.Component:
    return plain_screen(
        screen_heading(t("ui.profile.edit_title"), t("ui.profile.edit_subtitle")),
        rx.cond(
            ParentEditState.loading,
            loading_block(),
            column(
                section_card(picture_section()),
                section_card(details_form()),
                section_card(alt_emails_section()),
                section_card(language_choice()),
                alt_otp_dialog(),
                spacing="4",
            ),
        ),
    )
