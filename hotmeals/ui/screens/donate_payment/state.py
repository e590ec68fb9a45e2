"""The donate screen's state: an amount for a school, paid in the Lightbox
(``LightboxPayment``), and the family's donations. Thin: every rule is in
``hotmeals.services.donations`` and ``hotmeals.services.payment_outcome``.
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.i18n import t as tr
from hotmeals.services import donations
from hotmeals.services.payment_outcome import Settled, settle_lightbox
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import ActingParent, signed_up_parent
from hotmeals.ui.shared_state.lightbox import LightboxPayment, Started, card_outcome

# The service's preset amounts, in whole dollars as the radio values ("5", "10", "20").
PRESETS = tuple(str(cents // 100) for cents in donations.PRESET_CENTS)
DEFAULT_PRESET = PRESETS[len(PRESETS) // 2]
OTHER = "other"


def _history_row(row: donations.DonationView, lang: str) -> dict[str, str]:
    return {
        "id": str(row.id),
        "date": row.created_at.date().isoformat(),
        "school": row.school,
        "amount": format_money(row.amount_cents, lang),
        "card": row.card,
    }


class DonateState(LightboxPayment, rx.State):
    """/edit-profile/donate-payment."""

    choice: str = DEFAULT_PRESET
    other_amount: str = ""
    school_id: str = ""
    schools: list[dict[str, str]] = []
    history: list[dict[str, str]] = []
    loaded: bool = False
    amount_error: str = ""
    school_error: str = ""
    # status (LightboxPayment): "", success, declined, cancelled, error, pending, confirming

    _amount_cents: int = 0
    _school_name: str = ""

    @rx.var
    def is_other(self) -> bool:
        return self.choice == OTHER

    @rx.event
    async def load(self) -> None:
        who = await signed_up_parent(self)
        self.status = self.message = self.amount_error = self.school_error = ""
        self.busy = False
        if who is None:
            self.schools, self.history, self.school_id = [], [], ""
            return
        schools = await run_in_transaction(donations.donation_schools, parent_id=who.parent_id)
        self.schools = [{"id": str(s.id), "name": s.name} for s in schools]
        if self.school_id not in {s["id"] for s in self.schools}:
            self.school_id = self.schools[0]["id"] if self.schools else ""
        await self._load_history(who)
        self.loaded = True

    async def _load_history(self, who: ActingParent) -> None:
        rows = await run_in_transaction(donations.list_donations, parent_id=who.parent_id)
        self.history = [_history_row(r, who.lang) for r in rows]

    @rx.event
    def set_choice(self, value: str) -> None:
        self.choice = value if value in (*PRESETS, OTHER) else DEFAULT_PRESET
        self.amount_error = ""

    @rx.event
    def set_other_amount(self, value: str) -> None:
        self.other_amount = str(value)[:12]
        self.amount_error = ""

    @rx.event
    def set_school(self, value: str) -> None:
        self.school_id = str(value)
        self.school_error = ""

    # ---- donate: LightboxPayment's pay (the form's submit) --------------------------------
    async def _payer(self) -> ActingParent | None:
        who = await signed_up_parent(self)
        if who is None:
            self.schools, self.history = [], []
            return None
        return who

    async def _begin(self, who: ActingParent, lang: str) -> Any:
        amount = self.other_amount if self.choice == OTHER else self.choice
        # A school id from the browser: the service takes only a school of who's children.
        school = int(self.school_id) if self.school_id.isdigit() else None
        names = {s["id"]: s["name"] for s in self.schools}
        self._school_name = names.get(self.school_id, "")
        self.status = self.message = self.amount_error = self.school_error = ""
        return amount, school

    async def _start(self, who: ActingParent, ticket: Any, lang: str) -> Started:
        amount, school = ticket
        session = await donations.start_donation(
            parent_id=who.parent_id, amount=amount, school_id=school
        )
        return Started.lightbox(session, session.payment_id, session)

    def _opened(self, started: Started, lang: str) -> None:
        self._amount_cents = started.result.amount_cents

    def _confirming(self, lang: str) -> None:
        self.status, self.message = "confirming", tr("donate.confirming", lang)

    async def _refused(self, who: ActingParent, err: DomainError, lang: str) -> None:
        if err.field == "amount":
            self.amount_error = err.message(lang)
        elif err.field == "school":
            self.school_error = err.message(lang)
        else:
            self.status, self.message = "error", err.message(lang)

    async def _settle(
        self, who: ActingParent, payment_id: int, outcome: dict[str, str], lang: str
    ) -> Settled:
        return await settle_lightbox(
            parent_id=who.parent_id,
            payment_id=payment_id,
            txn_id=outcome["txn_id"],
            lang=lang,
            **card_outcome(outcome),
        )

    async def _finish(self, who: ActingParent, result: Settled, lang: str) -> list:
        self.status, self.message = result.status, result.message
        if result.status == "success":
            amount = format_money(self._amount_cents, lang)
            self.message = tr("pay.donation_thanks", lang, amount=amount, school=self._school_name)
            await self._load_history(who)
        return []
