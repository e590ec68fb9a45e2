"""What the account and form screens (sign-in, sign-up, forgot password, the child and
profile forms, settings, contact, school year) build alike: a form's fields bound to its
state's errors, the password and contact inputs, section cards, action rows and gray notes.
Components take values, not states (a state's ``errors`` is a value here)."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars import ObjectVar

from hotmeals.ui.components.forms import (
    error_of,
    field_pair,
    other_form_link,
    select_field,
    submit_button,
    text_field,
)
from hotmeals.ui.shared_state.i18n import t

GRAY_11 = rx.color("gray", 11)
NO_ERROR = rx.Var.create("")  # a field that is never refused

# The inputs of an e-mail and a phone number: the phone's keyboard and the browser's autofill
# (the sign-in and sign-up screens also say the keyboard with ``input_mode``).
EMAIL_INPUT: dict[str, Any] = {"input_type": "email", "auto_complete": "email"}
PHONE_INPUT: dict[str, Any] = {"input_type": "tel", "auto_complete": "tel"}

# Buttons of an action row that share its width, two side by side until the row wraps.
ROW_SHARE: dict[str, Any] = {"flex": "1", "min_width": "200px"}
# The gray secondary button (cancel, skip, "no").
QUIET_BUTTON: dict[str, Any] = {"variant": "soft", "color_scheme": "gray"}


def bound_field(
    prefix: str, name: str, label_key: str, errors: ObjectVar[dict[str, str]], **props: Any
) -> rx.Component:
    """``text_field`` of the form field ``name``: id ``prefix + name``, its label from the
    catalog, its message from the form state's ``errors``."""
    return text_field(prefix + name, name, t(label_key), error_of(errors, name), **props)


def checked_field(prefix: str, state: Any, name: str, label_key: str, **props: Any) -> rx.Component:
    """``bound_field`` that ``state`` checks when the parent leaves it (``state.blur(name)``):
    the sign-up and contact forms."""
    return bound_field(prefix, name, label_key, state.errors, on_blur=state.blur(name), **props)


def name_pair(field: Any) -> rx.Component:
    """The parent's first and last names side by side, with the browser's autofill: each
    made by the form's ``field(name, label_key, **props)``."""
    return field_pair(
        field("first_name", "ui.field.first_name", auto_complete="given-name"),
        field("last_name", "ui.field.last_name", auto_complete="family-name"),
    )


def form_end(
    state: Any, keys: tuple[str, str], submit_id: str, other: tuple[str, str, str]
) -> tuple[rx.Component, rx.Component]:
    """The last two lines of the sign-in and sign-up forms: the submit button (``keys``: its
    text and its text while ``state.busy``), and the line that leads to the other form
    (``other``: the question's key, the link's key and where it goes)."""
    text, busy_text = keys
    question, link_text, href = other
    return (
        submit_button(t(text), state.busy, t(busy_text), id=submit_id),
        other_form_link(t(question), t(link_text), href),
    )


def password_field(
    prefix: str,
    name: str,
    label_key: str,
    errors: ObjectVar[dict[str, str]],
    auto_complete: str = "new-password",
    **props: Any,
) -> rx.Component:
    """A password of a form (a new one unless ``auto_complete`` says "current-password"),
    with the show/hide button ``text_field`` gives password inputs."""
    return bound_field(
        prefix,
        name,
        label_key,
        errors,
        input_type="password",
        auto_complete=auto_complete,
        **props,
    )


def muted(*children: Any, size: str | None = "2", **props: Any) -> rx.Component:
    """Secondary text: gray, size 2 unless ``size`` says otherwise (None: the page's own)."""
    if size is not None:
        props["size"] = size
    return rx.text(*children, color=GRAY_11, **props)


def alert_text(message: Any, **props: Any) -> rx.Component:
    """A refusal in red text, read out (role=alert), shown only while there is one."""
    return rx.cond(
        message != "", rx.text(message, color=rx.color("red", 11), role="alert", **props)
    )


