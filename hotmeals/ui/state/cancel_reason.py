"""The cancel-reason form of the screens that cancel (the order's details, the cancel cart,
one meal): the reasons the services offer, the choice and the Other text, and 'Are you
sure?'."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import reflex as rx
from reflex.event import EventSpec

from hotmeals.domain.credit import RefundDestination
from hotmeals.i18n import t as tr
from hotmeals.services import credit
from hotmeals.services.ordering import cancel, cancel_order
from hotmeals.ui.state.base import call_service
from hotmeals.ui.state.forms import confirm_once
from hotmeals.ui.state.ids import browser_id
from hotmeals.ui.state.toasts import succeeded


@dataclass
class ReasonOption:
    id: str = ""
    name: str = ""
    is_other: bool = False


def reason_options(rows: list[dict]) -> list[ReasonOption]:
    return [
        ReasonOption(id=str(r["reason_id"]), name=str(r["label"]), is_other=bool(r["is_other"]))
        for r in rows
    ]


class CancelReasonForm(rx.State, mixin=True):
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

    def _confirm_cancel(self, **options: Any) -> AsyncIterator[Any]:
        """'Yes' on 'Are you sure?': ``forms.confirm_once`` in the background (the refund
        waits on Converge, not holding the parent's state lock meanwhile), closing the
        dialog; ``options`` are confirm_once's (busy, ready, once, act, done, refused)."""
        return confirm_once(self, dialog="sure_open", background=True, **options)

    async def _load_reasons(self, parent_id: int, lang: str) -> None:
        """The reasons the services offer, and the family's refund choice as this cancel's."""
        rows = await call_service(cancel_order.cancel_reasons, lang=lang)
        self.reasons = reason_options(rows)
        chosen = await call_service(credit.refund_to, parent_id=parent_id)
        self.refund_to = chosen.value

    async def _cancelled(self, parent_id: int, result: Any, lang: str) -> Any:
        """A cancel's ``done``: its title and message shown, the form cleared, the screen
        again, and the success toast."""
        self.done_title, self.done_message = result.title, result.message
        self._clear_reason()
        await self._fill(parent_id, lang)
        return succeeded(result.title, description=result.message)

    @rx.event
    def set_reason(self, value: str):
        value = str(value)
        self.reason_id = value if any(r.id == value for r in self.reasons) else ""
        self.reason_error = self.other_error = ""

    @rx.event
    def set_other_text(self, value: str):
        self.other_text = str(value)[: cancel.OTHER_TEXT_MAX]
        self.other_error = ""

    @rx.event
    def set_refund_to(self, value: str):
        if value in {d.value for d in RefundDestination}:  # anything else is ignored
            self.refund_to = value

    @rx.event
    def set_sure_open(self, value: bool):
        if not self._confirm_busy():
            self.sure_open = bool(value)

    def _ask_sure(self, lang: str) -> EventSpec | None:
        """A reason chosen (Other with its text): 'Are you sure?' opens; otherwise the
        missing field says why and takes the focus."""
        if not self.reason_id:
            self.reason_error = tr("cancel_reason_required", lang)
            return rx.set_focus("cancel-reason")
        if self.other_chosen and not self.other_text.strip():
            self.other_error = tr("cancel_other_text_required", lang)
            return rx.set_focus("cancel-other")
        self.sure_open = True
        return None

    def _reason_args(self) -> dict[str, Any]:
        """The reason as the cancellation services take it (they check it again)."""
        return {
            "reason_id": browser_id(self.reason_id) or None,
            "other_text": self.other_text if self.other_chosen else None,
            "refund_to": self.refund_to,
        }

    def _clear_reason(self, errors_too: bool = False) -> None:
        self.reason_id = self.other_text = ""
        if errors_too:
            self.reason_error = self.other_error = ""
