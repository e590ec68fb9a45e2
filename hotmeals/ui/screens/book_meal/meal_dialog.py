"""The Book meal screen's meal dialog: detail, choices, live price, the allergy
acknowledgement, the child's diet (fits, or what it misses, and the notice with "Add it anyway"),
"Repeat every <weekday>" and Add to cart."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.after_parts import item_list
from hotmeals.ui.components.dialogs import title_bar
from hotmeals.ui.components.forms import (
    busy_button,
    check_label,
    labelled_box,
    named_radios,
    native_select,
)
from hotmeals.ui.components.icons import icon as svg_icon
from hotmeals.ui.components.icons import icon_only_button
from hotmeals.ui.components.order_parts import figure, labelled_group, meal_picture, muted
from hotmeals.ui.components.panels import column, faq_fold, items_or
from hotmeals.ui.screens.book_meal.day_menu import allergy_note
from hotmeals.ui.screens.book_meal.meal_dialog_state import NOTE_MAX
from hotmeals.ui.screens.book_meal.standing_repeat import repeat_section
from hotmeals.ui.screens.book_meal.state import BookingState
from hotmeals.ui.shared_state.i18n import t

# ---- the meal dialog -------------------------------------------------------------------------


def _section(title_key: str, *children: rx.Component) -> rx.Component:
    return rx.box(
        rx.heading(t(title_key), as_="h3", size="3", margin_bottom="6px"),
        *children,
        width="100%",
    )


def _facts() -> rx.Component:
    return faq_fold(
        t("ui.book.nutrition"),
        rx.box(
            muted(t("ui.book.nutrition_note"), size="1"),
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
    )


def _hero() -> rx.Component:
    detail = BookingState.detail
    return column(
        meal_picture(detail["image"], "hm-meal-hero", "640", "400"),
        rx.text(detail["description"], size="2"),
        spacing="3",
    )


def _about() -> rx.Component:
    detail = BookingState.detail
    return column(
        _section("ui.book.allergens", rx.text(detail["allergens"], size="2", id="meal-allergens")),
        _section("ui.book.ingredients", rx.text(detail["ingredients"], size="2")),
        _section("ui.book.cooking", rx.text(detail["cooking"], size="2")),
        _facts(),
        spacing="3",
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
    """An option's or add-on's mark for the child, before the tap."""
    return rx.cond(
        item[key] != "",
        rx.el.span(
            item[key],
            class_name="hm-item-mark is-" + item["verdict"].to(str),
            id=id_prefix + item["id"].to(str),
        ),
    )


def _option_select(name: str) -> rx.Component:
    """The choice of the meal's ``name`` ("menu_option" or "meal_option"): the state's
    ``<name>s``, ``<name>_id`` and ``set_<name>``, its label ``ui.book.<name>``."""
    field_id = "meal-" + name.replace("_", "-")
    options = getattr(BookingState, f"{name}s")
    return items_or(
        options,
        labelled_box(
            t(f"ui.book.{name}"),
            field_id,
            native_select(
                field_id,
                rx.el.option(t("ui.book.no_option"), value=""),
                rx.foreach(
                    options,
                    # A Major one is listed, greyed, with why; it cannot be picked.
                    lambda o: rx.el.option(o["label"], value=o["id"], disabled=o["disabled"] != ""),
                ),
                value=getattr(BookingState, f"{name}_id"),
                on_change=getattr(BookingState, f"set_{name}"),
                custom_attrs={"aria-describedby": field_id + "-marks"},
            ),
            # Each option's mark in view, not only inside the closed list.
            rx.el.div(
                rx.foreach(options, lambda o: _item_mark(o, field_id + "-mark-", "named_mark")),
                id=field_id + "-marks",
                class_name="hm-item-marks",
            ),
        ),
    )


def _addon(addon: rx.Var) -> rx.Component:
    field_id = "addon-" + addon["id"].to(str)
    refused = addon["disabled"] != ""
    return check_label(
        field_id,
        BookingState.chosen_addons.contains(addon["id"]),
        lambda checked: BookingState.toggle_addon(addon["id"], checked),
        rx.el.span(
            rx.el.span(addon["name"], class_name="hm-choice-name"),
            _item_mark(addon, "addon-mark-"),
            class_name="hm-choice-text hm-choice-body",
        ),
        rx.el.span(addon["price"], class_name="hm-choice-price hm-tabular"),
        checkbox={
            "disabled": refused,
            "custom_attrs": {"aria-describedby": "addon-mark-" + addon["id"].to(str)},
        },
        class_name=rx.cond(refused, "hm-choice-row is-refused", "hm-choice-row"),
    )


def _step_button(icon: str, step: int, disabled: rx.Var, label_key: str, id_: str) -> rx.Component:
    """One less or one more of the meal."""
    return icon_only_button(
        svg_icon(icon, aria_hidden="true"),
        t(label_key),
        on_click=BookingState.change_quantity(step),
        disabled=disabled,
        id=id_,
    )


def _quantity() -> rx.Component:
    return labelled_group(
        t("ui.book.quantity"),
        "meal-qty-label",
        rx.hstack(
            _step_button("minus", -1, BookingState.quantity <= 1, "ui.book.less", "meal-qty-less"),
            rx.el.output(
                BookingState.quantity,
                id="meal-qty",
                class_name="hm-qty hm-tabular",
                custom_attrs={"aria-labelledby": "meal-qty-label", "aria-live": "polite"},
            ),
            _step_button("plus", 1, BookingState.quantity >= 50, "ui.book.more", "meal-qty-more"),
            align="center",
            spacing="3",
        ),
    )


def _note() -> rx.Component:
    return labelled_box(
        BookingState.note_fee,
        "meal-note",
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
    )


def _allergy_block() -> rx.Component:
    detail = BookingState.detail
    return rx.match(
        detail["verdict"],
        (
            "refused",
            rx.box(
                allergy_note("octagon-x", detail["allergy_message"], "is-refused", 18),
                role="alert",
                id="meal-allergy",
            ),
        ),
        (
            "acknowledge",
            check_label(
                "meal-ack",
                BookingState.acknowledged,
                BookingState.set_acknowledged,
                rx.el.span(detail["allergy_message"], class_name="hm-check-label"),
                checkbox={"color_scheme": "orange"},
                class_name="hm-ack",
                id="meal-allergy",
            ),
        ),
        (
            "notice",
            allergy_note("info", detail["allergy_message"], "is-notice", 18, id="meal-allergy"),
        ),
        rx.fragment(),
    )


def _diet_block() -> rx.Component:
    """The child's diet on the meal as composed: "Fits Emma's diet", or what it misses."""
    detail = BookingState.detail
    return rx.fragment(
        rx.cond(
            detail["diet_fits"] != "",
            rx.el.p(
                svg_icon("leaf", size=16, aria_hidden="true"),
                detail["diet_fits"],
                class_name="hm-diet is-fits",
                id="meal-diet",
            ),
        ),
        rx.cond(
            detail["diet_miss"] != "",
            rx.el.p(
                svg_icon("info", size=16, aria_hidden="true"),
                detail["diet_miss"],
                class_name="hm-diet is-miss",
                id="meal-diet",
            ),
        ),
    )


