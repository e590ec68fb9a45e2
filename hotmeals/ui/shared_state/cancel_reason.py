"""The cancel-reason form of the screens that cancel (the order's details, the cancel cart,
one meal): the reasons the services offer, the choice and the Other text, and 'Are you
sure?'."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import reflex as rx
from reflex.event import EventSpec

from hotmeals.domain.credit import RefundDestination, RefundSplit
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.services import credit
from hotmeals.services.ordering.cancelling import cancel, cancel_order
from hotmeals.services.ordering.cancelling.cancel_order import CancelReasonView, CancelResult
from hotmeals.services.ordering.mails import cancel_notice, refund_notice
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import acting_parent
from hotmeals.ui.shared_state.forms import OnceKey, confirm_once, focus_field, forget_submission
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.ids import browser_id
from hotmeals.ui.shared_state.screens import LoadedScreen, new_language_for
from hotmeals.ui.shared_state.toasts import succeeded


@dataclass
class ReasonOption:
    id: str = ""
    name: str = ""
    is_other: bool = False


def cancelled_notice(result: CancelResult, lang: str) -> str:
    """What a cancel says of its refund, as its API answer does (``mails.cancel_notice``)."""
    return cancel_notice(
        result.refund_cents,
        lang,
        credit_cents=result.credit_cents,
        failed_cents=result.failed_cents,
    )


def reason_options(rows: list[CancelReasonView], lang: str) -> list[ReasonOption]:
    return [
        ReasonOption(id=str(r.reason_id), name=r.label(lang), is_other=r.is_other) for r in rows
    ]


class CancelReasonForm(OnceKey, LoadedScreen, mixin=True):
    """The cancel-reason form of the screens that cancel (the order's details, the cancel
    cart, one meal): a reason is required and Other needs its text, said at the field
    (ids ``cancel-reason`` and ``cancel-other``) before 'Are you sure?' opens. The service
    checks both again (``cancel_reason_required``, ``cancel_other_text_required``).

    A mixin: each state gets its own copy of these vars and handlers (set_reason,
    set_other_text, set_refund_to, set_sure_open are in each state's allow-list). The state fills
    ``reasons`` with ``reason_options`` and overrides ``_confirm_busy``."""

    reasons: list[ReasonOption] = []
    reason_id: str = ""
    other_text: str = ""
    reason_error: str = ""
    other_error: str = ""
    sure_open: bool = False
    # where this cancel's refund goes ("card" or "credit"): the family's standing choice
    # until the parent picks the other one for this cancel
    refund_to: str = RefundDestination.CARD.value
    # what 'Are you sure?' says this cancel refunds and where (``_refund_ahead``)
    sure_refund: str = ""
    # the cancel's outcome, shown in place of the form
    done_title: str = ""
    done_message: str = ""

    @rx.var
    def other_chosen(self) -> bool:
        return any(r.is_other and r.id == self.reason_id for r in self.reasons)

    def _confirm_busy(self) -> bool:
        """True while the confirm runs: 'Are you sure?' stays open until it answers."""
        return False

    async def _fill(self, parent_id: int, lang: str) -> None:
        """The screen again from the services (after a cancel)."""
        raise NotImplementedError

    async def _refund_ahead(self, parent_id: int) -> RefundSplit | None:
        """What this screen's cancel would refund and where (``cancel_order.refund_preview``
        with ``self.refund_to``); None: the screen says it its own way."""
        return None

    async def _sure_refund(self, lang: str) -> str:
        """The refund sentence of 'Are you sure?' (``mails.refund_notice``, ahead: the same
        rule as the answer after the cancel); "" when there is none to say."""
        who = await acting_parent(self)
        if who is None:
            return ""
        try:
            split = await self._refund_ahead(who.parent_id)
        except DomainError:  # the confirm itself says why it cannot be done
            return ""
        if split is None:
            return ""
        total = split.credit_cents + split.card_refund_cents
        return refund_notice(total, lang, credit_cents=split.credit_cents, ahead=True)

    def _confirm_cancel(self, **options: Any) -> AsyncIterator[Any]:
        """'Yes' on 'Are you sure?': ``forms.confirm_once`` in the background (the refund
        waits on Converge, not holding the parent's state lock meanwhile), closing the
        dialog; ``options`` are confirm_once's (busy, ready, once, act, done, refused)."""
        return confirm_once(self, dialog="sure_open", background=True, **options)

    async def _fill_acting(self, lang: str) -> bool:
        """The screen from the services for the acting parent on this call (False: none)."""
        who = await acting_parent(self)
        if who is None:
            return False
        await self._fill(who.parent_id, lang)
        return True

    async def _relang(self, ready: bool = True) -> None:
        """A ``relang`` handler: the screen again in the language now chosen, when it was
        loaded in another and ``ready``."""
        found = await new_language_for(self, ready)
        if found is not None:
            who, lang = found
            await self._fill(who.parent_id, lang)

    def _open_anew(self) -> None:
        """The screen opened again: 'Are you sure?' closed, no field error, no outcome shown,
        and its next confirm gets a new key."""
        self.sure_open = False
        self.reason_error = self.other_error = ""
        self.done_title = self.done_message = ""
        forget_submission(self)

    def _reason_once(self, *head: Any) -> list[Any]:
        """A cancel's submission payload (``confirm_once``'s ``once``): what it cancels
        (``head``), the reason and where the refund goes."""
        return [*head, self.reason_id, self.other_text, self.refund_to]

    async def _load_reasons(self, parent_id: int, lang: str) -> None:
        """The reasons the services offer, and the family's refund choice as this cancel's."""
        rows = await run_in_transaction(cancel_order.cancel_reasons)
        self.reasons = reason_options(rows, lang)
        chosen = await run_in_transaction(credit.refund_to, parent_id=parent_id)
        self.refund_to = chosen.value

    async def _cancelled(
        self, parent_id: int, result: CancelResult, lang: str, title: str | None = None
    ) -> Any:
        """A cancel's ``done``: its title ("Order Cancelled" unless ``title``) and refund
        notice shown, the form cleared, the screen again, and the success toast."""
        self.done_title = title or tr("orders_after.cancelled", lang)
        self.done_message = cancelled_notice(result, lang)
        self._clear_reason()
        await self._fill(parent_id, lang)
        return succeeded(self.done_title, description=self.done_message)

    @rx.event
    def set_reason(self, value: str) -> None:
        value = str(value)
        self.reason_id = value if any(r.id == value for r in self.reasons) else ""
        self.reason_error = self.other_error = ""

    @rx.event
    def set_other_text(self, value: str) -> None:
        self.other_text = str(value)[: cancel.OTHER_TEXT_MAX]
        self.other_error = ""

    @rx.event
    def set_refund_to(self, value: str) -> None:
        if value in {d.value for d in RefundDestination}:  # anything else is ignored
            self.refund_to = value

    @rx.event
    def set_sure_open(self, value: bool) -> None:
        if not self._confirm_busy():
            self.sure_open = bool(value)

    async def _ask_sure(self, ready: bool = True) -> EventSpec | None:
        """The screen's 'Cancel' (nothing when not ``ready``: nothing to cancel, or a cancel
        runs): a reason chosen (Other with its text), 'Are you sure?' opens; otherwise the
        missing field says why and takes the focus."""
        if not ready:
            return None
        lang = (await self.get_state(I18nState)).lang
        if not self.reason_id:
            self.reason_error = tr("cancel_reason_required", lang)
            return focus_field("cancel-reason")
        if self.other_chosen and not self.other_text.strip():
            self.other_error = tr("cancel_other_text_required", lang)
            return focus_field("cancel-other")
        self.sure_refund = await self._sure_refund(lang)
        self.sure_open = True
        return None

    def _cancel_args(self, parent_id: int, key: str, lang: str) -> dict[str, Any]:
        """A cancellation service's arguments besides what it cancels (``confirm_once``'s
        ``act`` gets them): the parent, the reason as the services take it (they check it
        again), where the refund goes, and the request key that makes a repeat refund once."""
        return {
            "parent_id": parent_id,
            "request_key": key,
            "lang": lang,
            "reason_id": browser_id(self.reason_id) or None,
            "other_text": self.other_text if self.other_chosen else "",
            "refund_to": self.refund_to,
        }

    def _clear_reason(self, errors_too: bool = False) -> None:
        self.reason_id = self.other_text = ""
        if errors_too:
            self.reason_error = self.other_error = ""
