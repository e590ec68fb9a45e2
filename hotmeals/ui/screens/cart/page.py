"""/edit-profile/cart: the meals waiting to be paid, grouped by child and
date, each with its size, options, add-ons, note and price; the quantity stepper; remove behind
the 'Are you sure?' dialog; a line that cannot be paid any more is flagged with the reason.
The empty cart shows the illustration and 'Book Meal'."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.after_parts import glyph, onward_link
from hotmeals.ui.components.forms import notice
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.layout import static
from hotmeals.ui.components.line_card import (
    detail,
    line_heading,
    line_problem,
    qty_stepper,
    stepper_row,
)
from hotmeals.ui.components.order_parts import GRAY_11, figure_stack, muted, remove_dialog
from hotmeals.ui.components.panels import column, loading_spinner, totals_box
from hotmeals.ui.components.screens import parent_screen, screen_intro
from hotmeals.ui.screens.cart.state import SUMMARY_ROUTE, CartGroupView, CartLineView, CartState
from hotmeals.ui.shared_state.i18n import t

COLON = t("checkout.colon")
REMOVE_KEYS = (
    "checkout.remove_title",
    "checkout.remove_text",
    "checkout.remove_cancel",
    "checkout.remove_confirm",
)


def line_details(line: CartLineView) -> rx.Component:
    return rx.vstack(
        # Whom the meal is for, and its allergy mark for that child.
        rx.text(line.for_child, size="2", weight="bold", class_name="hm-line-for"),
        rx.cond(
            line.allergy_text != "",
            rx.el.p(
                rx.match(
                    line.allergy_verdict,
                    ("refused", rx.icon("octagon-x", size=14, aria_hidden="true")),
                    ("acknowledge", rx.icon("triangle-alert", size=14, aria_hidden="true")),
                    rx.icon("info", size=14, aria_hidden="true"),
                ),
                line.allergy_text,
                class_name=rx.match(
                    line.allergy_verdict,
                    ("refused", "hm-allergy hm-line-allergy is-refused"),
                    ("acknowledge", "hm-allergy hm-line-allergy is-ack"),
                    "hm-allergy hm-line-allergy is-notice",
                ),
            ),
        ),
        rx.text(line.size_label, size="2", weight="medium", class_name="hm-line-size"),
        rx.cond(
            line.payable & (line.cutoff != ""),
            rx.el.p(
                rx.icon("clock", size=14, aria_hidden="true"),
                line.cutoff,
                class_name="hm-meal-cutoff hm-line-cutoff",
            ),
        ),
        detail("checkout.menu_option", line.menu_option, "hm-line-menu-option", COLON),
        detail("checkout.meal_option", line.meal_option, "hm-line-meal-option", COLON),
        detail("checkout.addons", line.addons, "hm-line-addons", COLON),
        detail("checkout.note", line.note, "hm-line-note", COLON),
        rx.cond(
            line.allergy_ack != "",
            muted(line.allergy_ack, size="1", class_name="hm-line-ack"),
        ),
        rx.cond(
            line.diet_text != "",
            muted(line.diet_text, size="1", class_name="hm-line-diet"),
        ),
        spacing="1",
        align="start",
    )


def stepper(line: CartLineView) -> rx.Component:
    return qty_stepper(CartState, line.cart_id, line.quantity, "checkout", line.payable)


def cart_line(line: CartLineView) -> rx.Component:
    return rx.box(
        rx.flex(
            rx.cond(
                line.image != "",
                rx.image(
                    src=static("") + line.image.to(str),
                    alt="",
                    width="64px",
                    height="64px",
                    border_radius="8px",
                    flex_shrink="0",
                    loading="lazy",
                    background_color=rx.color("orange", 2),
                ),
            ),
            column(
                line_heading(line.name, line.price, as_="h4"),
                muted(t("checkout.vendor"), " ", line.vendor, size="1"),
                line_details(line),
                rx.cond(
                    ~line.payable,
                    line_problem(t("checkout.cannot_pay"), COLON, line.problems),
                ),
                stepper_row(stepper(line), "checkout", CartState.ask_delete(line.cart_id)),
                spacing="2",
                min_width="0",
            ),
            gap="12px",
            align="start",
        ),
        class_name="hm-cart-line",
        custom_attrs={
            "data-cart-id": line.cart_id,
            "data-payable": rx.cond(line.payable, "true", "false"),
        },
        padding="12px",
        border=f"1px solid {rx.color('gray', 6)}",
        border_radius="10px",
        background_color=rx.cond(line.payable, rx.color("gray", 1), rx.color("red", 2)),
        width="100%",
    )


def cart_group(group: CartGroupView) -> rx.Component:
    return rx.el.section(
        column(
            rx.heading(group.child, as_="h2", size="4", class_name="hm-group-child"),
            rx.heading(group.date, as_="h3", size="2", color=GRAY_11, weight="medium"),
            column(rx.foreach(group.lines, cart_line), spacing="3"),
            spacing="2",
        ),
        class_name="hm-cart-group",
        custom_attrs={"data-group": group.key},
        style={"width": "100%"},
    )


def empty_cart() -> rx.Component:
    return column(
        rx.image(
            src=static("/empty-plate.svg"),
            alt="",
            width="200px",
            height="auto",
            max_width="60vw",
        ),
        rx.heading(t("checkout.empty_title"), as_="h2", size="5"),
        muted(t("checkout.empty_text"), text_align="center"),
        rx.button(
            glyph("utensils"),
            t("checkout.book_meal"),
            on_click=CartState.book_meal,
            size="3",
            id="cart-book-meal",
        ),
        align="center",
        spacing="4",
        padding_y="32px",
        id="cart-empty",
    )


def delete_dialog() -> rx.Component:
    return remove_dialog(
        CartState,
        CartState.delete_name,
        REMOVE_KEYS,
        confirm_id="confirm-delete-line",
        turn=CartState.turn,
    )


def cart_footer() -> rx.Component:
    return totals_box(
        rx.flex(
            figure_stack(
                t("checkout.subtotal"), CartState.meal_count.to_string(), value_id="cart-meal-count"
            ),
            rx.spacer(),
            figure_stack(
                t("checkout.charge_meal_net"),
                CartState.charges["meal_net"],
                value_id="cart-net",
                align="end",
            ),
            align="center",
            width="100%",
        ),
        rx.cond(
            CartState.payable_count > 0,
            onward_link(
                t("checkout.continue"),
                href=SUMMARY_ROUTE,
                id_="cart-continue",
                size="3",
                width="100%",
                margin_top="12px",
            ),
        ),
        class_name="hm-cart-footer",
    )


def cart_content() -> rx.Component:
    return rx.cond(
        CartState.is_empty,
        empty_cart(),
        rx.cond(
            CartState.loaded,
            column(
                rx.cond(
                    CartState.has_unpayable,
                    rx.box(notice(t("checkout.unpayable_notice"), "error"), id="cart-unpayable"),
                ),
                column(rx.foreach(CartState.groups, cart_group), spacing="6"),
                cart_footer(),
                spacing="5",
                id="cart-lines",
            ),
            loading_spinner(),
        ),
    )


def cart_page() -> rx.Component:
    return parent_screen(
        cart_content(),
        delete_dialog(),
        # Remounted when the language changes: the cart's text in that language.
        on_language_change(CartState.relang),
        frame=screen_intro(t("checkout.cart_title"), t("checkout.cart_intro")),
    )
