"""State of /edit-profile/modify-order?id=N and its /add-item step.

Thin callers of ``hotmeals.services.ordering.changing.modify``: ``modify_order_info`` (the
order's lines, the draft's steps and the difference), ``delete_from_modify_order`` (remove a
line's meals or take a step back), ``add_to_my_order`` (through the Book meal dialog,
``BookingState`` with its ``_order_id`` set by ``load_add_item``), ``modify_confirm_order``
(a decrease applied and refunded, an increase paid with a saved card or in the Lightbox:
``ChangePayment``). The parent is ``acting_parent(self)`` on every call; an id from the
browser must be one shown on screen, and the services check it is the parent's.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import reflex as rx

from hotmeals.domain.dates import long_day
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.i18n import t as tr
from hotmeals.services.ordering.changing import modify as changes
from hotmeals.services.ordering.changing.change_plan import quote_text
from hotmeals.services.ordering.changing.change_result import ChangeResult
from hotmeals.services.ordering.changing.modify import AddedMeal, ModifyInfo, ModifyLine
from hotmeals.services.ordering.labels import order_day
from hotmeals.services.payments.credit_pay import credit_line_label
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.screens.book_meal.meal_dialog_state import aim_at_order
from hotmeals.ui.screens.book_meal.state import BookingState
from hotmeals.ui.shared_state.auth import ActingParent, acting_parent, session_expired
from hotmeals.ui.shared_state.card_choice import card_options
from hotmeals.ui.shared_state.change_payment import ChangePayment
from hotmeals.ui.shared_state.forms import message, submission_key
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.ids import browser_id, query_id
from hotmeals.ui.shared_state.screens import LoadedScreen, new_language_for, order_details_href
from hotmeals.ui.shared_state.toasts import failed

MODIFY_ROUTE = "/edit-profile/modify-order"
ADD_ITEM_ROUTE = "/edit-profile/modify-order/add-item"
MODIFY_MEAL_ROUTE = "/edit-profile/modify-meal-details"


def _line_row(line: ModifyLine, lang: str) -> dict[str, str]:
    return {
        "id": str(line.order_line_id),
        "child": line.child_name,
        "day": order_day(line.meal_date, lang),
        "name": line.name,
        "size": line.size or "",
        "quantity": str(line.active_quantity or line.delivered_quantity),
        "removing": str(line.remove_quantity or ""),
        "undo": str(line.remove_steps[-1]) if line.remove_steps else "",
        "price": format_money(line.price_cents, lang),
        "status": line.status,
        "can_remove": "1"
        if line.can_change and line.active_quantity > line.remove_quantity
        else "",
    }


def _added_row(step: AddedMeal, lang: str) -> dict[str, str]:
    return {
        "id": str(step.change_line_id),
        "name": step.name,
        "day": long_day(step.meal_date, lang) if step.meal_date else "",
        "quantity": str(step.quantity),
        "price": format_money(step.price_cents, lang),
        "problem": step.problem,
    }


class ModifyOrderState(ChangePayment, LoadedScreen, rx.State):
    """/edit-profile/modify-order?id=N."""

    missing: str = ""  # 'No data found' and the like: the id is not one of who's orders
    number: str = ""
    lines: list[dict[str, str]] = []
    added: list[dict[str, str]] = []
    has_changes: bool = False
    can_confirm: bool = False
    new_total: str = ""
    to_pay_cents: int = 0
    difference: str = ""  # the service's 'You will pay $x more.' / '$x will be refunded...'
    # 'Family credit −$x.xx' and 'To pay by card $y.yy' when credit pays some of an increase
    credit_lines: list[dict[str, str]] = []
    # status (ChangePayment): "", paying, confirming, done, pending, declined, dropped, error
    order_link: str = ""
    add_link: str = ""

    _id: int = 0

    def _fill(self, info: ModifyInfo, lang: str) -> None:
        quote = info.quote
        self.number = info.number
        self.lines = [_line_row(x, lang) for x in info.lines]
        self.added = [_added_row(x, lang) for x in info.added]
        self.has_changes = info.has_changes
        self.can_confirm = self.has_changes and not info.problems
        self.new_total = format_money(quote.charges.total_pay_cents, lang)
        self.to_pay_cents = quote.to_pay_cents
        self.difference = quote_text(quote.difference_cents, lang) if self.has_changes else ""
        self.credit_lines = [
            {
                "name": line.name,
                "label": credit_line_label(line, lang),
                "amount": format_money(line.cents, lang),
            }
            for line in quote.credit_lines
        ]

    async def _info(self, parent_id: int, lang: str) -> None:
        self._lang = lang
        try:
            info = await run_in_transaction(
                changes.modify_order_info, parent_id=parent_id, order_id=self._id, lang=lang
            )
        except DomainError as err:
            self.missing = message(err, lang)
            self.lines, self.added, self.has_changes, self.can_confirm = [], [], False, False
            return
        self.missing = ""
        self._fill(info, lang)

    @rx.event
    async def load(self) -> None:
        lang = (await self.get_state(I18nState)).lang
        if self.busy:
            return  # a payment in flight on this tab: keep its screen
        self._id = query_id(self)
        self.status = self.message = ""
        self.loaded = False
        self.order_link = order_details_href(self._id)
        self.add_link = f"{ADD_ITEM_ROUTE}?id={self._id}"
        who = await acting_parent(self)
        if who is None:
            return
        self._lang = lang
        if not self._id:
            self.missing = tr("ui.common.no_data", lang)
        else:
            await self._info(who.parent_id, lang)
        await self._load_cards(who.parent_id, lang)
        self.loaded = True

    @rx.event
    async def relang(self) -> None:
        found = await new_language_for(self, ready=not self.busy and bool(self._id))
        if found is None:
            return
        who, lang = found
        self._lang = lang
        await self._info(who.parent_id, lang)
        self.cards = await card_options(who.parent_id, lang)

    async def _step(self, lang: str, **kwargs: Any) -> Any:
        who = await acting_parent(self)
        if who is None:
            return session_expired(lang)
        try:
            info = await run_in_transaction(
                changes.delete_from_modify_order,
                parent_id=who.parent_id,
                order_id=self._id,
                lang=lang,
                **kwargs,
            )
        except DomainError as err:
            await self._info(who.parent_id, lang)
            return failed(message(err, lang))
        self._fill(info, lang)
        self.status = self.message = ""
        return None

    @rx.event
    async def remove(self, line_id: str) -> Any:
        """Remove a line's remaining meals (only a line on screen that can still change)."""
        lang = (await self.get_state(I18nState)).lang
        if self.busy or not any(x["id"] == str(line_id) and x["can_remove"] for x in self.lines):
            return None
        return await self._step(lang, order_line_id=browser_id(line_id))

    @rx.event
    async def undo(self, step_id: str) -> Any:
        """Take back a step of the draft: a removal or an added meal shown on screen."""
        lang = (await self.get_state(I18nState)).lang
        shown = {x["undo"] for x in self.lines} | {x["id"] for x in self.added}
        if self.busy or not str(step_id) or str(step_id) not in shown:
            return None
        return await self._step(lang, change_line_id=browser_id(step_id))

    # ---- confirm: ChangePayment's pay ---------------------------------------------------
    def _ready(self) -> bool:
        return bool(self._id and self.can_confirm)

    def _change_call(self, card_id: int | None, save_card: bool) -> partial:
        if self.to_pay_cents <= 0:
            card_id, save_card = None, self.save_card  # nothing to pay: no card is charged
        key = submission_key(
            self, ["modify_confirm", self._id, [x["id"] for x in self.added], self.difference]
        )
        return partial(
            changes.modify_confirm_order,
            order_id=self._id,
            request_key=key,
            card_id=card_id,
            save_card=save_card,
        )

    async def _refused(self, who: ActingParent, err: DomainError, lang: str) -> None:
        await ChangePayment._refused(self, who, err, lang)
        await self._info(who.parent_id, lang)

    async def _changed(self, who: ActingParent, result: ChangeResult, lang: str) -> None:
        await self._info(who.parent_id, lang)

    @rx.event
    async def load_add_item(self) -> None:
        """on_load of /add-item (after ``BookingState.load``): the Book meal dialog adds to
        this order's draft. The order must be who's (``modify_order_info`` says so)."""
        lang = (await self.get_state(I18nState)).lang
        booking = await self.get_state(BookingState)
        aim_at_order(booking, 0, "")
        self._id = query_id(self)
        self.order_link = f"{MODIFY_ROUTE}?id={self._id}"
        who = await acting_parent(self)
        if who is None or not self._id:
            self.missing = tr("ui.common.no_data", lang)
            return
        await self._info(who.parent_id, lang)
        if not self.missing:
            aim_at_order(booking, self._id, self.number)
