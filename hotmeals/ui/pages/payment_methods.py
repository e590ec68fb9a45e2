"""/edit-profile/payment-methods: the parent's saved cards (brand, last four digits, expiry),
'Add a card' through Converge's Lightbox, and delete behind the 'Are you sure?' dialog."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.dialogs import confirm_dialog
from hotmeals.ui.components.forms import status_notice
from hotmeals.ui.components.screens import parent_screen, screen_intro
from hotmeals.ui.state.i18n import t
from hotmeals.ui.state.payments import CardsState

STATUS_KIND = {"success": "success", "declined": "error", "error": "error"}


def card_row(card: rx.Var) -> rx.Component:
    label = card["brand"] + " •••• " + card["last4"]
    return rx.card(
        rx.flex(
            rx.icon("credit-card", size=22, aria_hidden="true"),
            rx.vstack(
                rx.text(card["brand"], " ", t("cards.ending"), " ", card["last4"], weight="medium"),
                rx.cond(
                    card["expiry"] != "",
                    rx.text(
                        t("cards.expires"),
                        " ",
                        card["expiry"],
                        size="2",
                        color=rx.color("gray", 11),
                    ),
                ),
                spacing="1",
                flex="1",
            ),
            rx.button(
                rx.icon("trash-2", size=16, aria_hidden="true"),
                t("cards.delete"),
                variant="soft",
                color_scheme="red",
                on_click=CardsState.ask_delete(card["id"], label),
                aria_label=t("cards.delete_label"),
                class_name="hm-card-delete",
                custom_attrs={"data-card-id": card["id"]},
            ),
            align="center",
            spacing="4",
            wrap="wrap",
        ),
        width="100%",
        class_name="hm-saved-card",
        custom_attrs={"data-last4": card["last4"]},
    )


def delete_dialog() -> rx.Component:
    return confirm_dialog(
        title=t("cards.confirm_title"),
        description=rx.fragment(
            t("cards.confirm_text"), rx.el.br(), rx.el.strong(CardsState.delete_label)
        ),
        cancel_label=t("cards.confirm_no"),
        confirm_label=t("cards.confirm_yes"),
        open_=CardsState.delete_open,
        on_open_change=CardsState.set_delete_open,
        on_confirm=CardsState.confirm_delete,
        busy=CardsState.deleting,
        confirm_id="confirm-delete-card",
    )


def payment_methods() -> rx.Component:
    return parent_screen(
        *screen_intro(t("cards.title"), t("cards.intro")),
        status_notice(CardsState.message, CardsState.status, STATUS_KIND, id_="cards-status"),
        rx.cond(
            CardsState.cards.length() > 0,
            rx.vstack(
                rx.foreach(CardsState.cards, card_row),
                spacing="3",
                width="100%",
                id="saved-cards",
            ),
            rx.text(t("cards.empty"), color=rx.color("gray", 11), id="no-cards"),
        ),
        rx.button(
            rx.cond(
                CardsState.busy,
                rx.spinner(size="2"),
                rx.icon("plus", size=16, aria_hidden="true"),
            ),
            rx.cond(CardsState.busy, t("cards.saving"), t("cards.add")),
            on_click=CardsState.pay,
            disabled=CardsState.busy,
            size="3",
            id="add-card",
        ),
        rx.link(t("cards.back_to_donate"), href="/edit-profile/donate-payment"),
        delete_dialog(),
        spacing="5",
        show_cart=False,
    )
