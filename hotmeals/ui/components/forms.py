"""Form building blocks with the accessibility the forms need (WCAG 2.1 AA): a real <label> for
every field, the error linked by aria-describedby and announced (role=alert), aria-invalid,
and buttons that show progress while the server works. Components take values, not states."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars import ObjectVar
from reflex_components_core.react_router.dom import ReactRouterLink

from hotmeals.ui.components.panels import column
from hotmeals.ui.shared_state.i18n import t


def error_of(errors: ObjectVar[dict[str, str]], field: str) -> rx.Var:
    """``errors[field]`` or '' (a Var)."""
    return errors.get(field, "").to(str)


def field_error(field_id: str, error: rx.Var) -> rx.Component:
    return rx.cond(
        error != "",
        rx.el.p(
            rx.icon("circle-alert", size=14, aria_hidden="true", flex_shrink="0", margin_top="3px"),
            rx.el.span(error),
            id=f"{field_id}-error",
            role="alert",
            class_name="hm-error",
        ),
    )


def label(text: Any, field_id: str, optional: bool = False) -> rx.Component:
    return rx.el.label(
        text,
        rx.cond(optional, rx.el.span(" ", t("ui.form.optional"), class_name="hm-optional"), ""),
        html_for=field_id,
        class_name="hm-label",
    )


def labelled_box(text: Any, field_id: Any, *controls: Any, **box_props: Any) -> rx.Component:
    """A plain field: its label over the ``controls`` (a native select, a date, a note)."""
    return rx.box(
        rx.el.label(text, html_for=field_id, class_name="hm-label"),
        *controls,
        class_name="hm-field",
        **box_props,
    )


def date_field(
    field_id: str,
    label_text: Any,
    value: Any,
    on_change: Any,
    *,
    min_date: Any = None,
    **box_props: Any,
) -> rx.Component:
    """A day to pick in the browser's own date picker, under its label (``labelled_box``);
    ``min_date`` (ISO) the first day the picker offers (the service checks it again)."""
    limits = {} if min_date is None else {"min": min_date}
    return labelled_box(
        label_text,
        field_id,
        rx.el.input(
            type="date",
            id=field_id,
            value=value,
            on_change=on_change,
            class_name="hm-input",
            **limits,
        ),
        **box_props,
    )


def native_select(field_id: Any, *options: Any, value: Any, on_change: Any, **props: Any) -> Any:
    """The browser's own select (``hm-select``), for lists a phone should pick natively."""
    return rx.el.select(
        *options, id=field_id, value=value, on_change=on_change, class_name="hm-select", **props
    )


def aria_attrs(field_id: str, error: rx.Var, hint: Any | None, required: bool) -> dict[str, Any]:
    """A control's link to its error and hint (aria-describedby), aria-invalid while there is
    an error, and aria-required."""
    hint_id = f"{field_id}-hint" if hint is not None else ""
    attrs: dict[str, Any] = {
        "aria-invalid": rx.cond(error != "", "true", "false"),
        "aria-describedby": rx.cond(error != "", f"{field_id}-error {hint_id}".strip(), hint_id),
    }
    if required:
        attrs["aria-required"] = "true"
    return attrs


def text_field(
    field_id: str,
    name: str,
    label_text: Any,
    error: rx.Var,
    *,
    input_type: str = "text",
    auto_complete: str | None = None,
    input_mode: str | None = None,
    hint: Any | None = None,
    required: bool = True,
    show_optional: bool | None = None,
    **input_props: Any,
) -> rx.Component:
    """Label, input, hint and error. ``input_props`` go to the input (value, default_value,
    on_change, on_blur, max_length, placeholder, read_only, ...)."""
    props = {k: v for k, v in input_props.items() if v is not None}
    if auto_complete:
        props["auto_complete"] = auto_complete
    if input_mode:
        props["input_mode"] = input_mode
    return field_frame(
        field_id,
        label_text,
        error,
        field_input(
            field_id,
            name,
            error,
            hint=hint,
            required=required,
            type=input_type,
            class_name="hm-input",
            **props,
        ),
        hint=hint,
        after=reveal_button(field_id) if input_type == "password" else None,
        optional=(not required) if show_optional is None else show_optional,
    )


