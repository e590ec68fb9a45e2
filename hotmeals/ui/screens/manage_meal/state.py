"""State of the manage-one-meal screens:
/edit-profile/manage-meal-details (the upcoming meals; with ?id=<order line> one meal: cancel
it, or pick another day) and /edit-profile/manage-meal-details/manage-confirm-order
(?id=<order line>&date=<day>: confirm the move; a difference to pay is paid with a saved card
or in the Lightbox, one to refund goes back to the card: ``ChangePayment``).

Thin callers of ``hotmeals.services.ordering.changing.move`` (get_meals_list, meal_order_detail,
get_dates_for_modify_meal, modify_meal) and ``hotmeals.services.ordering.cancelling.cancel_order``
(cancel_reasons, cancel_meal). The parent is ``acting_parent(self)`` on every call; the ids
come from the address and are checked by the services against that parent (another parent's
line is 'not found').
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from functools import partial
from typing import Any

import reflex as rx

from hotmeals.domain.credit import RefundSplit
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.i18n import t as tr
from hotmeals.services.ordering.cancelling import cancel_order as cancellations
from hotmeals.services.ordering.cancelling.cancel_order import CancelResult
from hotmeals.services.ordering.changing import move as changes
from hotmeals.services.ordering.changing.change_plan import quote_text
from hotmeals.services.ordering.changing.change_result import ChangeResult
from hotmeals.services.ordering.changing.move import MealView
from hotmeals.services.ordering.labels import order_day
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import ActingParent, acting_parent
from hotmeals.ui.shared_state.cancel_reason import CancelReasonForm, cancelled_notice
from hotmeals.ui.shared_state.change_payment import ChangePayment
from hotmeals.ui.shared_state.forms import forget_submission, message, submission_key
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.ids import browser_id, query_id
from hotmeals.ui.shared_state.screens import order_details_href
from hotmeals.ui.shared_state.toasts import failed

MANAGE_ROUTE = "/edit-profile/manage-meal-details"
CONFIRM_MOVE_ROUTE = "/edit-profile/manage-meal-details/manage-confirm-order"


def _meal_row(meal: MealView, lang: str) -> dict[str, str]:
    extras = [meal.menu_option or "", meal.meal_option or "", *meal.addons]
    return {
        "id": str(meal.order_line_id),
        "child": meal.child_name,
        "day": order_day(meal.meal_date, lang),
        "name": meal.name,
        "order_id": str(meal.order_id),
        "number": meal.order_number,
        "date": meal.meal_date.isoformat(),
        "size": meal.size_label or "",
        "extras": ", ".join(x for x in extras if x),
        "note": meal.special_note,
        "quantity": str(meal.quantity),
        "price": format_money(meal.price_cents, lang),
        "vendor": meal.vendor or "",
        "moved": "1" if meal.status == "moved" else "",
        "cancelled": "1" if meal.status == "cancelled" else "",
        "can_change": "1" if meal.can_change else "",
        "href": f"{MANAGE_ROUTE}?id={meal.order_line_id}",
    }


def meal_cancelled_text(result: CancelResult, lang: str) -> str:
    """What a parent reads once one meal is cancelled: "Meal cancelled." and the cancel's
    refund notice (how much, where: the card, family credit or both, and when; or none due;
    or that Converge refused it and what next), the sentence every cancel door answers."""
    return f"{tr('ui.manage.meal_cancelled', lang)}. {cancelled_notice(result, lang)}"


class ManageMealState(CancelReasonForm, ChangePayment, rx.State):
    """/edit-profile/manage-meal-details[?id=N] and /manage-confirm-order?id=N&date=D."""

    missing: str = ""
    meals: list[dict[str, str]] = []
    meal: dict[str, str] = {}
    dates: list[dict[str, str]] = []
    dates_note: str = ""  # the cut-off passed, or no other day
    target: dict[str, str] = {}  # the confirm screen's day
    quote: str = ""  # the confirm screen's price difference (ordering.move.quote_move)
    # status (ChangePayment): "", paying, confirming, done, cancelled, pending, declined,
    # dropped, error
    order_link: str = ""
    back_link: str = MANAGE_ROUTE
    view: str = "list"  # list, meal, confirm

    _id: int = 0
    _date: str = ""
    _page: str = ""  # list, meal, confirm

    @rx.var
    def finished(self) -> bool:
        return self.status in ("done", "cancelled")

    async def _fill(self, parent_id: int, lang: str) -> None:
        self._lang = lang
        self.missing = ""
        if self._page == "list":
            rows = await run_in_transaction(changes.get_meals_list, parent_id=parent_id, lang=lang)
            self.meals = [_meal_row(m, lang) for m in rows]
            return
        try:
            found = await run_in_transaction(
                changes.meal_order_detail, parent_id=parent_id, order_line_id=self._id, lang=lang
            )
        except DomainError as err:
            self.missing, self.meal, self.dates = message(err, lang), {}, []
            return
        self.meal = _meal_row(found, lang)
        self.order_link = order_details_href(found.order_id)
        try:
            days = await run_in_transaction(
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
                    "date": d.meal_date.isoformat(),
                    "day": order_day(d.meal_date, lang),
                    "href": f"{CONFIRM_MOVE_ROUTE}?id={self._id}&date={d.meal_date.isoformat()}",
                }
                for d in days.dates
                if d.meal_served
            ]
            self.dates_note = "" if self.dates else tr("ui.manage.no_dates", lang)
        if self._page == "confirm":
            self.target = next((d for d in self.dates if d["date"] == self._date), {})
            if not self.target and not self.finished:
                self.missing = self.dates_note or tr("ui.manage.date_unavailable", lang)
            self.quote = ""
            if self.target and not self.finished:
                try:
                    quoted = await run_in_transaction(
                        changes.quote_move,
                        parent_id=parent_id,
                        order_line_id=self._id,
                        new_date=self._date,
                        lang=lang,
                    )
                except DomainError as err:
                    self.quote = message(err, lang)
                else:
                    self.quote = quote_text(quoted.difference_cents, lang)
            await self._load_cards(parent_id, lang)
        else:
            await self._load_reasons(parent_id, lang)

    async def _load(self, page: str) -> None:
        lang = (await self.get_state(I18nState)).lang
        if self.busy:
            return None
        self._id = query_id(self)
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
    async def load(self) -> Any:
        """on_load of /manage-meal-details: the list, or one meal with ?id=."""
        return await self._load("meal")

    @rx.event
    async def load_confirm(self) -> Any:
        """on_load of /manage-confirm-order?id=&date=."""
        return await self._load("confirm")

    @rx.event
    async def relang(self) -> None:
        await self._relang(ready=not self.busy)

    # ---- cancel this meal -------------------------------------------------------------------
    def _confirm_busy(self) -> bool:
        return self.busy

    @rx.event
    async def ask_cancel(self) -> Any:
        """'Cancel this meal': a reason first (Other with its text), then 'Are you sure?'."""
        return await self._ask_sure(
            ready=not self.busy and bool(self.meal) and self._page == "meal"
        )

    @rx.event(background=True)
    async def confirm_cancel(self) -> AsyncIterator[Any]:
        async for event in self._confirm_cancel(
            busy="busy",
            ready=lambda: bool(self._id and self.meal and self._page == "meal"),
            once=lambda: self._reason_once("cancel_meal", self._id),
            act=self._cancel_meal,
            done=self._meal_cancelled,
            refused=self._cancel_refused,
        ):
            yield event

    async def _cancel_meal(self, parent_id: int, key: str, lang: str) -> Any:
        # The service checks the line is the parent's, before its cut-off, the reason, and
        # refunds once whatever the number of taps (the key).
        return await cancellations.cancel_meal(
            order_line_id=self._id, **self._cancel_args(parent_id, key, lang)
        )

    async def _refund_ahead(self, parent_id: int) -> RefundSplit | None:
        return await run_in_transaction(
            cancellations.refund_preview,
            parent_id=parent_id,
            order_id=browser_id(self.meal.get("order_id", "")),
            order_line_id=self._id,
            refund_to=self.refund_to,
        )

    def _cancel_refused(self, err: DomainError, lang: str) -> Any:
        self.status, self.message = "error", message(err, lang)
        return failed(self.message)

    async def _meal_cancelled(self, _parent_id: int, result: Any, lang: str) -> Any:
        """One message where the meal was ("Meal cancelled. A refund of $4.52 will go back
        to your card…"); the meal stays in view, marked cancelled, with its order's link. No
        toast: it only repeated the message (and "Order Cancelled" said more than happened)."""
        self.status = "cancelled"
        self.message = meal_cancelled_text(result, lang)
        self.meal = {**self.meal, "can_change": "", "cancelled": "1"}
        self.dates = []
        self._clear_reason()
        return rx.toast.dismiss()

    # ---- move to another day: ChangePayment's pay -----------------------------------------
    def _ready(self) -> bool:
        return self._page == "confirm" and bool(self.target)

    def _change_call(self, card_id: int | None, save_card: bool) -> partial:
        # Same vendor, open day, both cut-offs ahead, the same meal served: the service's
        # rules; a difference is refunded or paid (card or Lightbox), once per key.
        return partial(
            changes.modify_meal,
            order_line_id=self._id,
            new_date=self._date,
            request_key=submission_key(self, ["modify_meal", self._id, self._date]),
            card_id=card_id,
            save_card=save_card,
        )

    async def _changed(self, who: ActingParent, result: ChangeResult, lang: str) -> None:
        if result.status == "applied":
            await self._fill(who.parent_id, lang)
            self.missing = ""
