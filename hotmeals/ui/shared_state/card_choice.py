"""Which card pays: a saved card of the parent's or a new one in the Lightbox, with "save this
card". Shared by the checkout, the order's modification and the move of one meal."""

from __future__ import annotations

import reflex as rx

from hotmeals.i18n import t as tr
from hotmeals.services import cards
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.ids import browser_id
from hotmeals.ui.shared_state.lightbox import LightboxPayment

NEW_CARD = "new"


def card_option(card: cards.CardView, lang: str) -> dict[str, str]:
    return {
        "id": str(card.id),
        "label": tr("checkout.saved_card", lang, brand=card.brand or "CARD", last4=card.last4),
        "expiry": card.expiry,
    }


async def card_options(parent_id: int, lang: str) -> list[dict[str, str]]:
    rows = await run_in_transaction(cards.list_cards, parent_id=parent_id)
    return [card_option(c, lang) for c in rows]


def preselected(choice: str, picked: bool, card_ids: list[str], default_id: str) -> str:
    """The payment choice shown: the parent's own pick while it still holds (a card of the
    list, or a new card), else their default saved card (``default_id``, "" for none), else a
    new card."""
    if picked and (choice == NEW_CARD or choice in card_ids):
        return choice
    return default_id if default_id in card_ids else NEW_CARD


class CardPayment(LightboxPayment, mixin=True):
    """A Lightbox payment that may be paid with a saved card instead (``card_choice``)."""

    cards: list[dict[str, str]] = []
    card_choice: str = NEW_CARD
    save_card: bool = False

    async def _load_cards(self, parent_id: int, lang: str) -> None:
        """The parent's cards; a choice no longer among them falls back to a new card."""
        self.cards = await card_options(parent_id, lang)
        if self.card_choice not in {c["id"] for c in self.cards}:
            self.card_choice = NEW_CARD

    def _chosen(self) -> tuple[int | None, bool]:
        """(the saved card's id, None for a new card; whether to save the new card). A card
        id from the browser: the services take only a card of the parent's."""
        card = browser_id(self.card_choice) or None
        return card, self.save_card and card is None

    @rx.event
    def set_card_choice(self, value: str) -> None:
        if not self.busy:
            value = str(value)
            self.card_choice = value if value in {c["id"] for c in self.cards} else NEW_CARD

    @rx.event
    def set_save_card(self, value: bool) -> None:
        self.save_card = bool(value)
