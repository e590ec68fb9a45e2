"""State of the manage-one-meal screens (issue 10, screen 5):
/edit-profile/manage-meal-details (the upcoming meals; with ?id=<order line> one meal: cancel
it, or pick another day) and /edit-profile/manage-meal-details/manage-confirm-order
(?id=<order line>&date=<day>: confirm the move; a difference to pay is paid with a saved card
or in the Lightbox, one to refund goes back to the card).

Thin callers of ``hotmeals.services.ordering.move`` (get_meals_list, meal_order_detail,
get_dates_for_modify_meal, modify_meal, complete_change_payment, change_payment_declined)
and ``hotmeals.services.ordering.cancel_order`` (cancel_reasons, cancel_meal). The parent is
``acting_parent(self)`` on every call; the ids come from the address and are checked by the
services against that parent (another parent's line is 'not found').
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.i18n import t as tr
from hotmeals.services.ordering import cancel_order as cancellations
from hotmeals.services.ordering import move as changes
from hotmeals.ui.state.auth import acting_parent, session_expired
from hotmeals.ui.state.base import call_service
from hotmeals.ui.state.checkout import NEW_CARD
from hotmeals.ui.state.forms import confirm_once, forget_submission, message, submission_key
from hotmeals.ui.state.i18n import I18nState
from hotmeals.ui.state.modify_order import (
    _int,
    _query_id,
    card_options,
    result_status,
    settle_lightbox,
)
from hotmeals.ui.state.orders import CancelReasonForm, reason_options
from hotmeals.ui.state.payments import _result, lightbox_script
from hotmeals.ui.state.toasts import failed, succeeded

MANAGE_ROUTE = "/edit-profile/manage-meal-details"
CONFIRM_MOVE_ROUTE = "/edit-profile/manage-meal-details/manage-confirm-order"
DETAILS_ROUTE = "/edit-profile/order-details"


def _meal_row(meal: dict) -> dict[str, str]:
    extras = [meal.get("menu_option") or "", meal.get("meal_option") or ""]
    extras += list(meal.get("addons") or [])
    return {
        "id": str(meal["order_line_id"]),
        "order_id": str(meal["order_id"]),
        "number": str(meal["order_number"]),
        "child": str(meal["child_name"]),
        "day": str(meal["day"]),
        "date": str(meal["date"]),
        "name": str(meal["name"]),
        "size": str(meal["size_label"] or ""),
        "extras": ", ".join(x for x in extras if x),
        "note": str(meal.get("special_note") or ""),
        "quantity": str(meal["quantity"]),
        "price": str(meal["price"]),
        "vendor": str(meal["vendor"] or ""),
        "moved": "1" if meal["status"] == "moved" else "",
        "cancelled": "1" if meal["status"] == "cancelled" else "",
        "can_change": "1" if meal["can_change"] else "",
        "href": f"{MANAGE_ROUTE}?id={int(meal['order_line_id'])}",
    }


def meal_cancelled_text(result: Any, lang: str) -> str:
    """What a parent reads once one meal is cancelled: the refund on its way, or why not."""
    refund = int(result.refund_cents or 0)
    on_its_way = refund > 0 and result.refunded_cents + result.pending_cents >= refund
    if on_its_way:
        return tr("ui.manage.meal_cancelled_refund", lang, amount=format_money(refund, lang))
    if refund <= 0:
        return tr("ui.manage.meal_cancelled", lang)
    # Converge refused the refund: the cancel stands; the service's notice says what next.
    return tr("ui.manage.meal_cancelled", lang) + ". " + str(result.message)


class ManageMealState(CancelReasonForm, rx.State):
    """/edit-profile/manage-meal-details[?id=N] and /manage-confirm-order?id=N&date=D."""

    loaded: bool = False
    missing: str = ""
    meals: list[dict[str, str]] = []
    meal: dict[str, str] = {}
    dates: list[dict[str, str]] = []
    dates_note: str = ""  # the cut-off passed, or no other day
    target: dict[str, str] = {}  # the confirm screen's day
    quote: str = ""  # the confirm screen's price difference (order_changes.quote_move)
    cards: list[dict[str, str]] = []
    card_choice: str = NEW_CARD
    save_card: bool = False
    busy: bool = False
    turn: int = 0
    status: str = ""  # "", paying, confirming, done, cancelled, pending, declined, dropped, error
    message: str = ""
    order_link: str = ""
    back_link: str = MANAGE_ROUTE
    view: str = "list"  # list, meal, confirm

    _id: int = 0
    _date: str = ""
    _payment_id: int = 0
    _settling: bool = False  # a Lightbox outcome is being settled (issue 21)
    _lang: str = ""
    _once_key: str = ""  # forms.submission_key
    _once_digest: str = ""
    _page: str = ""  # list, meal, confirm

    @rx.var
    def waiting(self) -> bool:
        return self.status in ("paying", "confirming")

    @rx.var
    def finished(self) -> bool:
        return self.status in ("done", "cancelled")

    async def _fill(self, parent_id: int, lang: str) -> None:
        self._lang = lang
        self.missing = ""
        if self._page == "list":
            rows = await call_service(changes.get_meals_list, parent_id=parent_id, lang=lang)
            self.meals = [_meal_row(m) for m in rows]
            return
        try:
            found = await call_service(
                changes.meal_order_detail, parent_id=parent_id, order_line_id=self._id, lang=lang
            )
        except DomainError as err:
            self.missing, self.meal, self.dates = message(err, lang), {}, []
            return
        self.meal = _meal_row(found)
        self.order_link = f"{DETAILS_ROUTE}?id={int(found['order_id'])}"
        try:
            days = await call_service(
                changes.get_dates_for_modify_meal,
                parent_id=parent_id,
                order_line_id=self._id,
                lang=lang,
            )
        except DomainError as err:
            self.dates, self.dates_note = [], message(err, lang)
        else:
            self.dates = [
                {
                    "date": str(d["date"]),
                    "day": str(d["day"]),
                    "href": f"{CONFIRM_MOVE_ROUTE}?id={self._id}&date={d['date']}",
                }
                for d in days["dates"]
                if d["meal_served"]
            ]
            self.dates_note = "" if self.dates else tr("ui.manage.no_dates", lang)
        if self._page == "confirm":
            self.target = next((d for d in self.dates if d["date"] == self._date), {})
            if not self.target and not self.finished:
                self.missing = self.dates_note or tr("ui.manage.date_unavailable", lang)
            self.quote = ""
            if self.target and not self.finished:
                try:
                    quoted = await call_service(
                        changes.quote_move,
                        parent_id=parent_id,
                        order_line_id=self._id,
                        new_date=self._date,
                        lang=lang,
                    )
                except DomainError as err:
                    self.quote = message(err, lang)
                else:
                    self.quote = str(quoted["message"])
            self.cards = await card_options(parent_id, lang)
            if self.card_choice not in {c["id"] for c in self.cards}:
                self.card_choice = NEW_CARD
        else:
            rows = await call_service(cancellations.cancel_reasons, lang=lang)
            self.reasons = reason_options(rows)

    async def _load(self, page: str):
        lang = (await self.get_state(I18nState)).lang
        if self.busy:
            return None
        self._id = _query_id(self)
        self._date = str(self.router.url.query_parameters.get("date") or "")[:10]
        self._page = "list" if page == "meal" and not self._id else page
        self.view = self._page
        self.meals = []
        self.loaded = False
        self.status = self.message = ""
        self._clear_reason(errors_too=True)
        self.sure_open = False
        self.meal, self.dates, self.target, self.dates_note = {}, [], {}, ""
        self.back_link = f"{MANAGE_ROUTE}?id={self._id}" if page == "confirm" else MANAGE_ROUTE
        forget_submission(self)
        who = await acting_parent(self)
        if who is None:
            return None
        if page == "confirm" and not self._id:
            self.missing = tr("ui.common.no_data", lang)
        else:
            await self._fill(who.parent_id, lang)
        self.loaded = True
        return None

    @rx.event
    async def load(self):
        """on_load of /manage-meal-details: the list, or one meal with ?id=."""
        return await self._load("meal")

    @rx.event
    async def load_confirm(self):
        """on_load of /manage-confirm-order?id=&date=."""
        return await self._load("confirm")

    @rx.event
    async def relang(self):
        lang = (await self.get_state(I18nState)).lang
        if not self.loaded or self.busy or lang == self._lang:
            return
        who = await acting_parent(self)
        if who is not None:
            await self._fill(who.parent_id, lang)

    # ---- cancel this meal -------------------------------------------------------------------
    def _confirm_busy(self) -> bool:
        return self.busy

    @rx.event
    async def ask_cancel(self):
        """'Cancel this meal': a reason first (Other with its text), then 'Are you sure?'."""
        lang = (await self.get_state(I18nState)).lang
        if self.busy or not self.meal or self._page != "meal":
            return None
        return self._ask_sure(lang)

    @rx.event(background=True)
    async def confirm_cancel(self):
        # In the background: the refund waits on Converge, not holding the parent's state
        # lock meanwhile (issue 21).
        async for event in confirm_once(
            self,
            busy="busy",
            ready=lambda: bool(self._id and self.meal and self._page == "meal"),
            dialog="sure_open",
            once=lambda: ["cancel_meal", self._id, self.reason_id, self.other_text],
            act=self._cancel_meal,
            done=self._meal_cancelled,
            refused=self._cancel_refused,
            background=True,
        ):
            yield event

    async def _cancel_meal(self, parent_id: int, key: str, lang: str) -> Any:
        # The service checks the line is the parent's, before its cut-off, the reason, and
        # refunds once whatever the number of taps (the key).
        return await cancellations.cancel_meal(
            parent_id=parent_id,
            order_line_id=self._id,
            **self._reason_args(),
            request_key=key,
            lang=lang,
        )

    def _cancel_refused(self, err: DomainError, lang: str) -> Any:
        self.status, self.message = "error", message(err, lang)
        return failed(self.message)

    async def _meal_cancelled(self, _parent_id: int, result: Any, lang: str) -> Any:
        """One message where the meal was (issue 20): "Meal cancelled — $4.52 refund on its
        way"; the meal stays in view, marked cancelled, with its order's link. No toast: it
        only repeated the message (and "Order Cancelled" said more than happened)."""
        self.status = "cancelled"
        self.message = meal_cancelled_text(result, lang)
        self.meal = {**self.meal, "can_change": "", "cancelled": "1"}
        self.dates = []
        self._clear_reason()
        return rx.toast.dismiss()

    # ---- move to another day ----------------------------------------------------------------
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
    async def confirm_move(self):
        async with self:
            lang = (await self.get_state(I18nState)).lang
            if self.busy or self._page != "confirm" or not self.target:
                self.turn += 1
                return
            who = await acting_parent(self)
            if who is None:
                self.turn += 1
            else:
                card = _int(self.card_choice) or None
                save = self.save_card and card is None
                line_id, new_date = self._id, self._date
                self.busy = True
                self.status, self.message = "confirming", tr("ui.change.confirming", lang)
                key = submission_key(self, ["modify_meal", self._id, self._date])
        if who is None:
            yield session_expired(lang)
            return
        try:
            # Same vendor, open day, both cut-offs ahead, the same meal served: the service's
            # rules; a difference is refunded or paid (card or Lightbox), once per key.
            result = await changes.modify_meal(
                parent_id=who.parent_id,
                order_line_id=line_id,
                new_date=new_date,
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
            return
        if result.status == "pay" and result.hosted is not None:
            async with self:
                self._payment_id = int(result.payment_id or 0)
                self.status, self.message = "paying", result.message
            yield rx.call_script(
                lightbox_script(result.hosted.lightbox_url, result.hosted.token, lang),
                callback=ManageMealState.lightbox_closed,
            )
            return
        async with self:
            events = await self._finish(who.parent_id, result, lang)
        for event in events:
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
        try:
            result = await settle_lightbox(who.parent_id, payment_id, _result(value), lang)
        except DomainError as err:
            async with self:
                self._settling = False
                self.busy = False
                self.turn += 1
                self.status, self.message = "error", message(err, lang)
            return
        async with self:
            self._settling = False
            events = await self._finish(who.parent_id, result, lang)
        for event in events:
            yield event

    async def _finish(self, parent_id: int, result: changes.ChangeResult, lang: str) -> list:
        self.busy = False
        self.turn += 1
        self.status, self.message = result_status(result), result.message
        if result.status in ("applied", "declined", "dropped"):
            forget_submission(self)
        if result.status == "applied":
            await self._fill(parent_id, lang)
            self.missing = ""
            return succeeded(result.message)
        return []
