"""States of the calendar feed card (Settings) and the receipt page (/receipt). Thin callers of
``services.calendar_feed`` and ``services.receipts``: the parent is ``acting_parent(self)`` on
every call, the receipt's order number, change and donation come from the address and the
service checks that they are the parent's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import reflex as rx
from anyio import to_thread

from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.i18n import tn
from hotmeals.services import calendar_feed, receipts
from hotmeals.services.receipt_pdf import receipt_pdf
from hotmeals.services.receipt_rows import TOTALS, Receipt
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import ActingParent, acting_parent
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.ids import browser_id
from hotmeals.ui.shared_state.screens import RelangScreen, order_details_href
from hotmeals.ui.shared_state.toasts import succeeded

RECEIPT_ROUTE = "/receipt"


class CalendarFeedState(rx.State):
    """The private feed's address on the Settings screen, and 'Make a new link'."""

    url: str = ""
    webcal_url: str = ""
    rotate_open: bool = False
    busy: bool = False

    @rx.event
    async def load(self) -> None:
        who = await acting_parent(self)
        if who is None:
            self.url = self.webcal_url = ""
            return
        # the link speaks the screen's language (the card reloads when it changes)
        answer = await run_in_transaction(
            calendar_feed.get_feed, parent_id=who.parent_id, lang=who.lang
        )
        self.url, self.webcal_url = answer.url, answer.webcal_url

    @rx.event
    def set_rotate_open(self, value: bool) -> None:
        if not self.busy:
            self.rotate_open = bool(value)

    @rx.event
    async def rotate(self) -> Any:
        if self.busy:
            return None
        who = await acting_parent(self)
        if who is None:
            return None
        self.busy = True
        try:
            answer = await run_in_transaction(
                calendar_feed.rotate_feed, parent_id=who.parent_id, lang=who.lang
            )
        finally:
            self.busy = False
        self.url, self.webcal_url = answer.url, answer.webcal_url
        self.rotate_open = False
        return succeeded(tr("feed.rotated", who.lang))


@dataclass
class ReceiptRow:
    kind: str = ""  # child, day, line, item, note
    label: str = ""
    detail: str = ""
    amount: str = ""


@dataclass
class MoneyRow:
    label: str = ""
    amount: str = ""
    strong: bool = False
    href: str = ""


def _query_of(query: Any) -> dict[str, str]:
    """The receipt the address names (the service checks it is the parent's)."""
    return {k: str(query.get(k) or "")[:24] for k in ("order", "change", "donation")}


def _href(number: str, **extra: Any) -> str:
    return f"{RECEIPT_ROUTE}?order={number}" + "".join(f"&{k}={v}" for k, v in extra.items())


def receipt_rows(receipt: Receipt, lang: str) -> list[ReceiptRow]:
    rows: list[ReceiptRow] = []
    for group in receipt.groups:
        rows.append(ReceiptRow("child", group.child_name))
        for day in group.days:
            rows.append(ReceiptRow("day", day.day))
            for line in day.lines:
                notes = [line.action_label or ""]
                if line.cancelled_quantity and not line.action:
                    notes.append(tn("receipt.cancelled_qty", line.cancelled_quantity, lang))
                if line.moved_from_day:
                    notes.append(tr("receipt.moved_from", lang, day=line.moved_from_day))
                rows.append(
                    ReceiptRow(
                        "line",
                        f"{line.meal} ({line.size_label})",
                        " · ".join(n for n in notes if n),
                        line.amount,
                    )
                )
                rows += [ReceiptRow("item", i.label, "", i.amount) for i in line.items]
                if line.special_note:
                    rows.append(ReceiptRow("note", line.special_note))
    return rows


class ReceiptState(RelangScreen, rx.State):
    """/receipt?order=HM-000123 (&change=N) or ?donation=N: the receipt, print and PDF."""

    missing: str = ""
    kind: str = ""
    title: str = ""
    number: str = ""
    order_number: str = ""
    day: str = ""
    billed_to: str = ""
    seller: str = ""
    seller_email: str = ""
    hst_label: str = ""
    school: str = ""
    rows: list[ReceiptRow] = []
    charges: list[MoneyRow] = []
    payments: list[MoneyRow] = []
    refunds: list[MoneyRow] = []
    giveback: list[MoneyRow] = []
    changes: list[MoneyRow] = []
    back_href: str = ""
    _query: dict[str, str] = {}

    async def _receipt(self, who: ActingParent, lang: str) -> Receipt:
        """The receipt the address names, for ``who`` (the service checks it is theirs)."""
        change, donation = self._query.get("change"), self._query.get("donation")
        return await run_in_transaction(
            receipts.receipt,
            parent_id=who.parent_id,
            order=self._query.get("order") or "",
            change=browser_id(change) if change else None,
            donation=browser_id(donation) if donation else None,
            lang=lang,
        )

    async def _load(self) -> None:
        lang = (await self.get_state(I18nState)).lang
        who = await acting_parent(self)
        if who is None:
            self.loaded = False
            return
        self._lang = lang
        try:
            data = await self._receipt(who, lang)
        except DomainError as err:
            self.missing, self.loaded = err.message(lang), True
            return
        self.missing = ""
        head = data.head
        self.kind, self.title, self.number = head.kind, head.title, head.number
        self.order_number, self.day = data.order_number, head.day
        self.billed_to = f"{head.parent_name} · {head.parent_email}"
        self.seller, self.seller_email = head.seller, head.seller_email
        self.hst_label, self.school = head.hst_label, data.school or ""
        self.rows = receipt_rows(data, lang)
        self.charges = [MoneyRow(c.label, c.amount, c.name in TOTALS) for c in data.charges]
        self.payments = [MoneyRow(f"{p.day} — {p.paid_by}", p.amount) for p in data.payments]
        self.refunds = [MoneyRow(f"{r.day} — {r.state_label}", r.amount) for r in data.refunds]
        if data.refunds:
            self.refunds += [
                MoneyRow(tr("receipt.refunded_total", lang), data.refunded, True),
                MoneyRow(tr("receipt.net", lang), data.net, True),
            ]
        self.giveback = [MoneyRow(g.label, g.amount) for g in data.giveback]
        self.changes = [
            MoneyRow(c.label, "", False, _href(data.order_number, change=c.change_id))
            for c in data.changes
        ]
        order_id = data.order_id
        self.back_href = order_details_href(order_id) if order_id else ""
        self.loaded = True

    @rx.event
    async def load(self) -> None:
        self._query = _query_of(self.router.url.query_parameters)
        self.loaded = False
        await self._load()

    @rx.event
    async def download_pdf(self) -> Any:
        who = await acting_parent(self)
        if who is None or not self.loaded or self.missing:
            return None
        lang = (await self.get_state(I18nState)).lang
        data = await self._receipt(who, lang)
        pdf = await to_thread.run_sync(receipt_pdf, data)
        return rx.download(data=pdf, filename=f"receipt-{data.head.number}.pdf")
