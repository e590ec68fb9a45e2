"""'Book several days': ``many_days_panel()``, the Book meal screen's second mode
(hotmeals/ui/screens/book_meal/page.py).

Phones first: one column of day cards, each with its checkbox, meal and size; from 768 px the
day's controls sit on one line. Native checkboxes and selects with real labels (keyboard and
screen readers), one 'Add N meals to cart' button (busy, one submission per tap), then the
report of what was added and what could not be, and why. 'Repeat last week' below."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reflex as rx

from hotmeals.ui.components.forms import (
    busy_button,
    check_label,
    labelled_box,
    native_select,
    toggle_button,
)
from hotmeals.ui.components.icons import icon as svg_icon
from hotmeals.ui.components.order_parts import (
    PHONE_WIDE,
    child_chips,
    chip_row,
    labelled_group,
    muted,
    note_card,
)
from hotmeals.ui.components.panels import column, items_or, loading_spinner
from hotmeals.ui.screens.book_meal.many_days_state import ManyDaysState
from hotmeals.ui.shared_state.i18n import I18nState, t


def _range_button(name: str, label_key: str) -> rx.Component:
    active = ManyDaysState.range_name == name
    return toggle_button(
        t(label_key),
        active=active,
        on_click=ManyDaysState.pick_range(name),
        id_=f"many-range-{name}",
        base_class="hm-tab",
        style={"minHeight": "44px", "borderRadius": "14px", "lineHeight": "1.2"},
    )


def _row(row: rx.Var) -> rx.Component:
    key = row.key.to(str)
    dom_key = key.replace("|", "-")
    open_day = row.state == "open"
    check_id = "many-day-" + dom_key
    ack_id = "many-ack-" + dom_key
    diet_id = "many-diet-" + dom_key
    return rx.box(
        rx.flex(
            check_label(
                check_id,
                row.picked,
                lambda checked: ManyDaysState.toggle_day(key, checked),
                rx.vstack(
                    rx.el.span(
                        row.label,
                        class_name="hm-capitalize",
                        style={"fontWeight": "600"},
                    ),
                    rx.cond(
                        ManyDaysState.chosen.length() > 1,
                        rx.el.span(row.child_name, class_name="hm-chip-sub"),
                    ),
                    rx.el.span(
                        row.note,
                        class_name="hm-chip-sub",
                        id="many-note-" + dom_key,
                    ),
                    rx.cond(row.marks != "", rx.el.span(row.marks, class_name="hm-chip-sub")),
                    spacing="0",
                    align="start",
                ),
                checkbox={"disabled": ~open_day | (row.meal_id == ""), "size": "3"},
                style={
                    "display": "flex",
                    "gap": "12px",
                    "alignItems": "flex-start",
                    "cursor": "pointer",
                    "minWidth": "220px",
                    "flex": "1 1 220px",
                },
            ),
            rx.cond(
                open_day & (row.meals.length() > 0),
                rx.flex(
                    _select(
                        "many-meal-" + dom_key,
                        "ui.many.meal",
                        row.meals,
                        row.meal_id,
                        lambda value: ManyDaysState.set_meal(key, value),
                        flex="2 1 200px",
                        option=lambda m: rx.el.option(m.label, value=m.value, disabled=m.disabled),
                    ),
                    _select(
                        "many-size-" + dom_key,
                        "ui.many.size",
                        row.sizes,
                        row.size,
                        lambda value: ManyDaysState.set_size(key, value),
                    ),
                    gap="12px",
                    wrap="wrap",
                    style={"flex": "3 1 360px"},
                ),
            ),
            gap="12px",
            wrap="wrap",
            align="start",
            width="100%",
        ),
        rx.cond(
            open_day & (row.diet != ""),
            check_label(
                diet_id,
                row.diet_ack,
                lambda checked: ManyDaysState.set_diet_ack(key, checked),
                rx.el.span(row.diet),
                style={"display": "flex", "gap": "10px", "marginTop": "10px", "fontWeight": "500"},
            ),
        ),
        rx.cond(
            open_day & (row.allergy != ""),
            rx.cond(
                row.needs_ack,
                check_label(
                    ack_id,
                    row.ack,
                    lambda checked: ManyDaysState.set_ack(key, checked),
                    rx.el.span(row.allergy),
                    style={
                        "display": "flex",
                        "gap": "10px",
                        "marginTop": "10px",
                        "color": "var(--orange-11)",
                        "fontWeight": "600",
                    },
                ),
                rx.el.p(
                    row.allergy,
                    style={"marginTop": "8px", "fontSize": "14px", "color": "var(--gray-11)"},
                ),
            ),
        ),
        class_name="hm-card",
        padding="14px",
        width="100%",
        opacity=rx.cond(open_day, "1", "0.75"),
        id="many-row-" + dom_key,
        custom_attrs={"data-state": row.state},
    )


def _report_list(title_key: str, lines: rx.Var, tone: str, id_: str) -> rx.Component:
    return items_or(
        lines,
        rx.box(
            rx.heading(t(title_key), as_="h3", size="3"),
            rx.el.ul(
                rx.foreach(
                    lines,
                    lambda line: rx.el.li(
                        rx.el.strong(
                            line.day,
                            rx.cond(line.who != "", " · " + line.who.to(str), ""),
                            class_name="hm-capitalize",
                        ),
                        rx.cond(line.meal != "", " — " + line.meal.to(str), ""),
                        rx.cond(
                            line.reason != "", t("ui.many.sep").to(str) + line.reason.to(str), ""
                        ),
                        style={"marginTop": "4px"},
                    ),
                ),
                style={"paddingLeft": "18px", "margin": "6px 0 0"},
            ),
            style={"borderLeft": f"4px solid var(--{tone}-9)", "paddingLeft": "12px"},
            id=id_,
            width="100%",
        ),
    )


def _report() -> rx.Component:
    return rx.cond(
        ManyDaysState.report_title != "",
        column(
            rx.el.p(
                ManyDaysState.report_title,
                role="status",
                style={"fontWeight": "700"},
                id="many-report-title",
            ),
            _report_list("ui.many.added", ManyDaysState.report_added, "grass", "many-added"),
            _report_list("ui.many.refused", ManyDaysState.report_refused, "red", "many-refused"),
            _report_list("ui.many.skipped", ManyDaysState.report_skipped, "gray", "many-skipped"),
            rx.link(t("ui.many.go_cart"), href="/parent/edit-profile/cart", id="many-go-cart"),
            class_name="hm-card",
            padding="16px",
            spacing="3",
            id="many-report",
        ),
    )


def _panel_button(
    label: Any, busy_label_key: str, icon: str, busy: Any, turn: Any, on_click: Any, **props: Any
) -> rx.Component:
    """The panel's commit buttons (busy and one tap per turn): full width on a phone.
    Disabled only while busy (busy_button's default): assets/forms.js re-enables a
    data-hm-once button when its turn ends, so a disabled that outlives the turn would not
    hold."""
    return busy_button(
        rx.cond(busy, t(busy_label_key), label),
        icon=svg_icon(icon, size=18),
        busy=busy,
        turn=turn,
        on_click=on_click,
        type="button",
        size="3",
        **props,
        width=PHONE_WIDE,
    )


def _add_button() -> rx.Component:
    # Nothing ticked: the handler says so; a line missing its acknowledgement is refused
    # with the reason.
    return _panel_button(
        ManyDaysState.add_label,
        "ui.many.adding",
        "shopping-cart",
        ManyDaysState.busy,
        ManyDaysState.turn,
        ManyDaysState.add_all,
        id="many-add",
    )


def _plain_option(o: rx.Var) -> rx.Component:
    return rx.el.option(o.label, value=o.value)


def _select(
    field_id: Any,
    label_key: str,
    options: rx.Var,
    value: Any,
    on_change: Any,
    *,
    flex: str = "1 1 220px",
    option: Callable[[Any], rx.Component] = _plain_option,
) -> rx.Component:
    """A native select under its label; ``flex``: its share of the row it wraps in."""
    return labelled_box(
        t(label_key),
        field_id,
        native_select(field_id, rx.foreach(options, option), value=value, on_change=on_change),
        style={"flex": flex},
    )


def _week_select(end: str, label_key: str) -> rx.Component:
    """The week a repeat copies from (``end`` "source") or to ("target"): the state's
    ``<end>_weeks``, ``<end>_week`` and ``set_<end>_week``."""
    return _select(
        f"many-{end}-week",
        label_key,
        getattr(ManyDaysState, f"{end}_weeks"),
        getattr(ManyDaysState, f"{end}_week"),
        getattr(ManyDaysState, f"set_{end}_week"),
    )


def _repeat() -> rx.Component:
    return rx.box(
        rx.heading(t("ui.many.repeat_title"), as_="h2", size="4"),
        muted(t("ui.many.repeat_intro"), size="2"),
        rx.flex(
            _week_select("source", "ui.many.copy_from"),
            _week_select("target", "ui.many.copy_to"),
            gap="12px",
            wrap="wrap",
            width="100%",
            margin_top="10px",
        ),
        _panel_button(
            t("ui.many.repeat"),
            "ui.many.repeating",
            "repeat",
            ManyDaysState.repeating,
            ManyDaysState.repeat_turn,
            ManyDaysState.repeat,
            variant="soft",
            id="many-repeat",
            margin_top="12px",
        ),
        class_name="hm-card",
        padding="16px",
        width="100%",
        id="many-repeat-card",
    )


def many_days_panel() -> rx.Component:
    return column(
        # The language changed: reload what the services wrote. Reflex memoizes an element
        # with on_mount into a component of its own, so the key goes on a wrapper.
        rx.box(rx.el.span(on_mount=ManyDaysState.relang), key=I18nState.lang, hidden=True),
        rx.el.span(on_mount=ManyDaysState.open, hidden=True),
        muted(t("ui.many.intro")),
        rx.cond(
            ManyDaysState.kids.length() > 1,
            labelled_group(
                t("ui.many.who"),
                "many-who",
                chip_row(child_chips(ManyDaysState, "many-kid-"), label_id="many-who", gap="8px"),
                width="100%",
            ),
        ),
        labelled_group(
            t("ui.many.which_days"),
            "many-days-label",
            rx.el.div(
                _range_button("this_week", "ui.many.this_week"),
                _range_button("next_week", "ui.many.next_week"),
                _range_button("month", "ui.many.month"),
                class_name="hm-tabs hm-book-tabs",
                role="group",
                aria_labelledby="many-days-label",
                style={
                    "marginTop": "6px",
                    "maxWidth": "560px",
                    "gridTemplateColumns": "repeat(3, minmax(0, 1fr))",
                    "borderRadius": "18px",
                },
            ),
            width="100%",
        ),
        rx.cond(
            ManyDaysState.loading,
            loading_spinner(padding="24px"),
            column(
                rx.cond(ManyDaysState.error != "", note_card(ManyDaysState.error, "many-error")),
                rx.foreach(ManyDaysState.rows, _row),
                spacing="2",
                id="many-days",
            ),
        ),
        _add_button(),
        _report(),
        _repeat(),
        spacing="4",
        id="many-panel",
    )
