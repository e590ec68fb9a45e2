"""/edit-profile/family-credit: the family's credit balance, its movements and where refunds go.
Thin: the ledger and the choice are ``services.credit`` (``family_credit``,
``choose_refund_to``)."""

from __future__ import annotations

import reflex as rx

from hotmeals.domain.credit import RefundDestination
from hotmeals.domain.dates import full_day
from hotmeals.domain.money import format_money
from hotmeals.i18n import t
from hotmeals.services import credit
from hotmeals.services.credit import CreditMove, FamilyCredit
from hotmeals.ui.shared_state.forms import FamilyChoice, FamilyChoiceForm

DESTINATIONS = tuple(d.value for d in RefundDestination)
CHOICE = FamilyChoice(
    name="refund_to",
    allowed=DESTINATIONS,
    action="refund_choice",
    view=credit.family_credit,
    chosen=lambda view: view.refund_to.value,
    save_fn=credit.choose_refund_to,
    saved="credit_ui.saved",
)


def _move_row(move: CreditMove, lang: str) -> dict[str, str]:
    cents = move.amount_cents
    return {
        "id": str(move.id),
        "date": full_day(move.created_at.date(), lang),
        "label": t(f"credit.kind.{move.kind.value}", lang),
        "about": credit.about_text(move, lang),
        "amount": ("+" if cents > 0 else "") + format_money(cents, lang),
        "sign": "in" if cents > 0 else "out",
    }


class FamilyCreditState(FamilyChoiceForm, rx.State):
    balance: str = ""
    refund_to: str = RefundDestination.CARD.value
    history: list[dict[str, str]] = []
    loaded: bool = False

    def _choice(self) -> FamilyChoice:
        return CHOICE

    def _shown(self, shown: tuple[FamilyCredit, str] | None) -> None:
        if shown is None:
            self.history, self.balance, self.loaded = [], "", False
            return
        view, lang = shown
        self.balance = format_money(view.balance_cents, lang)
        self.history = [_move_row(move, lang) for move in view.history]
        self.loaded = True

    @rx.event
    def set_refund_to(self, value: str) -> None:
        CHOICE.set(self, value)
