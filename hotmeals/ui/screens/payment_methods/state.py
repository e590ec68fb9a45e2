"""The payment methods screen's state: the saved cards, adding one in the Lightbox
(``LightboxPayment``) and removing one. Thin: every rule is in ``hotmeals.services.cards``
and ``hotmeals.services.payment_outcome``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import reflex as rx

from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.services import cards
from hotmeals.services.payment_outcome import Settled, settle_card_lightbox
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import (
    ActingParent,
    acting_parent,
    session_expired,
    signed_up_parent,
)
from hotmeals.ui.shared_state.forms import RemoveDialog
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.lightbox import LightboxPayment, Started, card_outcome


def _card_row(card: cards.CardView) -> dict[str, str]:
    return {
        "id": str(card.id),
        "brand": card.brand or "CARD",
        "last4": card.last4,
        "expiry": card.expiry,
    }


class CardsState(RemoveDialog, LightboxPayment, rx.State):
    """/edit-profile/payment-methods."""

    cards: list[dict[str, str]] = []
    loaded: bool = False
    delete_label: str = ""

    @rx.event
    async def load(self) -> None:
        self.status = self.message = ""
        self.busy = self.deleting = self.delete_open = False
        who = await signed_up_parent(self)
        if who is None:
            self.cards = []
            return
        await self._reload(who)
        self.loaded = True

    async def _reload(self, who: ActingParent) -> None:
        rows = await run_in_transaction(cards.list_cards, parent_id=who.parent_id)
        self.cards = [_card_row(c) for c in rows]

    # ---- add a card: LightboxPayment's pay (no money: Converge keeps the card) -------------
    async def _payer(self) -> ActingParent | None:
        return await signed_up_parent(self)

    async def _begin(self, who: ActingParent, lang: str) -> Any:
        self.status = self.message = ""
        return who

    async def _start(self, who: ActingParent, ticket: Any, lang: str) -> Started:
        return Started.lightbox(await cards.start_add_card(parent_id=who.parent_id))

    async def _settle(
        self, who: ActingParent, payment_id: int, outcome: dict[str, str], lang: str
    ) -> Settled:
        return await settle_card_lightbox(
            parent_id=who.parent_id, lang=lang, **card_outcome(outcome)
        )

    async def _finish(self, who: ActingParent, result: Settled, lang: str) -> list:
        self.status, self.message = result.status, result.message
        await self._reload(who)
        return []

    @rx.event
    def ask_delete(self, card_id: str, label: str) -> None:
        self.delete_id, self.delete_label = str(card_id), str(label)
        self.delete_open = True

    @rx.event(background=True)
    async def confirm_delete(self) -> AsyncIterator[Any]:
        async with self:
            if self.deleting or not self.delete_id.isdigit():
                return
            who = await acting_parent(self)
            lang = (await self.get_state(I18nState)).lang
            card_id = int(self.delete_id)
            if who is None:
                self.delete_open = False
            else:
                self.deleting = True
        if who is None:
            yield session_expired(lang)
            return
        try:
            # The service deletes only a card of who's (another parent's id: card_not_found).
            await cards.delete_card(parent_id=who.parent_id, card_id=card_id)
            status, message = "success", tr("pay.card_deleted", lang)
        except DomainError as err:
            status, message = "error", err.message(lang)
        async with self:
            self.deleting = False
            self.delete_open = False
            self.status, self.message = status, message
            await self._reload(who)
