"""Settings, /edit-profile step 6: the menu (sub-step 1), manage notification (2) and change
password (3), plus the language choice (docs/product.md §1: en/fr kept in browser storage)."""

from __future__ import annotations

import reflex as rx

from hotmeals.services.notifications import NOTIFICATION_KINDS
from hotmeals.ui.components.form_parts import icon_bubble, muted, password_field, section_card
from hotmeals.ui.components.forms import (
    radio_fieldset,
    save_button,
    server_form,
    state_save_button,
)
from hotmeals.ui.components.header import PROFILE_ROUTE
from hotmeals.ui.components.panels import column
from hotmeals.ui.components.screens import back_button, screen_intro
from hotmeals.ui.screens.edit_profile.calendar_feed import calendar_feed_card
from hotmeals.ui.shared_state.edit_profile import EditProfileState
from hotmeals.ui.shared_state.i18n import I18nState, t
from hotmeals.ui.shared_state.settings import (
    PASSWORD_PREFIX,
    ChangePasswordState,
    LanguageState,
    NotificationState,
)
from hotmeals.ui.shared_state.steps import (
    CHANGE_PASSWORD,
    NOTIFICATIONS,
    SETTINGS,
    SETTINGS_MENU,
    ProfileStepState,
)


def _back_to_settings() -> rx.Component:
    back = EditProfileState.go(SETTINGS, SETTINGS_MENU)
    return back_button(t("ui.settings.back"), back, type_=None, margin_bottom="8px")


def _menu_row(icon: str, title_key: str, text_key: str, on_click, id_: str) -> rx.Component:
    return rx.el.button(
        rx.hstack(
            icon_bubble(icon),
            rx.vstack(
                rx.text(t(title_key), weight="bold", size="3"),
                muted(t(text_key)),
                spacing="1",
                align="start",
            ),
            rx.spacer(),
            rx.icon("chevron-right", size=18, aria_hidden="true"),
            align="center",
            spacing="3",
            width="100%",
        ),
        type="button",
        on_click=on_click,
        class_name="hm-row-button",
        id=id_,
    )


def _language(code: str, name: str) -> rx.Component:
    """A language, named in itself (and marked so for screen readers)."""
    return rx.el.label(
        rx.radio_group.item(value=code, id=f"lang-{code}"),
        name,
        html_for=f"lang-{code}",
        class_name="hm-radio",
        lang=code,
    )


def language_choice() -> rx.Component:
    return radio_fieldset(
        t("ui.settings.language"),
        rx.flex(_language("en", "English"), _language("fr", "Français"), spacing="5"),
        intro=muted(t("ui.settings.language_text"), margin_bottom="8px"),
        value=I18nState.lang,
        on_change=LanguageState.choose,
        name="language",
    )


def settings_menu() -> rx.Component:
    return column(
        rx.heading(t("ui.settings.title"), as_="h1", size="7"),
        column(
            _menu_row(
                "bell",
                "ui.settings.notifications",
                "ui.settings.notifications_text",
                EditProfileState.go(SETTINGS, NOTIFICATIONS),
                "settings-notifications",
            ),
            _menu_row(
                "key-round",
                "ui.settings.password",
                "ui.settings.password_text",
                EditProfileState.go(SETTINGS, CHANGE_PASSWORD),
                "settings-password",
            ),
            _menu_row(
                "user-pen",
                "ui.header.edit_profile",
                "ui.settings.profile_text",
                rx.redirect(PROFILE_ROUTE),
                "settings-profile",
            ),
            spacing="2",
        ),
        rx.card(language_choice(), width="100%"),
        calendar_feed_card(),  # the family's private calendar link
        spacing="4",
    )


def _switch(kind: str) -> rx.Component:
    field_id = f"notif-{kind}"
    return rx.flex(
        rx.vstack(
            rx.el.label(
                t(f"ui.notif.{kind}"), html_for=field_id, class_name="hm-label", margin="0"
            ),
            muted(t(f"ui.notif.{kind}_text"), id=f"{field_id}-text"),
            spacing="1",
            flex="1",
        ),
        rx.switch(
            id=field_id,
            checked=NotificationState.prefs.get(kind, False).to(bool),
            on_change=NotificationState.set_pref(kind),
            size="3",
            custom_attrs={"aria-describedby": f"{field_id}-text"},
        ),
        align="center",
        spacing="4",
        padding_y="12px",
        border_bottom=f"1px solid {rx.color('gray', 4)}",
        width="100%",
    )


def notifications_panel() -> rx.Component:
    return column(
        _back_to_settings(),
        *screen_intro(t("ui.settings.notifications"), t("ui.settings.notifications_intro")),
        rx.card(
            column(*[_switch(kind) for kind in NOTIFICATION_KINDS], spacing="0"),
            width="100%",
        ),
        rx.box(state_save_button(NotificationState, "notifications-save", width="auto")),
        spacing="4",
    )


def change_password_panel() -> rx.Component:
    def field(name: str, label_key: str, autocomplete: str, hint=None) -> rx.Component:
        errors = ChangePasswordState.errors
        return password_field(PASSWORD_PREFIX, name, label_key, errors, autocomplete, hint=hint)

    return column(
        _back_to_settings(),
        rx.heading(t("ui.settings.password"), as_="h1", size="7"),
        section_card(
            server_form(
                field("current_password", "ui.field.current_password", "current-password"),
                field(
                    "new_password",
                    "ui.field.new_password",
                    "new-password",
                    t("ui.field.password_hint"),
                ),
                field("confirm_password", "ui.field.confirm_password", "new-password"),
                save_button(
                    ChangePasswordState.busy,
                    text=t("ui.settings.password_submit"),
                    id="password-submit",
                ),
                on_submit=ChangePasswordState.submit,
            ),
            max_width="520px",
        ),
        spacing="4",
    )


def settings_step() -> rx.Component:
    return rx.match(
        ProfileStepState.current_settings,
        (NOTIFICATIONS, notifications_panel()),
        (CHANGE_PASSWORD, change_password_panel()),
        settings_menu(),
    )