def field_input(
    field_id: str,
    name: str,
    error: rx.Var,
    *,
    hint: Any | None = None,
    required: bool = True,
    more_attrs: dict[str, Any] | None = None,
    **props: Any,
) -> rx.Component:
    """A field's input at the forms' size, tied to its label, hint and error
    (``aria_attrs``); ``more_attrs`` are further HTML attributes, ``props`` the input's."""
    return rx.input(
        id=field_id,
        name=name,
        size="3",
        custom_attrs={**aria_attrs(field_id, error, hint, required), **(more_attrs or {})},
        **props,
    )


def field_frame(
    field_id: str,
    label_text: Any,
    error: rx.Var,
    *controls: Any,
    hint: Any | None = None,
    after: rx.Component | None = None,
    optional: bool = False,
    **box_props: Any,
) -> rx.Component:
    """Every field's frame: its label, the ``controls``, the hint (``{field_id}-hint``),
    what comes ``after`` it and the error. The controls carry ``aria_attrs``."""
    parts = [label(label_text, field_id, optional=optional), *controls]
    if hint is not None:
        parts.append(rx.el.p(hint, id=f"{field_id}-hint", class_name="hm-hint"))
    if after is not None:
        parts.append(after)
    return rx.box(*parts, field_error(field_id, error), class_name="hm-field", **box_props)


def reveal_button(field_id: str) -> rx.Component:
    """Show or hide what was typed in a password field (assets/forms.js flips the field's
    type in the browser: the password never goes anywhere for it)."""
    return rx.el.button(
        rx.el.span(t("ui.form.show_password"), custom_attrs={"data-hm-reveal-show": ""}),
        rx.el.span(
            t("ui.form.hide_password"), hidden=True, custom_attrs={"data-hm-reveal-hide": ""}
        ),
        type="button",
        class_name="hm-linklike",
        custom_attrs={
            "data-hm-reveal": field_id,
            "aria-controls": field_id,
            "aria-pressed": "false",
        },
        id=f"{field_id}-reveal",
    )


def text_area(
    field_id: str, name: str, label_text: Any, error: rx.Var, **props: Any
) -> rx.Component:
    return field_frame(
        field_id,
        label_text,
        error,
        rx.text_area(
            id=field_id,
            name=name,
            size="3",
            rows="5",
            custom_attrs=aria_attrs(field_id, error, None, True),
            **{k: v for k, v in props.items() if v is not None},
        ),
    )


def select_field(
    field_id: str,
    label_text: Any,
    error: rx.Var,
    options: rx.Var,
    value: rx.Var,
    on_change: Any,
    placeholder: Any,
    *,
    disabled: Any = False,
) -> rx.Component:
    """A native <select> (the phone's own picker; a real label) over ``[{id, name}]``."""
    return field_frame(
        field_id,
        label_text,
        error,
        rx.el.select(
            rx.el.option(placeholder, value=""),
            rx.foreach(options, lambda o: rx.el.option(o["name"], value=o["id"])),
            id=field_id,
            name=field_id,
            value=value,
            on_change=on_change,
            disabled=disabled,
            class_name="hm-select",
            custom_attrs=aria_attrs(field_id, error, None, True),
        ),
    )


def once_attrs(turn: Any) -> dict[str, Any]:
    """One tap, one submission (assets/forms.js): the button is disabled from the first tap
    until ``turn`` - a counter its state bumps when the handler ends, whatever the outcome -
    changes. The server refuses a repeat too (``services.submissions``)."""
    return {"data-hm-once": "", "data-hm-turn": rx.Var.create(turn).to(str)}


def submit_button(
    text: Any,
    busy: rx.Var,
    busy_text: Any | None = None,
    *,
    turn: Any | None = None,
    **props: Any,
) -> Any:
    """A submit button that shows a spinner and stays put while the server works; with
    ``turn``, disabled from the first tap (``once_attrs``)."""
    props.setdefault("size", "3")
    props.setdefault("width", "100%")
    props.setdefault("type", "submit")
    attrs: dict[str, Any] = {"aria-busy": rx.cond(busy, "true", "false")}
    if turn is not None:
        attrs.update(once_attrs(turn))
    return rx.button(
        rx.cond(busy, rx.spinner(size="2"), rx.fragment()),
        rx.cond(busy, busy_text if busy_text is not None else text, text),
        disabled=busy,
        custom_attrs=attrs,
        **props,
    )


