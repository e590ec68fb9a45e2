"""States of the order history (/edit-profile/order-history) and the order details
(/edit-profile/order-details?id=N), and the details' 'Add to cancel cart'.

Thin callers of ``hotmeals.services.ordering`` (queries: order_history, order_detail;
cancel_order, cancel_cart: cancel_reasons, cancel_order, add_to_cancel_cart). The
parent is ``acting_parent(self)`` on every call; every id from the browser must be one shown
on screen, and the services check that it is the parent's (another parent's order or line is
'No data found'). Cut-offs, quantities, reasons and refunds are the services' rules.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import reflex as rx

from hotmeals.domain.credit import RefundSplit
from hotmeals.domain.dates import full_day_or_text
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.i18n import t as tr
from hotmeals.i18n import tn
from hotmeals.services.ordering import queries as order_service
from hotmeals.services.ordering.cancelling import cancel_cart, cancel_order
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.screens.cart.state import long_date
from hotmeals.ui.screens.standing_orders.state import weekday_of
from hotmeals.ui.shared_state.auth import acting_parent, sync_cancel_count
from hotmeals.ui.shared_state.cancel_reason import CancelReasonForm
from hotmeals.ui.shared_state.forms import confirm_once, message
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.ids import browser_id, query_id
from hotmeals.ui.shared_state.screens import DETAILS_ROUTE as DETAILS_ROUTE  # for the pages' routes
from hotmeals.ui.shared_state.screens import (
    MealChoices,
    OrderedMeal,
    OrderLink,
    RelangScreen,
    order_details_href,
)
from hotmeals.ui.shared_state.steps import history_replace_script
from hotmeals.ui.shared_state.toasts import succeeded

HISTORY_ROUTE = "/edit-profile/order-history"
CANCEL_CART_ROUTE = "/edit-profile/cancel-cart"
MODIFY_ROUTE = "/edit-profile/modify-order"
MANAGE_ROUTE = "/edit-profile/manage-meal-details"
TABS = ("future", "past")


# The order's charges shown whatever their amount (the others only when not zero).
ORDER_CHARGES_ALWAYS = ("meal_net_cents", "tax_cents", "total_pay_cents", "total_refund_cents")


@dataclass
class HistoryRow(OrderLink):
    status: str = ""
    status_label: str = ""
    dates: str = ""
    ordered_on: str = ""
    meal_count: str = ""  # the meals still booked, and how many were cancelled: "2 (1 cancelled)"
    total: str = ""
    refunded: str = ""
    has_refund: bool = False
    view_label: str = ""
    children: str = ""  # whose meals: "Emma, Lucas"
    meals: str = ""  # which: "Beef Burger · Baked Mac and Cheese"


@dataclass
class DetailLine(OrderedMeal, MealChoices):
    line_id: str = ""
    cancelled: int = 0
    cancelled_text: str = ""  # "2 cancelled" / "2 annulés" (CLDR plural)
    active: int = 0
    state: str = ""
    state_label: str = ""
    moved_from: str = ""
    can_cancel: bool = False
    manage_href: str = ""
    repeat_label: str = ""  # "Repeat every Monday" (a standing order); "" on a cancelled line


@dataclass
class ChargeRow:
    name: str = ""
    label: str = ""
    amount: str = ""


@dataclass
class RefundRow:
    refund_id: str = ""
    amount: str = ""
    date: str = ""
    state_label: str = ""


def items_text(active: int, total: int, lang: str) -> str:
    """A card's meals: those still booked, and the cancelled ones beside them (never counted
    as items): "2", "2 (1 cancelled)", "0 (3 annulés)"."""
    cancelled = total - active
    if cancelled <= 0:
        return str(active)
    return f"{active} ({tn('orders_ui.cancelled_of', cancelled, lang)})"


def history_rows(history: order_service.OrderHistory, lang: str) -> list[HistoryRow]:
    return [
        HistoryRow(
            order_id=str(o.order_id),
            number=o.number,
            href=order_details_href(o.order_id),
            status=o.status,
            status_label=o.status_label,
            dates=" · ".join(o.delivery_dates_label),
            ordered_on=o.ordered_on_label,
            meal_count=items_text(o.active_items, o.total_items, lang),
            total=format_money(o.total_pay_cents, lang),
            refunded=format_money(o.total_refund_cents, lang),
            has_refund=o.total_refund_cents > 0,
            view_label=tr("orders_ui.view_label", lang, number=o.number),
            children=", ".join(o.children),
            meals=" · ".join(o.meals),
        )
        for o in history.orders
    ]


def detail_lines(order: order_service.OrderDetail, lang: str = "en") -> list[DetailLine]:
    out = []
    for x in order.lines:
        weekday = weekday_of(x.date.isoformat(), lang)
        out.append(
            DetailLine(
                size_label=x.size_label,
                menu_option=x.menu_option,
                meal_option=x.meal_option,
                addons=", ".join(
                    f"{a.name} (+{format_money(a.price_cents, lang)})" for a in x.addons
                ),
                note=x.special_note,
                child=x.child_name,
                day=x.day,
                meal=x.meal_name,
                quantity=x.quantity,
                price=format_money(x.line_total_cents, lang),
                line_id=str(x.order_line_id),
                cancelled=x.cancelled_quantity,
                cancelled_text=tn("orders_ui.cancelled_of", x.cancelled_quantity, lang),
                active=x.active_quantity,
                state=x.state,
                state_label=x.state_label,
                moved_from=full_day_or_text(x.moved_from.isoformat(), lang) if x.moved_from else "",
                can_cancel=x.can_cancel,
                manage_href=f"{MANAGE_ROUTE}?id={x.order_line_id}",
                repeat_label=tr("standing_ui.repeat", lang, weekday=weekday)
                if weekday and x.state != "cancelled"
                else "",
            )
        )
    return out


class OrderHistoryState(RelangScreen, rx.State):
    """/edit-profile/order-history: the Future and Past tabs."""

    tab: str = "future"
    rows: list[HistoryRow] = []
    empty_message: str = ""

    async def _load(self) -> None:
        lang = (await self.get_state(I18nState)).lang
        who = await acting_parent(self)
        if who is None:
            self.rows, self.loaded = [], False
            return
        answer = await run_in_transaction(
            order_service.order_history, parent_id=who.parent_id, tab=self.tab, lang=lang
        )
        self.rows = history_rows(answer, lang)
        self.empty_message = "" if answer.orders else tr("no_data_found", lang)
        self.loaded = True
        self._lang = lang

    @rx.event
    async def load(self) -> None:
        wanted = self.router.url.query_parameters.get("tab")
        self.tab = wanted if wanted in TABS else "future"
        self.loaded = False
        await self._load()

    @rx.event
    async def set_tab(self, tab: str) -> AsyncIterator[Any]:
        """The tab shown, and in the address (``?tab=``, the entry replaced): a reload, or
        Back from an order opened from it, shows the same tab (``load`` reads it)."""
        if tab not in TABS or tab == self.tab:
            return
        self.tab = tab
        self.loaded = False
        yield rx.call_script(history_replace_script(f"{HISTORY_ROUTE}?tab={tab}"))
        await self._load()


class OrderDetailState(CancelReasonForm, rx.State):
    """/edit-profile/order-details?id=N: the order's lines and charges, 'Add to cancel cart'
    per line and 'Cancel order' (a reason, then 'Are you sure?')."""

    order_id: str = ""
    number: str = ""
    title: str = ""
    status: str = ""
    status_label: str = ""
    ordered_on: str = ""
    lines: list[DetailLine] = []
    charges: list[ChargeRow] = []
    refunds: list[RefundRow] = []
    voided_notes: list[str] = []  # charges that did not pay for this order, with their void
    total_refund: str = ""
    can_cancel: bool = False
    missing: str = ""  # 'No data found' for a missing or another parent's order
    modify_href: str = ""

    # Add to cancel cart
    add_open: bool = False
    add_line: str = ""
    add_name: str = ""
    add_max: int = 1
    add_qty: int = 1
    adding: bool = False

    # Cancel the whole order (the reason form: CancelReasonForm)
    sure_text: str = ""
    cancelling: bool = False
    turn: int = 0

    _id: int = 0
    _quantities: dict[str, int] = {}

    @rx.var
    def add_choices(self) -> list[str]:
        return [str(n) for n in range(1, max(self.add_max, 1) + 1)]

    # ---- private ------------------------------------------------------------------------
    async def _fill(self, parent_id: int, lang: str) -> None:
        try:
            answer = await run_in_transaction(
                order_service.order_detail, parent_id=parent_id, order_id=self._id, lang=lang
            )
        except DomainError as err:
            self.missing = message(err, lang)
            self.lines, self.charges, self.refunds = [], [], []
            self.voided_notes = []
            self.loaded = True
            self._lang = lang
            return
        self.missing = ""
        self.order_id = str(answer.order_id)
        self.number = answer.number
        self.title = tr("orders_ui.details_title", lang, number=answer.number)
        self.status = answer.status
        self.status_label = answer.status_label

        self.ordered_on = long_date(answer.ordered_on.isoformat(), lang)
        self.lines = detail_lines(answer, lang)
        self._quantities = {x.line_id: x.active for x in self.lines if x.can_cancel}
        # Only the charges that apply: no $0.00 discount, fee or donation line.
        self.charges = [
            ChargeRow(name=c.name, label=c.label, amount=format_money(c.cents, lang))
            for c in answer.charges
            if c.cents or c.name in ORDER_CHARGES_ALWAYS
        ]
        self.refunds = [
            RefundRow(
                refund_id=str(r.refund_id),
                amount=format_money(r.amount_cents, lang),
                date=r.date_label,
                state_label=r.state_label,
            )
            for r in answer.refunds
        ]
        self.voided_notes = [
            tr(
                "orders_after.voided_attempt",
                lang,
                amount=format_money(v.amount_cents, lang),
                day=v.date_label,
                state=v.state_label,
            )
            for v in answer.voided_attempts
        ]
        self.total_refund = format_money(answer.total_refund_cents, lang)
        self.can_cancel = answer.can_cancel
        self.modify_href = f"{MODIFY_ROUTE}?id={self._id}"
        self.sure_text = tr("orders_ui.sure_order", lang, number=answer.number)
        await self._load_reasons(parent_id, lang)
        self.loaded = True
        self._lang = lang

    # ---- loading ------------------------------------------------------------------------
    @rx.event
    async def load(self) -> None:
        lang = (await self.get_state(I18nState)).lang
        self.loaded = False
        self.add_open = self.adding = self.cancelling = False
        self._clear_reason()
        self._open_anew()
        self.number = self.title = ""
        self._id = query_id(self)
        if not await self._fill_acting(lang):
            self.lines, self.loaded = [], False

    @rx.event
    async def relang(self) -> None:
        await self._relang()

    # ---- add to cancel cart -------------------------------------------------------------
    @rx.event
    def ask_add(self, line_id: str) -> None:
        line_id = str(line_id)
        line = next((x for x in self.lines if x.line_id == line_id and x.can_cancel), None)
        if line is None:
            return
        self.add_line, self.add_name = line_id, line.meal
        self.add_max = max(line.active, 1)
        self.add_qty = 1
        self.add_open = True

    @rx.event
    def set_add_open(self, value: bool) -> None:
        if not self.adding:
            self.add_open = bool(value)

    @rx.event
    def set_add_qty(self, value: str) -> None:
        number = browser_id(value) or 1
        self.add_qty = min(number, max(self.add_max, 1))

    @rx.event
    async def confirm_add(self) -> AsyncIterator[Any]:
        async for event in confirm_once(
            self,
            busy="adding",
            ready=self.add_line in self._quantities,
            dialog="add_open",
            act=self._add_to_cancel_cart,
            done=self._added_to_cancel_cart,
        ):
            yield event

    async def _add_to_cancel_cart(
        self, parent_id: int, _key: str, lang: str
    ) -> cancel_cart.CancelCartItem:
        # The service checks the line is the parent's, still active and before its cut-off,
        # and the quantity within what is left; a repeat sets the same quantity again.
        return await run_in_transaction(
            cancel_cart.add_to_cancel_cart,
            parent_id=parent_id,
            order_line_id=int(self.add_line),
            quantity=int(self.add_qty),
            lang=lang,
        )

    async def _added_to_cancel_cart(
        self, _parent_id: int, answer: cancel_cart.CancelCartItem, lang: str
    ) -> Any:
        await sync_cancel_count(self, answer.cancel_cart_count)
        return succeeded(tr("orders_after.added_to_cancel_cart", lang))

    # ---- cancel the whole order ---------------------------------------------------------
    def _confirm_busy(self) -> bool:
        return self.cancelling

    async def _refund_ahead(self, parent_id: int) -> RefundSplit | None:
        return await run_in_transaction(
            cancel_order.refund_preview,
            parent_id=parent_id,
            order_id=self._id,
            refund_to=self.refund_to,
        )

    @rx.event
    async def ask_cancel_order(self) -> Any:
        """'Cancel order': a reason first (the Other one with its text), then 'Are you sure?'."""
        return await self._ask_sure(ready=self.can_cancel)

    @rx.event(background=True)
    async def confirm_cancel_order(self) -> AsyncIterator[Any]:
        async for event in self._confirm_cancel(
            busy="cancelling",
            ready=lambda: bool(self._id),
            once=lambda: self._reason_once("cancel_order", self._id),
            act=self._cancel_order,
            done=self._cancelled,
        ):
            yield event

    async def _cancel_order(self, parent_id: int, key: str, lang: str) -> Any:
        # The service checks the order is the parent's, every remaining meal before its
        # cut-off, the reason; repeat-safe by the key (a double tap refunds once).
        return await cancel_order.cancel_order(
            order_id=self._id, **self._cancel_args(parent_id, key, lang)
        )