def _diet_notice() -> rx.Component:
    """The server's notice that the meal does not fit the child's diet, and the button that
    adds it anyway."""
    return rx.fragment(
        rx.flex(
            rx.el.p(
                BookingState.diet_notice,
                role="alert",
                id="meal-diet-notice",
                class_name="hm-item-mark is-acknowledge hm-add-error",
            ),
            busy_button(
                t("ui.diet.confirm"),
                icon=svg_icon("shopping-cart", size=16),
                busy=BookingState.busy,
                turn=BookingState.turn,
                on_click=BookingState.confirm_diet,
                size="3",
                id="meal-diet-confirm",
            ),
            direction="column",
            align="start",
            gap="8px",
            width="100%",
        ),
    )


def _choices() -> rx.Component:
    return column(
        _allergy_block(),
        _diet_block(),
        rx.cond(BookingState.detail["meal_verdict"] != "refused", _options()),
        spacing="4",
    )


def _options() -> rx.Component:
    return column(
        labelled_group(
            t("ui.book.size"),
            "meal-size-label",
            named_radios(
                rx.vstack(rx.foreach(BookingState.portions, _size_choice), spacing="2"),
                "meal-size-label",
                BookingState.portion_id,
                BookingState.set_portion,
                name="size",
            ),
            width="100%",
        ),
        _option_select("menu_option"),
        _option_select("meal_option"),
        items_or(
            BookingState.addons,
            labelled_group(
                t("ui.book.addons"),
                "meal-addons-label",
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
        # A standing order from this day; not when adding to an existing order.
        rx.cond(BookingState.order_number == "", repeat_section()),
        labelled_group(
            t("ui.book.tiers"),
            None,
            item_list(
                BookingState.tiers,
                lambda tier: rx.el.li(tier["label"]),
                "meal-tiers",
                class_name="hm-tiers",
            ),
            width="100%",
        ),
        spacing="4",
    )


def _add_bar() -> rx.Component:
    return rx.flex(
        rx.box(
            *figure(
                t("ui.book.total"),
                BookingState.line_total,
                value_id="meal-total",
                label_size="1",
                value_size="5",
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
        # Once the diet notice is shown, "Add it anyway" is the one way to add.
        rx.cond(
            BookingState.diet_notice != "",
            _diet_notice(),
            busy_button(
                rx.cond(
                    BookingState.busy,
                    t("ui.book.adding"),
                    # the add-item step of modify-order adds to the order, not the cart
                    rx.cond(
                        BookingState.order_number != "",
                        t("ui.change.add_to_order"),
                        t("ui.book.add"),
                    ),
                ),
                icon=svg_icon("shopping-cart", size=18),
                busy=BookingState.busy,
                turn=BookingState.turn,
                on_click=BookingState.add,
                disabled=BookingState.busy | ~BookingState.can_add,
                size="3",
                id="meal-add",
            ),
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
            title_bar(
                rx.box(
                    rx.dialog.title(detail["name"], margin="0", id="meal-title"),
                    muted(detail["vendor"], " · ", detail["day"], size="2"),
                    # Who the meal is for, with the child's allergies.
                    rx.el.p(
                        rx.el.strong(BookingState.for_child, id="meal-for"),
                        rx.el.span(BookingState.child_marks, id="meal-child-marks"),
                        class_name="hm-meal-for",
                    ),
                ),
                align="start",
                id="meal-close",
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
