"""State of /edit-profile/modify-order?id=N and its /add-item step (issue 10, screen 2).

Thin callers of ``hotmeals.services.ordering.modify``: ``modify_order_info`` (the order's lines,
the draft's steps and the difference), ``delete_from_modify_order`` (remove a line's meals or
take a step back), ``add_to_my_order`` (through the Book meal dialog, ``BookingState`` with
its ``_order_id`` set by ``load_add_item``), ``modify_confirm_order`` (a decrease applied and
refunded, an increase paid with a saved card or in the Lightbox: ``complete_change_payment``,
``change_payment_declined``). The parent is ``acting_parent(self)`` on every call; an id from
the browser must be one shown on screen, and the services check it is the parent's. The
payment pieces (card choice, result, Lightbox) are shared with the move of one meal
(``state/manage_meal.py``).
"""

from __future__ import annotations

from datetime import date
from typing import Any

import reflex as rx

from hotmeals.domain.dates import long_day
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.services import cards
from hotmeals.services.ordering import modify as changes
from hotmeals.ui.state.auth import acting_parent, session_expired
from hotmeals.ui.state.base import call_service
from hotmeals.ui.state.booking import BookingState
from hotmeals.ui.state.checkout import NEW_CARD, _card_option
from hotmeals.ui.state.forms import forget_submission, message, submission_key
from hotmeals.ui.state.i18n import I18nState
from hotmeals.ui.state.payments import _result, lightbox_script
from hotmeals.ui.state.toasts import failed, succeeded

MODIFY_ROUTE = "/edit-profile/modify-order"
ADD_ITEM_ROUTE = "/edit-profile/modify-order/add-item"
MODIFY_MEAL_ROUTE = "/edit-profile/modify-meal-details"
DETAILS_ROUTE = "/edit-profile/order-details"


