"""/edit-profile/payment-methods: the parent's saved cards (brand, last four digits, expiry),
'Add a card' through Converge's Lightbox, and delete behind the 'Are you sure?' dialog."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.after_parts import glyph
from hotmeals.ui.components.form_parts import busy_icon_button, lead_row
from hotmeals.ui.components.forms import status_notice
from hotmeals.ui.components.order_parts import muted, remove_dialog
from hotmeals.ui.components.panels import rows_or_empty
from hotmeals.ui.components.screens import parent_screen, screen_intro
from hotmeals.ui.screens.payment_methods.state import CardsState
from hotmeals.ui.shared_state.i18n import t

STATUS_KIND = {"success": "success", "declined": "error", "error": "error"}
REMOVE_KEYS = ("cards.confirm_title", "cards.confirm_text", "cards.confirm_no", "cards.confirm_yes")


def card_row(card: rx.Var) -> rx.Component:
    label = card["brand"] + " •••• " + card["last4"]
    return rx.card(
        lead_row(
            rx.icon("credit-card", size=22, aria_hidden="true"),
            rx.text(card["brand"], " ", t("cards.ending"), " ", card["last4"], weight="medium"),
            rx.cond(
                card["expiry"] != "",
                muted(t("cards.expires"), " ", card["expiry"], size="2"),
            ),
            action=rx.button(
                glyph("trash-2"),
                t("cards.delete"),
                variant="soft",
                color_scheme="red",
                on_click=CardsState.ask_delete(card["id"], label),
                aria_label=t("cards.delete_label"),
                class_name="hm-card-delete",
                custom_attrs={"data-card-id": card["id"]},
            ),
        ),
        width="100%",
        class_name="hm-saved-card",
        custom_attrs={"data-last4": card["last4"]},
    )


def delete_dialog() -> rx.Component:
    return remove_dialog(
        CardsState, CardsState.delete_label, REMOVE_KEYS, confirm_id="confirm-delete-card"
    )


def payment_methods() -> rx.Component:
    return parent_screen(
        *screen_intro(t("cards.title"), t("cards.intro")),
        status_notice(CardsState.message, CardsState.status, STATUS_KIND, id_="cards-status"),
        rows_or_empty(
            CardsState.cards,
            card_row,
            muted(t("cards.empty"), id="no-cards"),
            list_id="saved-cards",
            spacing="3",
        ),
        busy_icon_button(
            "plus",
            t("cards.add"),
            t("cards.saving"),
            CardsState.busy,
            on_click=CardsState.pay,
            size="3",
            id="add-card",
        ),
        rx.link(t("cards.back_to_account"), href="/edit-profile"),
        delete_dialog(),
        spacing="5",
        show_cart=False,
    )