def save_button(busy: rx.Var, *, text: Any | None = None, **props: Any) -> rx.Component:
    """The submit button of a form that saves (``text``, "Save" unless said), "Saving…" while
    ``busy``; the rest as ``submit_button``."""
    return submit_button(
        t("ui.common.save") if text is None else text, busy, t("ui.common.saving"), **props
    )


def state_save_button(state: Any, id_: str, **props: Any) -> rx.Component:
    """The button that saves ``state`` on its own, outside a form: ``state.save`` on a tap,
    busy through ``state.busy``, one tap per ``state.turn``; the rest as ``save_button``."""
    return save_button(
        state.busy, type="button", on_click=state.save, id=id_, turn=state.turn, **props
    )


def form_card(*children: rx.Component, max_width: str = "480px", **props: Any) -> rx.Component:
    return rx.box(
        *children,
        class_name="hm-card",
        max_width=max_width,
        width="100%",
        **props,
    )


def notice(text: Any, kind: str = "success") -> rx.Component:
    """A message that stays on the page (role=status so it is read out)."""
    icons = {"success": "circle-check", "info": "info", "error": "circle-alert"}
    colors = {"success": "grass", "info": "blue", "error": "red"}
    return rx.callout.root(
        rx.callout.icon(rx.icon(icons[kind], aria_hidden="true")),
        rx.callout.text(text),
        color_scheme=colors[kind],
        role="alert" if kind == "error" else "status",
        size="1",
        width="100%",
    )


def status_notice(message: Any, status: Any, kinds: dict[str, str], *, id_: str) -> rx.Component:
    """The notice of a flow's current ``status`` (its kind from ``kinds``, else info), shown
    while ``message`` is not empty; ``data-status`` lets tests read the state."""
    return rx.cond(
        message != "",
        rx.box(
            rx.match(
                status,
                *[(value, notice(message, kind)) for value, kind in kinds.items()],
                notice(message, "info"),
            ),
            id=id_,
            custom_attrs={"data-status": status},
            width="100%",
        ),
    )


def link_button(*children: Any, href: str, id_: str | None = None, **button_props: Any) -> Any:
    """A link that looks like a button: one element (a link inside a button would be two
    nested controls for keyboards and screen readers), routed without a page reload."""
    link_props = {"to": href}
    if id_:
        link_props["id"] = id_
    return rx.button(ReactRouterLink.create(*children, **link_props), as_child=True, **button_props)


def server_form(
    *children: Any, on_submit: Any, spacing: str = "4", align: str | None = None, **form_props: Any
) -> rx.Component:
    """A form the server checks: no browser validation and no reset (the state keeps what was
    typed), its fields in one column."""
    layout = {} if align is None else {"align": align}
    return kept_form(
        column(*children, spacing=spacing, **layout), on_submit=on_submit, **form_props
    )


def kept_form(*children: Any, on_submit: Any, **form_props: Any) -> rx.Component:
    """A form the server checks, laid out by its ``children``: no browser validation and no
    reset (the state keeps what was typed)."""
    return rx.form(
        *children, on_submit=on_submit, reset_on_submit=False, no_validate=True, **form_props
    )


def check_label(
    field_id: Any,
    checked: Any,
    on_change: Any,
    *text: Any,
    checkbox: dict[str, Any] | None = None,
    **label_props: Any,
) -> rx.Component:
    """A checkbox and its ``text``, the whole row its label (one tap target): ticked while
    ``checked``, ``on_change`` on a tap; ``checkbox`` holds the box's other props (its size,
    ``disabled``...)."""
    return rx.el.label(
        rx.checkbox(id=field_id, checked=checked, on_change=on_change, **(checkbox or {})),
        *text,
        html_for=field_id,
        **label_props,
    )


def radio_card(
    value: Any,
    id_: Any,
    text: rx.Component,
    *,
    class_name: str | None = None,
    gap: str = "8px",
    min_height: str = "44px",
    padding_x: str = "12px",
    **props: Any,
) -> rx.Component:
    """One radio of a radio group as a bordered row that is its own label (the whole row is
    the tap target)."""
    named = {"class_name": class_name} if class_name is not None else {}
    return rx.el.label(
        rx.radio_group.item(value=value, id=id_),
        text,
        html_for=id_,
        **named,
        display="flex",
        align_items="center",
        gap=gap,
        min_height=min_height,
        padding_x=padding_x,
        border=f"1px solid {rx.color('gray', 7)}",
        border_radius="8px",
        cursor="pointer",
        **props,
    )