def _int(value: Any) -> int:
    """An id from the browser as an int (0 when it is not one); services check it."""
    text = str(value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 12 else 0


def _query_id(state: rx.State, name: str = "id") -> int:
    return _int(state.router.url.query_parameters.get(name))


def _line_row(line: dict) -> dict[str, str]:
    return {
        "id": str(line["order_line_id"]),
        "child": str(line["child_name"]),
        "day": str(line["day"]),
        "name": str(line["name"]),
        "size": str(line["size"] or ""),
        "quantity": str(line["active_quantity"]),
        "removing": str(line["remove_quantity"] or ""),
        "undo": str(line["remove_steps"][-1]) if line["remove_steps"] else "",
        "price": str(line["price"]),
        "status": str(line["status"]),
        "can_remove": "1"
        if line["can_change"] and line["active_quantity"] > line["remove_quantity"]
        else "",
    }


def _added_row(step: dict, lang: str) -> dict[str, str]:
    day = long_day(date.fromisoformat(step["date"]), lang) if step.get("date") else ""
    return {
        "id": str(step["change_line_id"]),
        "name": str(step["name"]),
        "day": day,
        "quantity": str(step["quantity"]),
        "price": str(step["price"]),
        "problem": str(step["problem"] or ""),
    }


async def card_options(parent_id: int, lang: str) -> list[dict[str, str]]:
    rows = await call_service(cards.list_cards, parent_id=parent_id)
    return [_card_option(c, lang) for c in rows]


def result_status(result: changes.ChangeResult) -> str:
    """The notice kind of a ChangeResult: done (applied), pending, declined, dropped, pay."""
    return "done" if result.status == "applied" else result.status


class ModifyOrderState(rx.State):
    """/edit-profile/modify-order?id=N."""

    loaded: bool = False
    missing: str = ""  # 'No data found' and the like: the id is not one of who's orders
    number: str = ""
    lines: list[dict[str, str]] = []
    added: list[dict[str, str]] = []
    has_changes: bool = False
    can_confirm: bool = False
    new_total: str = ""
    to_pay_cents: int = 0
    difference: str = ""  # the service's 'You will pay $x more.' / '$x will be refunded...'
    cards: list[dict[str, str]] = []
    card_choice: str = NEW_CARD
    save_card: bool = False
    busy: bool = False
    turn: int = 0
    status: str = ""  # "", paying, confirming, done, pending, declined, dropped, error
    message: str = ""
    order_link: str = ""
    add_link: str = ""

    _id: int = 0
    _payment_id: int = 0
    _settling: bool = False  # a Lightbox outcome is being settled (issue 21)
    _lang: str = ""
    _once_key: str = ""  # forms.submission_key
    _once_digest: str = ""

    @rx.var
    def waiting(self) -> bool:
        return self.status in ("paying", "confirming")

    def _fill(self, info: dict) -> None:
        self.number = str(info["number"])
        self.lines = [_line_row(x) for x in info["lines"]]
        self.added = [_added_row(x, self._lang or "en") for x in info["added"]]
        self.has_changes = bool(info["has_changes"])
        self.can_confirm = self.has_changes and not info["problems"]
        self.new_total = format_total(info)
        self.to_pay_cents = int(info["to_pay_cents"])
        self.difference = str(info["message"]) if self.has_changes else ""

    async def _info(self, parent_id: int, lang: str) -> None:
        self._lang = lang
        try:
            info = await call_service(
                changes.modify_order_info, parent_id=parent_id, order_id=self._id, lang=lang
            )
        except DomainError as err:
            self.missing = message(err, lang)
            self.lines, self.added, self.has_changes, self.can_confirm = [], [], False, False
            return
        self.missing = ""
        self._fill(info)

    @rx.event
    async def load(self):
        lang = (await self.get_state(I18nState)).lang
        if self.busy:
            return  # a payment in flight on this tab: keep its screen
        self._id = _query_id(self)
        self.status = self.message = ""
        self.loaded = False
        self.order_link = f"{DETAILS_ROUTE}?id={self._id}"
        self.add_link = f"{ADD_ITEM_ROUTE}?id={self._id}"
        who = await acting_parent(self)
        if who is None:
            return
        self._lang = lang
        if not self._id:
            self.missing = tr("ui.common.no_data", lang)
        else:
            await self._info(who.parent_id, lang)
        self.cards = await card_options(who.parent_id, lang)
        if self.card_choice not in {c["id"] for c in self.cards}:
            self.card_choice = NEW_CARD
        self.loaded = True

    @rx.event
    async def relang(self):
        lang = (await self.get_state(I18nState)).lang
        if not self.loaded or self.busy or lang == self._lang or not self._id:
            return
        who = await acting_parent(self)
        if who is None:
            return
        self._lang = lang
        await self._info(who.parent_id, lang)
        self.cards = await card_options(who.parent_id, lang)

    async def _step(self, lang: str, **kwargs: Any):
        who = await acting_parent(self)
        if who is None:
            return session_expired(lang)
        try:
            info = await call_service(
                changes.delete_from_modify_order,
                parent_id=who.parent_id,
                order_id=self._id,
                lang=lang,
                **kwargs,
            )
        except DomainError as err:
            await self._info(who.parent_id, lang)
            return failed(message(err, lang))
        self._fill(info)
        self.status = self.message = ""
        return None

    @rx.event
    async def remove(self, line_id: str):
        """Remove a line's remaining meals (only a line on screen that can still change)."""
        lang = (await self.get_state(I18nState)).lang
        if self.busy or not any(x["id"] == str(line_id) and x["can_remove"] for x in self.lines):
            return None
        return await self._step(lang, order_line_id=_int(line_id))

    @rx.event
    async def undo(self, step_id: str):
        """Take back a step of the draft: a removal or an added meal shown on screen."""
        lang = (await self.get_state(I18nState)).lang
        shown = {x["undo"] for x in self.lines} | {x["id"] for x in self.added}
        if self.busy or not str(step_id) or str(step_id) not in shown:
            return None
        return await self._step(lang, change_line_id=_int(step_id))

    @rx.event
    def set_card_choice(self, value: str):
        if not self.busy:
            value = str(value)
            self.card_choice = value if value in {c["id"] for c in self.cards} else NEW_CARD

    @rx.event
    def set_save_card(self, value: bool):
        self.save_card = bool(value)

    # Both handlers that wait on Converge run in the background (issue 21): the parent's
    # state lock is taken only to read and write the state, never while Converge answers.
    @rx.event(background=True)
    async def confirm(self):
        async with self:
            lang = (await self.get_state(I18nState)).lang
            if self.busy or not self._id or not self.can_confirm:
                self.turn += 1
                return
            who = await acting_parent(self)
            if who is None:
                self.turn += 1
            else:
                card = _int(self.card_choice) or None if self.to_pay_cents > 0 else None
                save = self.save_card and card is None
                self.busy = True
                self.status, self.message = "confirming", tr("ui.change.confirming", lang)
                order_id = self._id
                key = submission_key(
                    self,
                    ["modify_confirm", self._id, [x["id"] for x in self.added], self.difference],
                )
        if who is None:
            yield session_expired(lang)
            return
        try:
            # The service re-checks every step, prices the order and refunds or charges; the
            # same key again answers what the first call did (a double tap pays once).
            result = await changes.modify_confirm_order(
                parent_id=who.parent_id,
                order_id=order_id,
                request_key=key,
                card_id=card,
                save_card=save,
                lang=lang,
            )
        except DomainError as err:
            async with self:
                self.busy = False
                self.turn += 1
                self.status, self.message = "error", message(err, lang)
                forget_submission(self)
                await self._info(who.parent_id, lang)
            return
        if result.status == "pay" and result.hosted is not None:
            async with self:
                self._payment_id = int(result.payment_id or 0)
                self.status, self.message = "paying", result.message
            yield rx.call_script(
                lightbox_script(result.hosted.lightbox_url, result.hosted.token, lang),
                callback=ModifyOrderState.lightbox_closed,
            )
            return
        async with self:
            await self._finish(who.parent_id, result, lang)
        for event in self._toast(result):
            yield event

    @rx.event(background=True)
    async def lightbox_closed(self, value: Any):
        async with self:
            lang = (await self.get_state(I18nState)).lang
            who = await acting_parent(self)
            payment_id = self._payment_id
            self._payment_id = 0  # taken: a repeated callback finds nothing to settle
            if payment_id:
                self._settling = True
            elif self._settling:
                return  # a repeat while the first settles: it answers
            if who is None or not payment_id:
                self.busy = False
                self.turn += 1
                self._settling = False
        if who is None or not payment_id:
            if who is None:
                yield session_expired(lang)
            return
        outcome = _result(value)
        try:
            result = await settle_lightbox(who.parent_id, payment_id, outcome, lang)
        except DomainError as err:
            async with self:
                self._settling = False
                self.busy = False
                self.turn += 1
                self.status, self.message = "error", message(err, lang)
            return
        async with self:
            self._settling = False
            await self._finish(who.parent_id, result, lang)
        for event in self._toast(result):
            yield event

    def _toast(self, result: changes.ChangeResult) -> list:
        if result.status == "applied":
            return succeeded(result.message)
        return []

    async def _finish(self, parent_id: int, result: changes.ChangeResult, lang: str) -> None:
        self.busy = False
        self.turn += 1
        self.status, self.message = result_status(result), result.message
        if result.status in ("applied", "declined", "dropped"):
            forget_submission(self)
        await self._info(parent_id, lang)

    @rx.event
    async def load_add_item(self):
        """on_load of /add-item (after ``BookingState.load``): the Book meal dialog adds to
        this order's draft. The order must be who's (``modify_order_info`` says so)."""
        lang = (await self.get_state(I18nState)).lang
        booking = await self.get_state(BookingState)
        booking._order_id, booking.order_number = 0, ""
        self._id = _query_id(self)
        self.order_link = f"{MODIFY_ROUTE}?id={self._id}"
        who = await acting_parent(self)
        if who is None or not self._id:
            self.missing = tr("ui.common.no_data", lang)
            return
        await self._info(who.parent_id, lang)
        if not self.missing:
            booking._order_id, booking.order_number = self._id, self.number


async def settle_lightbox(
    parent_id: int, payment_id: int, outcome: dict[str, str], lang: str
) -> changes.ChangeResult:
    """The Lightbox closed on a change's payment: an approval is confirmed with Converge and
    the change applied (or dropped and voided); anything else leaves the order as it was."""
    if outcome["outcome"] == "approval":
        return await changes.complete_change_payment(
            parent_id=parent_id, payment_id=payment_id, txn_id=outcome["txn_id"], lang=lang
        )
    # A hint only: Converge is asked first; a sale it made applies the change.
    return await changes.change_payment_declined(
        parent_id=parent_id,
        payment_id=payment_id,
        message=outcome["message"] or outcome["outcome"],
        outcome=outcome["outcome"],
        lang=lang,
    )


def format_total(info: dict) -> str:
    return str(info["charges"]["total_pay"])
