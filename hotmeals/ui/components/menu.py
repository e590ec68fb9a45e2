"""Pieces of the Book meal screen (issue 9): the child picker, the school-day calendar, the
day's menu cards with the child's allergy marks, and the meal dialog (detail, choices, live
price, allergy acknowledgement, Add to cart)."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.forms import once_attrs
from hotmeals.ui.components.standing import repeat_section
from hotmeals.ui.state.booking import BookingState
from hotmeals.ui.state.children import ChildChoiceState
from hotmeals.ui.state.i18n import t
from hotmeals.ui.state.meal_dialog import NOTE_MAX

GRAY_11 = rx.color("gray", 11)


# ---- child -----------------------------------------------------------------------------------


def _child_chip(kid: rx.Var) -> rx.Component:
    chosen = ChildChoiceState.child_id == kid["id"]
    return rx.el.button(
        rx.el.span(kid["name"], class_name="hm-chip-name"),
        rx.el.span(kid["school"], class_name="hm-chip-sub"),
        type="button",
        on_click=BookingState.choose_child(kid["id"]),
        class_name=rx.cond(chosen, "hm-child-chip is-active", "hm-child-chip"),
        custom_attrs={"aria-pressed": rx.cond(chosen, "true", "false")},
        id="book-child-" + kid["id"].to(str),
    )


def child_picker() -> rx.Component:
    return rx.box(
        rx.el.p(t("ui.book.child"), id="book-child-label", class_name="hm-label"),
        rx.flex(
            rx.foreach(BookingState.kids, _child_chip),
            spacing="2",
            wrap="wrap",
            role="group",
            aria_labelledby="book-child-label",
            margin_top="6px",
            class_name="hm-child-row",
        ),
        # The chosen child's allergies, always in view while booking (issue 20).
        rx.el.p(
            rx.icon("shield-alert", size=16, aria_hidden="true"),
            BookingState.child_marks,
            class_name="hm-child-marks",
            id="book-child-marks",
            custom_attrs={"aria-live": "polite"},
        ),
        width="100%",
    )


# ---- calendar --------------------------------------------------------------------------------


def _cell(cell: rx.Var) -> rx.Component:
    selected = cell["date"] == BookingState.selected_date
    kind = cell["kind"].to(str)
    marks = rx.el.span(
        rx.cond(cell["ordered"] != "", rx.el.span(class_name="hm-cal-dot is-ordered")),
        rx.cond(cell["cart"] != "", rx.el.span(class_name="hm-cal-dot is-cart")),
        class_name="hm-cal-marks",
        aria_hidden="true",
    )
    return rx.cond(
        cell["date"] != "",
        rx.el.button(
            rx.el.span(cell["day"], class_name="hm-cal-num"),
            marks,
            type="button",
            on_click=BookingState.choose_day(cell["date"]),
            class_name="hm-cal-cell is-" + kind + rx.cond(selected, " is-selected", ""),
            custom_attrs={
                "aria-label": cell["label"],
                "aria-pressed": rx.cond(selected, "true", "false"),
            },
            id="day-" + cell["date"].to(str),
        ),
        rx.el.span(
            cell["day"],
            class_name="hm-cal-cell is-" + kind,
            aria_hidden="true",
        ),
    )


def _legend_item(css: str, key: str) -> rx.Component:
    return rx.el.li(rx.el.span(class_name=f"hm-legend-swatch {css}"), t(key))


def calendar() -> rx.Component:
    return rx.box(
        rx.flex(
            rx.heading(
                BookingState.month_label,
                as_="h2",
                size="4",
                id="book-month",
                class_name="hm-capitalize",
                custom_attrs={"aria-live": "polite"},
            ),
            rx.hstack(
                rx.icon_button(
                    rx.icon("chevron-left", aria_hidden="true"),
                    on_click=BookingState.prev_month,
                    disabled=~BookingState.has_prev_month,
                    variant="soft",
                    aria_label=t("ui.book.prev_month"),
                    id="book-prev-month",
                ),
                rx.icon_button(
                    rx.icon("chevron-right", aria_hidden="true"),
                    on_click=BookingState.next_month,
                    disabled=~BookingState.has_next_month,
                    variant="soft",
                    aria_label=t("ui.book.next_month"),
                    id="book-next-month",
                ),
                spacing="2",
            ),
            justify="between",
            align="center",
            width="100%",
        ),
        rx.el.div(
            rx.foreach(
                BookingState.weekdays,
                lambda name: rx.el.span(name, class_name="hm-cal-head"),
            ),
            class_name="hm-cal-grid",
            aria_hidden="true",
        ),
        rx.el.div(
            rx.foreach(BookingState.cells, _cell),
            class_name="hm-cal-grid",
            role="group",
            aria_labelledby="book-month",
            id="book-calendar",
        ),
        rx.el.ul(
            _legend_item("is-open", "ui.book.legend_open"),
            _legend_item("is-past", "ui.book.legend_past"),
            _legend_item("is-closed", "ui.book.legend_closed"),
            _legend_item("is-ordered", "ui.book.legend_ordered"),
            _legend_item("is-cart", "ui.book.legend_cart"),
            class_name="hm-legend",
            aria_label=t("ui.book.legend"),
        ),
        class_name="hm-card hm-calendar",
        width="100%",
    )


# ---- the day's menu --------------------------------------------------------------------------


def _allergy_badge(verdict: rx.Var, text: rx.Var) -> rx.Component:
    return rx.match(
        verdict,
        (
            "refused",
            rx.el.p(
                rx.icon("octagon-x", size=16, aria_hidden="true"),
                text,
                class_name="hm-allergy is-refused",
            ),
        ),
        (
            "acknowledge",
            rx.el.p(
                rx.icon("triangle-alert", size=16, aria_hidden="true"),
                text,
                class_name="hm-allergy is-ack",
            ),
        ),
        (
            "notice",
            rx.el.p(
                rx.icon("info", size=16, aria_hidden="true"),
                text,
                class_name="hm-allergy is-notice",
            ),
        ),
        rx.fragment(),
    )


def meal_card(meal: rx.Var) -> rx.Component:
    return rx.el.li(
        rx.image(
            src=meal["image"],
            alt="",
            class_name="hm-meal-img",
            loading="lazy",
            width="320",
            height="200",
        ),
        rx.box(
            rx.heading(meal["name"], as_="h3", size="3"),
            rx.text(meal["vendor"], size="1", color=GRAY_11),
            rx.cond(
                meal["in_cart"] != "",
                rx.el.span(
                    rx.icon("shopping-cart", size=14, aria_hidden="true"),
                    meal["in_cart"],
                    class_name="hm-meal-in-cart",
                ),
            ),
            _allergy_badge(meal["verdict"], meal["badge"]),
            rx.cond(
                meal["verdict"] == "refused",
                rx.text(
                    t("ui.book.cannot_add"), size="2", weight="medium", color=rx.color("red", 11)
                ),
            ),
            rx.el.p(meal["contains"], class_name="hm-meal-contains"),
            rx.cond(
                meal["extras"] != "",
                rx.el.p(meal["extras"], class_name="hm-meal-contains is-extras"),
            ),
            rx.cond(
                meal["cutoff"] != "",
                rx.el.p(
                    rx.icon("clock", size=14, aria_hidden="true"),
                    meal["cutoff"],
                    class_name="hm-meal-cutoff",
                ),
            ),
            rx.flex(
                rx.text(meal["price_from"], weight="bold", size="3", class_name="hm-tabular"),
                rx.button(
                    t("ui.book.view"),
                    on_click=BookingState.open_meal(meal["meal_id"]),
                    variant=rx.cond(meal["verdict"] == "refused", "outline", "solid"),
                    color_scheme=rx.cond(meal["verdict"] == "refused", "gray", "tomato"),
                    size="2",
                    aria_label=meal["choose_label"],
                    id="meal-" + meal["meal_id"].to(str),
                ),
                justify="between",
                align="center",
                margin_top="auto",
                padding_top="8px",
            ),
            class_name="hm-meal-body",
        ),
        class_name=rx.cond(meal["verdict"] == "refused", "hm-meal-card is-refused", "hm-meal-card"),
    )


def safe_filter() -> rx.Component:
    """The "Safe for Emma" switch, labelled, and what it hides."""
    return rx.box(
        rx.el.label(
            rx.switch(
                checked=BookingState.safe_only,
                on_change=BookingState.set_safe_only,
                id="book-safe-only",
                color_scheme="grass",
                custom_attrs={"aria-describedby": "book-safe-hint"},
            ),
            rx.el.span(BookingState.safe_label, class_name="hm-safe-label"),
            html_for="book-safe-only",
            class_name="hm-safe-filter",
        ),
        rx.el.p(
            rx.cond(
                BookingState.hidden_note != "", BookingState.hidden_note, BookingState.safe_hint
            ),
            id="book-safe-hint",
            class_name="hm-hint",
            custom_attrs={"aria-live": "polite"},
        ),
        width="100%",
    )


def day_menu() -> rx.Component:
    return rx.box(
        rx.cond(
            BookingState.selected_date == "",
            rx.text(t("ui.book.pick_day"), color=GRAY_11, id="book-pick-day"),
            rx.vstack(
                rx.heading(
                    BookingState.selected_label,
                    as_="h2",
                    size="5",
                    id="book-day-title",
                    class_name="hm-capitalize",
                ),
                rx.el.p(
                    # Two fixed icons, not one named by a Var: a Var name makes Lucide's
                    # DynamicIcon import its map of every icon (37 KiB) on the page (issue 11).
                    rx.cond(
                        BookingState.selected_kind == "open",
                        rx.icon("clock", size=16, aria_hidden="true"),
                        rx.icon("calendar-x", size=16, aria_hidden="true"),
                    ),
                    BookingState.selected_note,
                    class_name="hm-day-note is-" + BookingState.selected_kind,
                    id="book-day-note",
                ),
                rx.cond(BookingState.meals.length() > 0, safe_filter()),
                rx.cond(
                    BookingState.loading_menu,
                    rx.center(rx.spinner(size="3"), padding="24px", width="100%"),
                    rx.cond(
                        BookingState.meals.length() > 0,
                        rx.el.ul(
                            rx.foreach(BookingState.shown_meals, meal_card),
                            class_name="hm-meal-grid",
                            id="book-meals",
                        ),
                        rx.cond(
                            BookingState.menu_error != "",
                            rx.text(BookingState.menu_error, color=GRAY_11),
                        ),
                    ),
                ),
                spacing="3",
                width="100%",
            ),
        ),
        width="100%",
        id="book-day",
    )


# ---- the meal dialog -------------------------------------------------------------------------


def _section(title_key: str, *children: rx.Component) -> rx.Component:
    return rx.box(
        rx.heading(t(title_key), as_="h3", size="3", margin_bottom="6px"),
        *children,
        width="100%",
    )


def _facts() -> rx.Component:
    return rx.el.details(
        rx.el.summary(t("ui.book.nutrition"), class_name="hm-faq-q"),
        rx.box(
            rx.text(t("ui.book.nutrition_note"), size="1", color=GRAY_11),
            rx.el.dl(
                rx.foreach(
                    BookingState.nutrition,
                    lambda n: rx.el.div(
                        rx.el.dt(n["label"]),
                        rx.el.dd(n["value"], class_name="hm-tabular"),
                        class_name="hm-fact",
                    ),
                ),
                class_name="hm-facts",
                id="meal-nutrition",
            ),
            padding="0 16px 12px",
        ),
        class_name="hm-faq",
    )


def _hero() -> rx.Component:
    detail = BookingState.detail
    return rx.vstack(
        rx.image(
            src=detail["image"],
            alt="",
            class_name="hm-meal-hero",
            width="640",
            height="400",
        ),
        rx.text(detail["description"], size="2"),
        spacing="3",
        width="100%",
    )


def _about() -> rx.Component:
    detail = BookingState.detail
    return rx.vstack(
        _section("ui.book.allergens", rx.text(detail["allergens"], size="2", id="meal-allergens")),
        _section("ui.book.ingredients", rx.text(detail["ingredients"], size="2")),
        _section("ui.book.cooking", rx.text(detail["cooking"], size="2")),
        _facts(),
        spacing="3",
        width="100%",
    )


def _size_choice(portion: rx.Var) -> rx.Component:
    return rx.el.label(
        rx.radio_group.item(value=portion["id"], id="size-" + portion["id"].to(str)),
        rx.el.span(portion["label"], class_name="hm-choice-text"),
        rx.el.span(portion["price"], class_name="hm-choice-price hm-tabular"),
        html_for="size-" + portion["id"].to(str),
        class_name="hm-choice-row",
    )


def _item_mark(item: rx.Var, id_prefix: str, key: str = "mark") -> rx.Component:
    """An option's or add-on's mark for the child, before the tap (issue 20)."""
    return rx.cond(
        item[key] != "",
        rx.el.span(
            item[key],
            class_name="hm-item-mark is-" + item["verdict"].to(str),
            id=id_prefix + item["id"].to(str),
        ),
    )


def _option_select(field_id: str, label_key: str, options: rx.Var, value, on_change):
    return rx.cond(
        options.length() > 0,
        rx.box(
            rx.el.label(t(label_key), html_for=field_id, class_name="hm-label"),
            rx.el.select(
                rx.el.option(t("ui.book.no_option"), value=""),
                rx.foreach(
                    options,
                    # A Major one is listed, greyed, with why; it cannot be picked.
                    lambda o: rx.el.option(o["label"], value=o["id"], disabled=o["disabled"] != ""),
                ),
                id=field_id,
                value=value,
                on_change=on_change,
                class_name="hm-select",
                custom_attrs={"aria-describedby": field_id + "-marks"},
            ),
            # Each option's mark in view, not only inside the closed list.
            rx.el.div(
                rx.foreach(options, lambda o: _item_mark(o, field_id + "-mark-", "named_mark")),
                id=field_id + "-marks",
                class_name="hm-item-marks",
            ),
            class_name="hm-field",
        ),
    )


def _addon(addon: rx.Var) -> rx.Component:
    field_id = "addon-" + addon["id"].to(str)
    refused = addon["disabled"] != ""
    return rx.el.label(
        rx.checkbox(
            checked=BookingState.chosen_addons.contains(addon["id"]),
            on_change=lambda checked: BookingState.toggle_addon(addon["id"], checked),
            disabled=refused,
            id=field_id,
            custom_attrs={"aria-describedby": "addon-mark-" + addon["id"].to(str)},
        ),
        rx.el.span(
            rx.el.span(addon["name"], class_name="hm-choice-name"),
            _item_mark(addon, "addon-mark-"),
            class_name="hm-choice-text hm-choice-body",
        ),
        rx.el.span(addon["price"], class_name="hm-choice-price hm-tabular"),
        html_for=field_id,
        class_name=rx.cond(refused, "hm-choice-row is-refused", "hm-choice-row"),
    )


def _quantity() -> rx.Component:
    return rx.box(
        rx.el.p(t("ui.book.quantity"), id="meal-qty-label", class_name="hm-label"),
        rx.hstack(
            rx.icon_button(
                rx.icon("minus", aria_hidden="true"),
                on_click=BookingState.change_quantity(-1),
                disabled=BookingState.quantity <= 1,
                variant="soft",
                aria_label=t("ui.book.less"),
                id="meal-qty-less",
            ),
            rx.el.output(
                BookingState.quantity,
                id="meal-qty",
                class_name="hm-qty hm-tabular",
                custom_attrs={"aria-labelledby": "meal-qty-label", "aria-live": "polite"},
            ),
            rx.icon_button(
                rx.icon("plus", aria_hidden="true"),
                on_click=BookingState.change_quantity(1),
                disabled=BookingState.quantity >= 50,
                variant="soft",
                aria_label=t("ui.book.more"),
                id="meal-qty-more",
            ),
            align="center",
            spacing="3",
        ),
    )


def _note() -> rx.Component:
    return rx.box(
        rx.el.label(BookingState.note_fee, html_for="meal-note", class_name="hm-label"),
        rx.el.textarea(
            # Uncontrolled (the dialog mounts it anew for each meal): a controlled field would
            # lose keystrokes typed while the server answers. Not debounced, and flushed on
            # blur: a note typed just before 'Add to cart' reaches the server before the add
            # (blur comes before the click, and events keep their order).
            default_value=BookingState.note,
            on_change=BookingState.set_note,
            on_blur=BookingState.set_note,
            id="meal-note",
            max_length=NOTE_MAX,
            rows=2,
            class_name="hm-textarea",
            custom_attrs={"aria-describedby": "meal-note-hint meal-note-count"},
        ),
        rx.flex(
            rx.el.p(
                t("ui.book.note_hint"),
                id="meal-note-hint",
                class_name="hm-hint",
            ),
            rx.el.p(
                BookingState.note_count.to_string() + f"/{NOTE_MAX}",
                id="meal-note-count",
                class_name="hm-hint hm-tabular",
            ),
            justify="between",
            spacing="3",
        ),
        class_name="hm-field",
    )


def _allergy_block() -> rx.Component:
    detail = BookingState.detail
    return rx.match(
        detail["verdict"],
        (
            "refused",
            rx.box(
                rx.el.p(
                    rx.icon("octagon-x", size=18, aria_hidden="true"),
                    detail["allergy_message"],
                    class_name="hm-allergy is-refused",
                ),
                role="alert",
                id="meal-allergy",
            ),
        ),
        (
            "acknowledge",
            rx.el.label(
                rx.checkbox(
                    checked=BookingState.acknowledged,
                    on_change=BookingState.set_acknowledged,
                    id="meal-ack",
                    color_scheme="orange",
                ),
                rx.el.span(detail["allergy_message"], class_name="hm-check-label"),
                html_for="meal-ack",
                class_name="hm-ack",
                id="meal-allergy",
            ),
        ),
        (
            "notice",
            rx.el.p(
                rx.icon("info", size=18, aria_hidden="true"),
                detail["allergy_message"],
                class_name="hm-allergy is-notice",
                id="meal-allergy",
            ),
        ),
        rx.fragment(),
    )


def _choices() -> rx.Component:
    return rx.vstack(
        _allergy_block(),
        rx.cond(BookingState.detail["meal_verdict"] != "refused", _options()),
        spacing="4",
        width="100%",
    )


def _options() -> rx.Component:
    return rx.vstack(
        rx.box(
            rx.el.p(t("ui.book.size"), id="meal-size-label", class_name="hm-label"),
            rx.radio_group.root(
                rx.vstack(rx.foreach(BookingState.portions, _size_choice), spacing="2"),
                value=BookingState.portion_id,
                on_change=BookingState.set_portion,
                name="size",
                aria_labelledby="meal-size-label",
            ),
            width="100%",
        ),
        _option_select(
            "meal-menu-option",
            "ui.book.menu_option",
            BookingState.menu_options,
            BookingState.menu_option_id,
            BookingState.set_menu_option,
        ),
        _option_select(
            "meal-meal-option",
            "ui.book.meal_option",
            BookingState.meal_options,
            BookingState.meal_option_id,
            BookingState.set_meal_option,
        ),
        rx.cond(
            BookingState.addons.length() > 0,
            rx.box(
                rx.el.p(t("ui.book.addons"), id="meal-addons-label", class_name="hm-label"),
                rx.vstack(
                    rx.foreach(BookingState.addons, _addon),
                    spacing="2",
                    role="group",
                    aria_labelledby="meal-addons-label",
                ),
                width="100%",
            ),
        ),
        _quantity(),
        _note(),
        # A standing order from this day (issue 26); not when adding to an existing order.
        rx.cond(BookingState.order_number == "", repeat_section()),
        rx.box(
            rx.el.p(t("ui.book.tiers"), class_name="hm-label"),
            rx.el.ul(
                rx.foreach(BookingState.tiers, lambda tier: rx.el.li(tier["label"])),
                class_name="hm-tiers",
                id="meal-tiers",
            ),
            width="100%",
        ),
        spacing="4",
        width="100%",
    )


def _add_bar() -> rx.Component:
    return rx.flex(
        rx.box(
            rx.text(t("ui.book.total"), size="1", color=GRAY_11),
            rx.text(
                BookingState.line_total,
                size="5",
                weight="bold",
                id="meal-total",
                class_name="hm-tabular",
                custom_attrs={"aria-live": "polite"},
            ),
        ),
        rx.cond(
            BookingState.add_error != "",
            rx.el.p(
                BookingState.add_error,
                role="alert",
                id="meal-add-error",
                class_name="hm-item-mark is-refused hm-add-error",
            ),
            # Why 'Add to cart' waits: the box to tick may be scrolled out of view.
            rx.cond(
                (BookingState.detail["verdict"] == "acknowledge") & ~BookingState.acknowledged,
                rx.el.p(
                    t("ui.book.ack_needed"),
                    id="meal-ack-needed",
                    class_name="hm-item-mark is-acknowledge hm-add-error",
                ),
            ),
        ),
        rx.button(
            rx.cond(BookingState.busy, rx.spinner(size="2"), rx.icon("shopping-cart", size=18)),
            rx.cond(
                BookingState.busy,
                t("ui.book.adding"),
                # the add-item step of modify-order adds to the order, not the cart
                rx.cond(
                    BookingState.order_number != "", t("ui.change.add_to_order"), t("ui.book.add")
                ),
            ),
            on_click=BookingState.add,
            disabled=BookingState.busy | ~BookingState.can_add,
            size="3",
            id="meal-add",
            custom_attrs={
                "aria-busy": rx.cond(BookingState.busy, "true", "false"),
                **once_attrs(BookingState.turn),
            },
        ),
        justify="between",
        align="center",
        spacing="3",
        wrap="wrap",
        class_name="hm-add-bar",
    )


def meal_dialog() -> rx.Component:
    detail = BookingState.detail
    return rx.dialog.root(
        rx.dialog.content(
            rx.flex(
                rx.box(
                    rx.dialog.title(detail["name"], margin="0", id="meal-title"),
                    rx.text(detail["vendor"], " · ", detail["day"], size="2", color=GRAY_11),
                    # Who the meal is for, with the child's allergies (issue 20).
                    rx.el.p(
                        rx.el.strong(BookingState.for_child, id="meal-for"),
                        rx.el.span(BookingState.child_marks, id="meal-child-marks"),
                        class_name="hm-meal-for",
                    ),
                ),
                rx.dialog.close(
                    rx.icon_button(
                        rx.icon("x", aria_hidden="true"),
                        variant="ghost",
                        color_scheme="gray",
                        aria_label=t("ui.common.close"),
                        id="meal-close",
                    ),
                ),
                justify="between",
                align="start",
                spacing="3",
            ),
            rx.dialog.description(detail["description"], class_name="sr-only"),
            rx.el.div(
                rx.box(_hero(), class_name="hm-meal-hero-area"),
                rx.box(_choices(), class_name="hm-meal-choices"),
                rx.box(_about(), class_name="hm-meal-about"),
                class_name="hm-meal-layout",
            ),
            _add_bar(),
            max_width="960px",
            width="calc(100vw - 16px)",
            class_name="hm-meal-dialog",
            id="meal-dialog",
        ),
        open=BookingState.detail_open,
        on_open_change=BookingState.set_detail_open,
    )