def section_card(*children: Any, **props: Any) -> rx.Component:
    """A section of an account screen: a roomy card across the column."""
    return rx.card(*children, width="100%", size="3", **props)


def lead_row(lead: Any, *lines: Any, action: Any, **lines_props: Any) -> rx.Component:
    """A picture or an icon, a few lines taking the room left, and what to do with them
    (under the lines when the row is narrow): a profile card, a saved card."""
    return rx.flex(
        lead,
        rx.vstack(*lines, spacing="1", flex="1", **lines_props),
        action,
        spacing="4",
        align="center",
        wrap="wrap",
    )


def action_row(*buttons: Any, **props: Any) -> rx.Component:
    """A form's or a card's buttons side by side, wrapping on narrow screens."""
    return rx.flex(*buttons, spacing="3", wrap="wrap", **props)


def loading_block() -> rx.Component:
    """Where a screen's data will be while it loads: a spinner, centred."""
    return rx.center(rx.spinner(size="3"), padding="48px")


def icon_button(icon: str, label: Any, **props: Any) -> rx.Component:
    """A button with a small decorative icon before its text."""
    return rx.button(rx.icon(icon, size=14, aria_hidden="true"), label, **props)


def busy_icon_button(
    icon: str, label: Any, busy_label: Any, busy: Any, **props: Any
) -> rx.Component:
    """A button that starts something slow (add a card, upload a picture): its icon turns
    into a spinner and its ``label`` into ``busy_label`` while ``busy``, and it takes no tap
    then."""
    return rx.button(
        rx.cond(busy, rx.spinner(size="2"), rx.icon(icon, size=16, aria_hidden="true")),
        rx.cond(busy, busy_label, label),
        disabled=busy,
        **props,
    )


def synced_field(prefix: str, state: Any, name: str, label_key: str, **props: Any) -> rx.Component:
    """``bound_field`` whose value is ``state.<name>``, set through ``state.set_<name>`` as
    the parent types (the child and profile forms)."""
    return bound_field(
        prefix,
        name,
        label_key,
        state.errors,
        value=getattr(state, name),
        on_change=getattr(state, f"set_{name}"),
        **props,
    )


def done_badge(icon: str, text: Any) -> rx.Component:
    """A green badge for what is settled (the default child, a verified e-mail)."""
    return rx.badge(
        rx.icon(icon, size=12, aria_hidden="true"), text, color_scheme="grass", size="2"
    )


def choice_field(
    state: Any,
    name: str,
    field_id: str,
    label_text: Any,
    placeholder: Any,
    *,
    options: Any = None,
    error: Any = NO_ERROR,
    **props: Any,
) -> rx.Component:
    """``select_field`` of one choice of a form: its value ``state.<name>_id``, changed through
    ``state.set_<name>``, over ``options`` (``state.<name>s`` unless said)."""
    return select_field(
        field_id,
        label_text,
        error,
        getattr(state, f"{name}s") if options is None else options,
        getattr(state, f"{name}_id"),
        getattr(state, f"set_{name}"),
        placeholder,
        **props,
    )


def waits_for(before_id: Any, first_text: Any, choose_text: Any) -> dict[str, Any]:
    """The placeholder and ``disabled`` of a choice that waits for the one before it
    (``before_id``): it says so, and stays disabled, until that one is made."""
    unset = before_id == ""
    return {"placeholder": rx.cond(unset, first_text, choose_text), "disabled": unset}


def icon_bubble(icon: str, size: int = 20) -> rx.Component:
    """A card's or a row's decorative icon in its round tint."""
    return rx.box(rx.icon(icon, size=size, aria_hidden="true"), class_name="hm-icon-bubble")


def remove_button(icon: str, icon_size: int, what: Any, on_click: Any, **props: Any) -> Any:
    """The ghost icon button that takes one row off a list, named "Remove <what>" for screen
    readers."""
    remove: Any = t("ui.common.remove")  # a string Var: + joins in the browser
    return rx.icon_button(
        rx.icon(icon, size=icon_size, aria_hidden="true"),
        variant="ghost",
        on_click=on_click,
        aria_label=remove + " " + what,
        **props,
    )
