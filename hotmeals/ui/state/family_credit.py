"""/edit-profile/family-credit: the family's credit balance, its movements and where refunds go.
Thin: the ledger and the choice are ``services.credit`` (``family_credit``,
``choose_refund_to``)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.domain.credit import RefundDestination
from hotmeals.services import credit
from hotmeals.ui.state.forms import FamilyChoice, FamilyChoiceForm

DESTINATIONS = tuple(d.value for d in RefundDestination)
CHOICE = FamilyChoice(
    name="refund_to",
    allowed=DESTINATIONS,
    action="refund_choice",
    view=credit.family_credit,
    save_fn=credit.choose_refund_to,
    saved="credit_ui.saved",
)


def _move_row(move: dict) -> dict[str, str]:
    cents = int(move["amount_cents"])
    return {
        "id": str(move["id"]),
        "date": move["date"],
        "label": move["label"],
        "about": move["about"] or "",
        "amount": ("+" if cents > 0 else "") + move["amount"],
        "sign": "in" if cents > 0 else "out",
    }


class FamilyCreditState(FamilyChoiceForm, rx.State):
    balance: str = ""
    refund_to: str = RefundDestination.CARD.value
    history: list[dict[str, str]] = []
    loaded: bool = False

    def _choice(self) -> FamilyChoice:
        return CHOICE

    def _shown(self, view: dict[str, Any] | None) -> None:
        if view is None:
            self.history, self.balance, self.loaded = [], "", False
            return
        self.balance = view["balance"]
        self.history = [_move_row(move) for move in view["history"]]
        self.loaded = True

    @rx.event
    def set_refund_to(self, value: str) -> None:
        CHOICE.set(self, value)
