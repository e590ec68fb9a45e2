"""Confirming a change of a placed order (the order's modification, the move of one meal): the
service re-checks the change, prices it and refunds a decrease or charges an increase (a saved
card, or the Lightbox: ``complete_change_payment`` / ``change_payment_declined``). The same
request key again answers what the first call did: a double tap pays once."""

from __future__ import annotations

from functools import partial
from typing import Any

import reflex as rx

from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.services.ordering.changing import modify as changes
from hotmeals.services.ordering.changing.change_result import ChangeResult, change_message
from hotmeals.ui.shared_state.auth import ActingParent
from hotmeals.ui.shared_state.card_choice import CardPayment
from hotmeals.ui.shared_state.forms import OnceKey, forget_submission, message
from hotmeals.ui.shared_state.lightbox import Started
from hotmeals.ui.shared_state.toasts import succeeded


def result_status(result: ChangeResult) -> str:
    """The notice kind of a ChangeResult: done (applied), pending, declined, dropped, pay."""
    return "done" if result.status == "applied" else result.status


async def settle_change(parent_id: int, payment_id: int, outcome: dict[str, str]) -> ChangeResult:
    """The Lightbox closed on a change's payment: an approval is confirmed with Converge and
    the change applied (or dropped and voided); anything else leaves the order as it was."""
    if outcome["outcome"] == "approval":
        return await changes.complete_change_payment(
            parent_id=parent_id, payment_id=payment_id, txn_id=outcome["txn_id"]
        )
    # A hint only: Converge is asked first; a sale it made applies the change.
    return await changes.change_payment_declined(
        parent_id=parent_id,
        payment_id=payment_id,
        message=outcome["message"] or outcome["outcome"],
        outcome=outcome["outcome"],
    )


class ChangePayment(CardPayment, OnceKey, mixin=True):
    """``pay`` confirms the change the screen shows. The state names the service call
    (``_change_call``) and shows the order after a result (``_changed``)."""

    @rx.var
    def waiting(self) -> bool:
        return self.status in ("paying", "confirming")

    def _change_call(self, card_id: int | None, save_card: bool) -> partial:
        """Inside the lock: the change service with the screen's arguments (the request key
        included), bound with ``functools.partial``."""
        raise NotImplementedError

    async def _changed(self, who: ActingParent, result: ChangeResult, lang: str) -> None:
        """Inside the lock: the screen after a result."""

    async def _begin(self, who: ActingParent, lang: str) -> Any:
        card, save = self._chosen()
        self.status, self.message = "confirming", tr("ui.change.confirming", lang)
        return self._change_call(card, save)

    async def _start(self, who: ActingParent, ticket: Any, lang: str) -> Started:
        result = await ticket(parent_id=who.parent_id, lang=lang)
        if result.status == "pay" and result.hosted is not None:
            return Started.lightbox(result.hosted, int(result.payment_id or 0), result)
        return Started.done(result)

    def _opened(self, started: Started, lang: str) -> None:
        self.status, self.message = "paying", change_message(started.result, lang)

    async def _settle(
        self, who: ActingParent, payment_id: int, outcome: dict[str, str], lang: str
    ) -> ChangeResult:
        return await settle_change(who.parent_id, payment_id, outcome)

    async def _refused(self, who: ActingParent, err: DomainError, lang: str) -> None:
        self.status, self.message = "error", message(err, lang)
        forget_submission(self)

    async def _finish(self, who: ActingParent, result: ChangeResult, lang: str) -> list:
        told = change_message(result, lang)
        self.status, self.message = result_status(result), told
        if result.status in ("applied", "declined", "dropped"):
            forget_submission(self)
        await self._changed(who, result, lang)
        return succeeded(told) if result.status == "applied" else []
