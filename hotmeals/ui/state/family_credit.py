"""/edit-profile/family-credit: the family's credit balance, its movements and where refunds go.
Thin: the ledger and the choice are ``services.credit`` (``family_credit``,
``choose_refund_to``)."""

from __future__ import annotations

import reflex as rx

from hotmeals.domain.credit import RefundDestination
from hotmeals.services import credit
from hotmeals.ui.state.auth import acting_parent
from hotmeals.ui.state.base import call_service
from hotmeals.ui.state.forms import forget_submission, one_turn, save_choice

DESTINATIONS = tuple(d.value for d in RefundDestination)


def _move_row(move: dict) -> dict[str, str]:
    cents = int(move["amount_cents"])
    return {
        "id": str(move["id"]),
        "date": move["date"],
        "label": move["label"],
        "reason": move["reason"] or "",
        "amount": ("+" if cents > 0 else "") + move["amount"],
        "sign": "in" if cents > 0 else "out",
    }


class FamilyCreditState(rx.State):
    balance: str = ""
    refund_to: str = RefundDestination.CARD.value
    history: list[dict[str, str]] = []
    loaded: bool = False
    busy: bool = False
    turn: int = 0  # bumped when a save ends (components.forms.once_attrs)

    _once_key: str = ""
    _once_digest: str = ""

    @rx.event
    async def load(self):
        self.busy = False
        who = await acting_parent(self)
        if who is None or not who.complete:
            self.history, self.balance, self.loaded = [], "", False
            return
        view = await call_service(credit.family_credit, parent_id=who.parent_id, lang=who.lang)
        self.balance = view["balance"]
        self.refund_to = view["refund_to"]
        self.history = [_move_row(move) for move in view["history"]]
        self.loaded = True
        forget_submission(self)

    @rx.event
    def set_refund_to(self, value: str):
        if value in DESTINATIONS:  # anything else from the browser is ignored
            self.refund_to = value

    @rx.event
    async def save(self):
        saving = save_choice(
            self,
            name="refund_to",
            action="refund_choice",
            fn=credit.choose_refund_to,
            saved="credit_ui.saved",
        )
        async for event in one_turn(self, saving):
            yield event
