"""Paying with a saved card or a new one in Converge's Lightbox: the card choice and the
payment's progress, shared by the order summary and /payment (checkout) and the order changes
(modify an order, move a meal)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.forms import check_label, named_radios, radio_card, status_notice
from hotmeals.ui.components.panels import column
from hotmeals.ui.shared_state.card_choice import NEW_CARD
from hotmeals.ui.shared_state.i18n import t

# The checkout's statuses (``CheckoutState.status``) as notice kinds.
CHECKOUT_STATUS_KIND = {
    "placed": "success",
    "opening": "info",
    "paying": "info",
    "confirming": "info",
    "pending": "info",
    "cancelled": "info",
    "declined": "error",
    "error": "error",
}


def _choice(value: rx.Var | str, text: rx.Var, id_: rx.Var | str) -> rx.Component:
    text_ = rx.text(text, size="2", weight="medium")
    return radio_card(value, id_, text_, min_height="48px", width="100%")


def card_choice(state: Any, prefix: str, label_id: str) -> rx.Component:
    """A saved card or a new one in the Lightbox, and for a new one 'Save this card'.
    ``state`` has cards, card_choice, save_card, busy, set_card_choice and set_save_card;
    the radios' ids are ``<prefix>-card-<id>`` and ``<prefix>-card-new``, the checkbox's
    ``<prefix>-save-card``, the group is labelled by ``label_id``."""
    save_id = f"{prefix}-save-card"
    return column(
        rx.el.p(t("checkout.choose_card"), id=label_id, class_name="hm-label"),
        named_radios(
            column(
                rx.foreach(
                    state.cards,
                    lambda c: _choice(c["id"], c["label"], f"{prefix}-card-" + c["id"]),
                ),
                _choice(
                    NEW_CARD,
                    # Beside saved cards, "a card" would read as one of them.
                    rx.cond(
                        state.cards.length() > 0,
                        t("checkout.other_card"),
                        t("checkout.new_card"),
                    ),
                    f"{prefix}-card-new",
                ),
                spacing="2",
            ),
            label_id,
            state.card_choice,
            state.set_card_choice,
            name="card",
            disabled=state.busy,
            width="100%",
        ),
        rx.cond(
            state.card_choice == NEW_CARD,
            check_label(
                save_id,
                state.save_card,
                state.set_save_card,
                rx.text(t("checkout.save_card"), size="2"),
                display="flex",
                align_items="center",
                gap="8px",
                min_height="44px",
            ),
        ),
        spacing="2",
    )


def payment_progress(
    state: Any, kinds: dict[str, str], id_: str, waiting_id: str | None = None
) -> rx.Component:
    """The payment's status (``state.message`` shown as ``kinds[state.status]``) and, while
    the Lightbox or the confirmation runs (``state.waiting``), a spinner with 'waiting'."""
    return rx.fragment(
        status_notice(state.message, state.status, kinds, id_=id_),
        rx.cond(
            state.waiting,
            rx.flex(
                rx.spinner(size="3"),
                rx.text(t("checkout.waiting"), size="2"),
                align="center",
                gap="10px",
                role="status",
                id=waiting_id,
            ),
        ),
    )