def choice_option(value: str, id_: str, title: Any, text: Any) -> rx.Component:
    """One option of a ``choice_fieldset``: its title, and a line saying what it does."""
    return radio_card(
        value,
        id_,
        rx.vstack(
            rx.text(title, weight="medium"),
            rx.text(text, size="2", color=rx.color("gray", 11)),
            spacing="0",
            padding_y="8px",
        ),
        width="100%",
        box_sizing="border-box",
    )


def choice_fieldset(
    legend: Any, options: list[rx.Component], state: Any, *, field: str, save_id: str, **props: Any
) -> rx.Component:
    """A standing choice saved on its own: the ``legend``, one ``radio_card`` per option (the
    radio group bound to ``state.<field>`` and its ``set_<field>``) and a save button
    (``state.save``, busy and one tap through ``state.busy`` and ``state.turn``)."""
    return radio_fieldset(
        legend,
        column(*options, spacing="2"),
        rx.box(state_save_button(state, save_id, width="auto"), margin_top="12px"),
        value=getattr(state, field),
        on_change=getattr(state, f"set_{field}"),
        name=field,
        width="100%",
        **props,
    )


def named_radios(
    choices: rx.Component, label_id: str, value: Any, on_change: Any, *, name: str, **props: Any
) -> rx.Component:
    """A radio group over ``choices`` (one choice, ``name``, its ``value`` and ``on_change``)
    that screen readers name by the visible label whose id is ``label_id``."""
    return rx.radio_group.root(
        choices, value=value, on_change=on_change, name=name, aria_labelledby=label_id, **props
    )


def radio_fieldset(
    legend: Any,
    choices: rx.Component,
    *after: Any,
    value: Any,
    on_change: Any,
    name: str,
    intro: Any | None = None,
    **props: Any,
) -> rx.Component:
    """A fieldset of radios: the ``legend`` (and its ``intro`` line), the radio group over
    ``choices`` (``name``, its ``value`` and ``on_change``), then what comes ``after``."""
    return rx.el.fieldset(
        rx.el.legend(legend, class_name="hm-label"),
        *([intro] if intro is not None else []),
        rx.radio_group.root(choices, value=value, on_change=on_change, name=name, size="3"),
        *after,
        class_name="hm-fieldset",
        **props,
    )


def busy_button(
    *label: Any,
    icon: rx.Component,
    busy: Any,
    turn: Any,
    on_click: Any,
    disabled: Any = None,
    **props: Any,
) -> rx.Component:
    """The button that commits a change or a payment: a spinner in place of its ``icon`` and
    aria-busy while ``busy``, one tap per ``turn`` (``once_attrs``); disabled while busy unless
    ``disabled`` says more."""
    return rx.button(
        rx.cond(busy, rx.spinner(size="2"), icon),
        *label,
        on_click=on_click,
        disabled=busy if disabled is None else disabled,
        **props,
        custom_attrs={**once_attrs(turn), "aria-busy": rx.cond(busy, "true", "false")},
    )


def toggle_button(
    *children: Any, active: Any, on_click: Any, id_: Any, base_class: str, **props: Any
) -> rx.Component:
    """A button that stays pressed while ``active`` (aria-pressed, and ``is-active`` beside
    ``base_class``): a child chip, a mode or range tab."""
    return rx.el.button(
        *children,
        type="button",
        on_click=on_click,
        class_name=rx.cond(active, f"{base_class} is-active", base_class),
        custom_attrs={"aria-pressed": rx.cond(active, "true", "false")},
        id=id_,
        **props,
    )


def field_pair(first: rx.Component, second: rx.Component) -> rx.Component:
    """Two fields side by side from the xs width (first and last name, e-mail and phone), one
    under the other below it."""
    return rx.grid(
        first, second, columns=rx.breakpoints(initial="1", xs="2"), spacing="4", width="100%"
    )


def other_form_link(question: Any, link_text: Any, href: str) -> rx.Component:
    """The line under a sign-in or sign-up form that leads to the other one."""
    return rx.text(question, " ", rx.link(link_text, href=href, weight="medium"), size="2")
