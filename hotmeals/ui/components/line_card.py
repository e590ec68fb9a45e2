"""The parts of a meal line's card shared by the cart, the cancel cart and an order's details:
the name and price, a labelled detail, the quantity stepper, the line's problem and the row of
the stepper and 'Remove'. Each screen passes what differs (its state's handlers, its catalog
keys, the heading level and the look of the price)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.forms import once_attrs
from hotmeals.ui.components.icons import icon_only_button
from hotmeals.ui.shared_state.i18n import t

GRAY_11 = rx.color("gray", 11)


def line_heading(
    name: rx.Var, price: rx.Var, as_: str = "h3", price_props: dict[str, Any] | None = None
) -> rx.Component:
    """The meal's name and, at the right, its price (``price_props``: the price's text
    props, by default bold at size 3)."""
    props = {"weight": "bold", "size": "3"} if price_props is None else price_props
    return rx.flex(
        rx.heading(name, as_=as_, size="3", class_name="hm-line-name"),
        rx.spacer(),
        rx.text(price, **props, class_name="hm-line-price"),
        width="100%",
        gap="8px",
        align="start",
    )


def detail(label_key: str, value: rx.Var, class_name: str, colon: Any = None) -> rx.Component:
    """'Label: value' in gray, only when ``value`` is not empty; French puts its no-break
    space before the colon."""
    if colon is None:
        colon = t("checkout.colon")
    return rx.cond(
        value != "",
        rx.text(
            rx.el.span(t(label_key), colon, class_name="hm-detail-label"),
            value,
            size="2",
            color=GRAY_11,
            class_name=class_name,
        ),
    )


def line_problem(label: Any, colon: Any, text: rx.Var) -> rx.Component:
    """Why the line cannot go on (past its cut-off...): a red callout."""
    return rx.callout.root(
        rx.callout.icon(rx.icon("circle-alert", aria_hidden="true")),
        rx.callout.text(rx.el.strong(label, colon), text),
        color_scheme="red",
        size="1",
        width="100%",
        class_name="hm-line-problem",
    )


def qty_stepper(
    state: Any,
    cart_id: rx.Var,
    quantity: rx.Var,
    keys: str,
    open_: rx.Var,
    more_closed: rx.Var | None = None,
) -> rx.Component:
    """One less, the quantity, one more (``state``: busy_line, turn and change_quantity(id,
    step)); ``keys`` is the catalog's prefix of decrease/increase/quantity; the buttons are
    closed while the line is busy or not ``open_``, 'one more' also when ``more_closed``."""
    busy = state.busy_line == cart_id
    more = busy | ~open_ if more_closed is None else busy | more_closed | ~open_

    def step(sign: str, word: str, by: int, closed: Any) -> rx.Component:
        return icon_only_button(
            rx.icon(sign, size=16, aria_hidden="true"),
            t(f"{keys}.{word}"),
            on_click=state.change_quantity(cart_id, by),
            disabled=closed,
            size="3",
            class_name=f"hm-qty-{sign}",
            custom_attrs=once_attrs(state.turn),
        )

    return rx.hstack(
        step("minus", "decrease", -1, busy | (quantity <= 1) | ~open_),
        rx.el.output(
            rx.cond(busy, rx.spinner(size="2"), quantity.to_string()),
            class_name="hm-qty-value",
            custom_attrs={"aria-live": "polite", "aria-label": t(f"{keys}.quantity")},
            style={"min_width": "32px", "text_align": "center", "font_weight": "600"},
        ),
        step("plus", "increase", 1, more),
        align="center",
        spacing="2",
        role="group",
        aria_label=t(f"{keys}.quantity"),
    )


def stepper_row(
    stepper: rx.Component, keys: str, on_remove: Any, **remove_props: Any
) -> rx.Component:
    """The stepper and, at the right, 'Remove' (``keys``: the catalog's prefix of remove and
    remove_label)."""
    return rx.flex(
        stepper,
        rx.spacer(),
        rx.button(
            rx.icon("trash-2", size=16, aria_hidden="true"),
            t(f"{keys}.remove"),
            on_click=on_remove,
            variant="ghost",
            color_scheme="red",
            size="2",
            class_name="hm-line-remove",
            aria_label=t(f"{keys}.remove_label"),
            **remove_props,
        ),
        width="100%",
        align="center",
        wrap="wrap",
        gap="8px",
    )
