"""/edit-profile/order-summary: the meals to pay, every charge line
of spec §3 (``ordering.pricing.priced_summary``), what the order gives back, the parent's promo
codes with a code field, the optional donation, and the payment itself: the
parent's saved card (their default one chosen) or a new card in Converge's Lightbox, and
'Pay $x.xx' (``CheckoutState.pay``); the confirmation then opens at /payment?order=HM-…."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.after_parts import ACTION_ROW, glyph
from hotmeals.ui.components.card_choice import (
    CHECKOUT_STATUS_KIND,
    card_choice,
    payment_progress,
)
from hotmeals.ui.components.forms import (
    busy_button,
    field_input,
    kept_form,
    label,
    named_radios,
    radio_card,
)
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.order_parts import GRAY_11, figure_stack, muted
from hotmeals.ui.components.panels import column, column_card, loading_spinner, rows_or_empty
from hotmeals.ui.components.screens import back_link, message_with_link, parent_screen, screen_intro
from hotmeals.ui.screens.cart.state import (
    CART_ROUTE,
    DONATION_CHOICES,
    CartGroupView,
    CartLineView,
    CartState,
)
from hotmeals.ui.screens.payment.state import CheckoutState
from hotmeals.ui.shared_state.i18n import t

CHARGE_ROWS = (
    ("meal_net", "checkout.charge_meal_net"),
    ("special_note_fees", "checkout.charge_note_fees"),
    ("discount", "checkout.charge_discount"),
    ("processing_fee", "checkout.charge_processing"),
    ("tax", "checkout.charge_tax"),
    ("school_donation", "checkout.charge_donation"),
    ("additional_charge", "checkout.charge_additional"),
)


def _charge_row(
    name: str,
    label: Any,
    amount: Any,
    amount_style: dict[str, str],
    label_style: dict[str, str] | None = None,
    **row_props: Any,
) -> rx.Component:
    """One line of the charges: its name (gray unless ``label_style``) and, at the right, the
    amount."""
    return rx.flex(
        rx.el.dt(label, style={"color": "var(--gray-11)"} if label_style is None else label_style),
        rx.el.dd(amount, style={"margin": "0", **amount_style}),
        justify="between",
        gap="12px",
        class_name=f"hm-charge hm-charge-{name}",
        **row_props,
    )


def charges_table(charges: Any, id_: str, total_key: str = "checkout.charge_total") -> rx.Component:
    """The charges of spec §3 that apply and the total (``charges`` a dict Var of formatted
    amounts, "" for a charge that does not apply; the tax named with its rate)."""
    return rx.el.dl(
        *[
            rx.cond(
                charges[name] != "",
                _charge_row(
                    name,
                    charges["tax_label"] if name == "tax" else t(key),
                    charges[name],
                    {"font_weight": "500"},
                    padding_y="6px",
                    border_bottom=f"1px solid {rx.color('gray', 4)}",
                ),
            )
            for name, key in CHARGE_ROWS
        ],
        _charge_row(
            "total_pay",
            t(total_key),
            charges["total_pay"],
            {"font_weight": "700", "font_size": "var(--font-size-5)"},
            {"font_weight": "700"},
            align="center",
            padding_top="10px",
        ),
        *[
            rx.cond(
                charges[name] != "",
                _charge_row(
                    name,
                    charges[f"{name}_label"],
                    charges[name],
                    {"font_weight": "600"},
                    padding_top="6px",
                ),
            )
            for name in ("family_credit", "card_pay")
        ],
        id=id_,
        style={"margin": "0", "width": "100%"},
    )


def _extra(label_key: str, value: rx.Var) -> rx.Component:
    return rx.cond(
        value != "",
        muted(t(label_key), t("checkout.colon"), value, size="1"),
    )


def summary_line(line: CartLineView) -> rx.Component:
    return rx.box(
        rx.flex(
            rx.text(
                line.quantity.to_string(),
                " × ",
                line.name,
                " (",
                line.size_label,
                ")",
                size="2",
                color=rx.cond(line.payable, rx.color("gray", 12), rx.color("gray", 11)),
                text_decoration=rx.cond(line.payable, "none", "line-through"),
            ),
            rx.spacer(),
            rx.text(
                rx.cond(line.payable, line.price, t("checkout.cannot_pay")),
                size="2",
                white_space="nowrap",
            ),
            gap="8px",
            width="100%",
        ),
        _extra("checkout.menu_option", line.menu_option),
        _extra("checkout.meal_option", line.meal_option),
        _extra("checkout.addons", line.addons),
        _extra("checkout.note", line.note),
        class_name="hm-summary-line",
        width="100%",
    )


def summary_group(group: CartGroupView) -> rx.Component:
    return column(
        rx.text(group.child, " · ", group.date, weight="bold", size="2"),
        rx.foreach(group.lines, summary_line),
        spacing="1",
        padding_y="6px",
        class_name="hm-summary-group",
    )


def _section(title_key: str, *children: Any, spacing: str = "3", **props: Any) -> rx.Component:
    """A card of the summary: its h2 over its parts."""
    return column_card(
        rx.heading(t(title_key), as_="h2", size="4"), *children, spacing=spacing, size="2", **props
    )


def _promo_row(promo: rx.Var) -> rx.Component:
    """A promo code the parent may use: the code, what it gives, and 'Use'."""
    return rx.flex(
        rx.vstack(
            rx.code(promo["code"], size="2", weight="bold"),
            muted(promo["detail"], size="1"),
            rx.cond(promo["description"] != "", muted(promo["description"], size="1")),
            spacing="1",
            min_width="0",
        ),
        rx.spacer(),
        rx.button(
            t("checkout.promo_use"),
            on_click=CartState.use_promo(promo["code"]),
            variant="soft",
            size="2",
            class_name="hm-promo-use",
            custom_attrs={"data-code": promo["code"]},
        ),
        align="center",
        gap="8px",
        width="100%",
        class_name="hm-promo-row",
    )


def promo_section() -> rx.Component:
    return _section(
        "checkout.promo_title",
        rx.cond(
            CartState.promo_code != "",
            rx.flex(
                rx.badge(
                    rx.icon("ticket-percent", size=14, aria_hidden="true"),
                    t("checkout.promo_applied_label"),
                    t("checkout.colon"),
                    CartState.promo_code,
                    size="3",
                    color_scheme="grass",
                    id="promo-applied",
                ),
                rx.button(
                    t("checkout.promo_remove"),
                    on_click=CartState.remove_promo,
                    variant="ghost",
                    size="2",
                    id="promo-remove",
                ),
                align="center",
                **ACTION_ROW,
            ),
        ),
        kept_form(
            rx.box(
                label(t("checkout.promo_label"), "promo-code"),
                rx.flex(
                    field_input(
                        "promo-code",
                        "promo_code",
                        CartState.promo_error,
                        required=False,
                        value=CartState.promo_input,
                        on_change=CartState.set_promo_input,
                        max_length=32,
                        auto_complete="off",
                        auto_capitalize="characters",
                        flex="1",
                    ),
                    rx.button(
                        rx.cond(CartState.promo_busy, rx.spinner(size="2"), rx.fragment()),
                        t("checkout.promo_apply"),
                        type="submit",
                        size="3",
                        variant="outline",
                        disabled=CartState.promo_busy,
                        id="promo-apply",
                    ),
                    gap="8px",
                    width="100%",
                ),
                rx.cond(
                    CartState.promo_error != "",
                    rx.el.p(
                        rx.icon("circle-alert", size=14, aria_hidden="true"),
                        rx.el.span(CartState.promo_error),
                        id="promo-code-error",
                        role="alert",
                        class_name="hm-error",
                    ),
                ),
                class_name="hm-field",
                width="100%",
            ),
            on_submit=CartState.apply_promo,
            width="100%",
        ),
        rows_or_empty(
            CartState.promos,
            _promo_row,
            muted(t("checkout.promo_none"), size="2"),
            rx.text(t("checkout.promo_available"), size="2", weight="medium"),
            list_id="promo-list",
            spacing="2",
        ),
    )


def donation_section() -> rx.Component:
    def item(value: str) -> rx.Component:
        key = "checkout.donation_none" if value == "0" else f"checkout.donation_{value}"
        text = rx.text(t(key), size="2")
        return radio_card(value, f"donation-{value}", text, gap="6px", padding_x="10px")

    return _section(
        "checkout.donation_title",
        rx.el.p(t("checkout.donation_label"), id="donation-label", class_name="hm-label"),
        named_radios(
            rx.flex(*[item(v) for v in DONATION_CHOICES], **ACTION_ROW),
            "donation-label",
            CartState.donation_choice,
            CartState.set_donation,
            name="donation",
        ),
    )


def giveback_section() -> rx.Component:
    return rx.box(
        rx.flex(
            rx.icon("heart-handshake", size=22, aria_hidden="true", color=rx.color("grass", 11)),
            rx.vstack(
                rx.heading(t("checkout.giveback_title"), as_="h2", size="3"),
                rx.text(CartState.giveback, size="2", id="giveback"),
                muted(t("checkout.giveback_per_meal"), size="1"),
                spacing="1",
            ),
            gap="12px",
            align="start",
        ),
        padding="14px",
        border_radius="10px",
        background_color=rx.color("grass", 2),
        border=f"1px solid {rx.color('grass', 6)}",
        width="100%",
    )


def pay_label(charges: Any) -> rx.Component:
    """'Pay $x.xx' (the card's share when family credit pays some), or 'Pay with family
    credit' when it pays it all."""
    return rx.cond(
        charges["pay_amount"] != "",
        rx.fragment(t("checkout.pay"), " ", charges["pay_amount"]),
        t("credit_ui.pay_with_credit"),
    )


def pay_button(charges: Any, id_: str, **props: Any) -> rx.Component:
    """The one Pay (``CheckoutState.pay``): busy, and one tap per turn."""
    return busy_button(
        pay_label(charges),
        icon=glyph("lock"),
        busy=CheckoutState.busy,
        turn=CheckoutState.turn,
        on_click=CheckoutState.pay,
        size="3",
        id=id_,
        **props,
    )


def payment_note() -> rx.Component:
    """What paying here does, under Pay."""
    return muted(t("checkout.payment_intro"), size="1")


def card_or_credit(charges: Any) -> rx.Component:
    """Which card pays (``card_choice``), or, when family credit pays it all (``charges``'
    ``pay_amount`` is ""), that no card is needed: no card choice and no "Save this card"."""
    return rx.cond(
        charges["pay_amount"] != "",
        card_choice(CheckoutState, "pay", "card-choice-label"),
        rx.text(t("credit.summary_covers"), size="2", id="pay-credit-covers"),
    )


def pay_bar() -> rx.Component:
    """The payment's progress and the one Pay, under the charges and the card
    choice on a desktop; on a phone a bar fixed to the bottom of the screen with the total
    beside Pay, always in view (it was 2.5 screens down)."""
    return rx.box(
        payment_progress(CheckoutState, CHECKOUT_STATUS_KIND, "pay-status", "pay-progress"),
        rx.flex(
            # beside Pay, what the card pays: the total, or the card's share ("To pay by
            # card") when family credit pays some
            figure_stack(
                rx.cond(
                    CartState.charges["card_pay"] != "",
                    CartState.charges["card_pay_label"],
                    t("checkout.charge_total"),
                ),
                rx.cond(
                    CartState.charges["card_pay"] != "",
                    CartState.charges["card_pay"],
                    CartState.charges["total_pay"],
                ),
                value_id="pay-bar-total",
                label_size="1",
                class_name="hm-pay-bar-total",
            ),
            pay_button(CartState.charges, "summary-pay", flex="1"),
            align="center",
            gap="12px",
            width="100%",
        ),
        # On a phone the choice is far above the bar: the saved card a tap charges is named
        # beside Pay, with a way up to change it.
        rx.cond(
            CheckoutState.chosen_card != "",
            rx.text(
                t("checkout.paying_with"),
                " ",
                CheckoutState.chosen_card,
                " · ",
                rx.el.button(
                    t("checkout.change_card"),
                    type="button",
                    class_name="hm-linklike",
                    style={"font_size": "inherit"},
                    id="pay-bar-change",
                    on_click=rx.call_script(
                        "document.getElementById('summary-payment')"
                        ".scrollIntoView({block: 'center', behavior: 'smooth'})"
                    ),
                ),
                size="1",
                color=GRAY_11,
                class_name="hm-pay-bar-with",
                id="pay-bar-with",
            ),
        ),
        class_name="hm-pay-bar",
        width="100%",
    )


def pay_section() -> rx.Component:
    """How to pay, then Pay: one tap pays from here."""
    return column(
        rx.separator(size="4"),
        card_or_credit(CartState.charges),
        pay_bar(),
        rx.cond(CartState.charges["pay_amount"] != "", payment_note()),
        spacing="3",
        id="summary-payment",
    )


def summary_content() -> rx.Component:
    return rx.cond(
        CartState.payable_count > 0,
        rx.grid(
            column(
                _section(
                    "checkout.subtotal",
                    rx.foreach(CartState.groups, summary_group),
                    spacing="2",
                    id="summary-lines",
                ),
                promo_section(),
                donation_section(),
                spacing="4",
            ),
            column(
                _section(
                    "checkout.charges",
                    charges_table(CartState.charges, "summary-charges"),
                    pay_section(),
                    spacing="4",
                    # Radix's card contains its paint: the phone's fixed bar needs it not to.
                    class_name="hm-pay-card",
                ),
                giveback_section(),
                spacing="4",
                position=rx.breakpoints(initial="static", md="sticky"),
                top="88px",
            ),
            columns=rx.breakpoints(initial="1", md="3fr 2fr"),
            gap="16px",
            width="100%",
            align_items="start",
        ),
        rx.cond(
            CartState.loaded & ~CheckoutState.is_placed,
            nothing_to_pay("summary-empty"),
            loading_spinner(),
        ),
    )


def nothing_to_pay(id_: str) -> rx.Component:
    """Nothing in the cart to pay, and the way back to it."""
    return message_with_link(
        t("checkout.nothing_to_pay"), id_, t("checkout.go_to_cart"), CART_ROUTE
    )


def order_summary() -> rx.Component:
    return parent_screen(
        back_link(CART_ROUTE, "checkout.back_to_cart"),
        *screen_intro(t("checkout.summary_title"), t("checkout.summary_intro")),
        summary_content(),
        on_language_change(CartState.relang),
        on_language_change(CheckoutState.relang),
        spacing="3",
        max_width="1040px",
        class_name="hm-summary-page",
    )
