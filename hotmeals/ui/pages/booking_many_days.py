"""'Book several days': ``many_days_panel()``, the Book meal screen's second mode
(hotmeals/ui/pages/meal_detailed.py).

Phones first: one column of day cards, each with its checkbox, meal and size; from 768 px the
day's controls sit on one line. Native checkboxes and selects with real labels (keyboard and
screen readers), one 'Add N meals to cart' button (busy, one submission per tap), then the
report of what was added and what could not be, and why. 'Repeat last week' below."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.forms import busy_button, labelled_box, native_select, toggle_button
from hotmeals.ui.components.icons import icon as svg_icon
from hotmeals.ui.state.i18n import I18nState, t
from hotmeals.ui.state.many_days import ManyDaysState


def _kid(kid: rx.Var) -> rx.Component:
    field_id = "many-kid-" + kid.value.to(str)
    return rx.el.label(
        rx.checkbox(
            id=field_id,
            checked=ManyDaysState.chosen.contains(kid.value),
            on_change=lambda checked: ManyDaysState.toggle_child(kid.value, checked),
        ),
        rx.el.span(kid.label, class_name="hm-chip-name"),
        html_for=field_id,
        class_name=rx.cond(
            ManyDaysState.chosen.contains(kid.value), "hm-child-chip is-active", "hm-child-chip"
        ),
        style={"flexDirection": "row", "alignItems": "center", "gap": "10px"},
    )


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
    open_day = row.state == "open"
    check_id = "many-day-" + key.replace("|", "-")
    meal_id = "many-meal-" + key.replace("|", "-")
    size_id = "many-size-" + key.replace("|", "-")
    ack_id = "many-ack-" + key.replace("|", "-")
    return rx.box(
        rx.flex(
            rx.el.label(
                rx.checkbox(
                    id=check_id,
                    checked=row.picked,
                    disabled=~open_day | (row.meal_id == ""),
                    on_change=lambda checked: ManyDaysState.toggle_day(key, checked),
                    size="3",
                ),
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
                        id="many-note-" + key.replace("|", "-"),
                    ),
                    rx.cond(row.marks != "", rx.el.span(row.marks, class_name="hm-chip-sub")),
                    spacing="0",
                    align="start",
                ),
                html_for=check_id,
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
                    labelled_box(
                        t("ui.many.meal"),
                        meal_id,
                        native_select(
                            meal_id,
                            rx.foreach(
                                row.meals,
                                lambda m: rx.el.option(m.label, value=m.value, disabled=m.disabled),
                            ),
                            value=row.meal_id,
                            on_change=lambda value: ManyDaysState.set_meal(key, value),
                        ),
                        style={"flex": "2 1 200px"},
                    ),
                    labelled_box(
                        t("ui.many.size"),
                        size_id,
                        native_select(
                            size_id,
                            rx.foreach(row.sizes, lambda s: rx.el.option(s.label, value=s.value)),
                            value=row.size,
                            on_change=lambda value: ManyDaysState.set_size(key, value),
                        ),
                        style={"flex": "1 1 220px"},
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
            open_day & (row.allergy != ""),
            rx.cond(
                row.needs_ack,
                rx.el.label(
                    rx.checkbox(
                        id=ack_id,
                        checked=row.ack,
                        on_change=lambda checked: ManyDaysState.set_ack(key, checked),
                    ),
                    rx.el.span(row.allergy),
                    html_for=ack_id,
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
        id="many-row-" + key.replace("|", "-"),
        custom_attrs={"data-state": row.state},
    )


def _report_list(title_key: str, lines: rx.Var, tone: str, id_: str) -> rx.Component:
    return rx.cond(
        lines.length() > 0,
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
        rx.vstack(
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
            width="100%",
            id="many-report",
        ),
    )


def _add_button() -> rx.Component:
    label = ManyDaysState.add_label
    # Disabled only while busy (busy_button's default): assets/forms.js re-enables a
    # data-hm-once button when its turn ends, so a disabled that outlives the turn would not
    # hold. Nothing ticked: the handler says so; a line missing its acknowledgement is refused
    # with the reason.
    return busy_button(
        rx.cond(ManyDaysState.busy, t("ui.many.adding"), label),
        icon=svg_icon("shopping-cart", size=18),
        busy=ManyDaysState.busy,
        turn=ManyDaysState.turn,
        on_click=ManyDaysState.add_all,
        type="button",
        size="3",
        id="many-add",
        width=rx.breakpoints(initial="100%", md="auto"),
    )


def _select(field_id: str, label_key: str, options: rx.Var, value, on_change) -> rx.Component:
    return labelled_box(
        t(label_key),
        field_id,
        native_select(
            field_id,
            rx.foreach(options, lambda o: rx.el.option(o.label, value=o.value)),
            value=value,
            on_change=on_change,
        ),
        style={"flex": "1 1 220px"},
    )


def _repeat() -> rx.Component:
    return rx.box(
        rx.heading(t("ui.many.repeat_title"), as_="h2", size="4"),
        rx.text(t("ui.many.repeat_intro"), color=rx.color("gray", 11), size="2"),
        rx.flex(
            _select(
                "many-source-week",
                "ui.many.copy_from",
                ManyDaysState.source_weeks,
                ManyDaysState.source_week,
                ManyDaysState.set_source_week,
            ),
            _select(
                "many-target-week",
                "ui.many.copy_to",
                ManyDaysState.target_weeks,
                ManyDaysState.target_week,
                ManyDaysState.set_target_week,
            ),
            gap="12px",
            wrap="wrap",
            width="100%",
            margin_top="10px",
        ),
        busy_button(
            rx.cond(ManyDaysState.repeating, t("ui.many.repeating"), t("ui.many.repeat")),
            icon=svg_icon("repeat", size=18),
            busy=ManyDaysState.repeating,
            turn=ManyDaysState.repeat_turn,
            on_click=ManyDaysState.repeat,
            type="button",
            size="3",
            variant="soft",
            id="many-repeat",
            margin_top="12px",
            width=rx.breakpoints(initial="100%", md="auto"),
        ),
        class_name="hm-card",
        padding="16px",
        width="100%",
        id="many-repeat-card",
    )


def many_days_panel() -> rx.Component:
    return rx.vstack(
        # The language changed: reload what the services wrote. Reflex memoizes an element
        # with on_mount into a component of its own, so the key goes on a wrapper.
        rx.box(rx.el.span(on_mount=ManyDaysState.relang), key=I18nState.lang, hidden=True),
        rx.el.span(on_mount=ManyDaysState.open, hidden=True),
        rx.text(t("ui.many.intro"), color=rx.color("gray", 11)),
        rx.cond(
            ManyDaysState.kids.length() > 1,
            rx.box(
                rx.el.p(t("ui.many.who"), id="many-who", class_name="hm-label"),
                rx.flex(
                    rx.foreach(ManyDaysState.kids, _kid),
                    gap="8px",
                    wrap="wrap",
                    role="group",
                    aria_labelledby="many-who",
                    margin_top="6px",
                ),
                width="100%",
            ),
        ),
        rx.box(
            rx.el.p(t("ui.many.which_days"), id="many-days-label", class_name="hm-label"),
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
            rx.center(rx.spinner(size="3"), padding="24px", width="100%"),
            rx.vstack(
                rx.cond(
                    ManyDaysState.error != "",
                    rx.card(rx.text(ManyDaysState.error), width="100%", id="many-error"),
                ),
                rx.foreach(ManyDaysState.rows, _row),
                spacing="2",
                width="100%",
                id="many-days",
            ),
        ),
        _add_button(),
        _report(),
        _repeat(),
        spacing="4",
        width="100%",
        id="many-panel",
    )
