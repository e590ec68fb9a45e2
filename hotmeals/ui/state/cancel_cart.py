"""State of the cancel cart (/edit-profile/cancel-cart): issue 10, screen 3.

Thin caller of ``hotmeals.services.cancellations``: cancel_cart_details (the lines by order,
each order's refund from the terms it was sold on), update_cancel_cart_quantity,
delete_cancel_cart_item, cancel_reasons and confirm_cancel_cart (one cancellation and one
refund per order, repeat-safe by the request key). The parent is ``acting_parent(self)`` on
every call; a cancel-cart id must be one on screen, and the service checks it is the parent's.
The header's Cancel Cart count follows every change (``orders.sync_cancel_count``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import reflex as rx

from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.services import cancellations
from hotmeals.services import orders as order_service
from hotmeals.ui.state.auth import acting_parent, session_expired
from hotmeals.ui.state.base import call_service
from hotmeals.ui.state.forms import forget_submission, message, submission_key
from hotmeals.ui.state.i18n import I18nState
from hotmeals.ui.state.orders import DETAILS_ROUTE, ReasonOption, reason_options, sync_cancel_count
from hotmeals.ui.state.toasts import failed, succeeded


@dataclass
class CancelLineView:
    cart_id: str = ""
    child: str = ""
    day: str = ""
    meal: str = ""
    size_label: str = ""
    quantity: int = 1
    max_quantity: int = 0
    price: str = ""
    cancellable: bool = True
    reason: str = ""


@dataclass
class CancelGroupView:
    order_id: str = ""
    number: str = ""
    href: str = ""
    refund: str = ""
    lines: list[CancelLineView] = field(default_factory=list)


def group_views(answer: dict) -> list[CancelGroupView]:
    groups = []
    for g in answer.get("orders", []):
        groups.append(
            CancelGroupView(
                order_id=str(g["order_id"]),
                number=str(g["number"]),
                href=f"{DETAILS_ROUTE}?id={int(g['order_id'])}",
                refund=str(g["refund"]),
                lines=[
                    CancelLineView(
                        cart_id=str(x["cancel_cart_id"]),
                        child=str(x["child_name"]),
                        day=str(x["day"]),
                        meal=str(x["meal_name"]),
                        size_label=str(x["size_label"]),
                        quantity=int(x["quantity"]),
                        max_quantity=int(x["max_quantity"]),
                        price=str(x["line_total"]),
                        cancellable=bool(x["cancellable"]),
                        reason=str(x.get("reason") or ""),
                    )
                    for x in g["lines"]
                ],
            )
        )
    return groups


class CancelCartState(rx.State):
    groups: list[CancelGroupView] = []
    count: int = 0
    total_refund: str = ""
    empty_message: str = ""
    loaded: bool = False
    busy_line: str = ""
    reasons: list[ReasonOption] = []
    reason_id: str = ""
    other_text: str = ""
    reason_error: str = ""
    other_error: str = ""
    sure_open: bool = False
    confirming: bool = False
    done_title: str = ""
    done_message: str = ""
    turn: int = 0

    _once_key: str = ""
    _once_digest: str = ""
    _lines: dict[str, tuple[int, int]] = {}  # cart id -> (quantity, most)
    _lang: str = ""

    @rx.var
    def other_chosen(self) -> bool:
        return any(r.is_other and r.id == self.reason_id for r in self.reasons)

    @rx.var
    def is_empty(self) -> bool:
        return self.loaded and self.count == 0

    async def _fill(self, parent_id: int, lang: str) -> None:
        answer = await call_service(
            cancellations.cancel_cart_details, parent_id=parent_id, lang=lang
        )
        self.groups = group_views(answer)
        self._lines = {
            x.cart_id: (x.quantity, x.max_quantity) for g in self.groups for x in g.lines
        }
        self.count = int(answer["count"])
        self.total_refund = str(answer["total_refund"])
        self.empty_message = str(answer.get("message") or "")
        self.reasons = reason_options(await call_service(cancellations.cancel_reasons, lang=lang))
        self.loaded = True
        self._lang = lang
        await sync_cancel_count(self, self.count)

    @rx.event
    async def load(self):
        lang = (await self.get_state(I18nState)).lang
        self.loaded = False
        self.busy_line = ""
        self.sure_open = self.confirming = False
        self.reason_error = self.other_error = ""
        self.done_title = self.done_message = ""
        forget_submission(self)
        who = await acting_parent(self)
        if who is None:
            self.groups = []
            return
        await self._fill(who.parent_id, lang)

    @rx.event
    async def relang(self):
        lang = (await self.get_state(I18nState)).lang
        if not self.loaded or lang == self._lang:
            return
        who = await acting_parent(self)
        if who is not None:
            await self._fill(who.parent_id, lang)

    @rx.event
    async def change_quantity(self, cart_id: str, delta: int):
        lang = (await self.get_state(I18nState)).lang
        cart_id = str(cart_id)
        try:
            step = 1 if int(delta) > 0 else -1
        except (TypeError, ValueError):
            step = 0
        quantity, most = self._lines.get(cart_id, (0, 0))
        wanted = quantity + step
        if self.busy_line or step == 0 or not 1 <= wanted <= most:
            self.turn += 1
            return
        who = await acting_parent(self)
        if who is None:
            self.turn += 1
            yield session_expired(lang)
            return
        self.busy_line = cart_id
        yield
        try:
            await call_service(
                cancellations.update_cancel_cart_quantity,
                parent_id=who.parent_id,
                cancel_cart_id=int(cart_id),
                quantity=wanted,
                lang=lang,
            )
        except DomainError as err:
            self.busy_line = ""
            self.turn += 1
            yield failed(message(err, lang))
            return
        await self._fill(who.parent_id, lang)
        self.busy_line = ""
        self.turn += 1
        yield succeeded(tr("orders_after.cancel_cart_updated", lang))

    @rx.event
    async def remove(self, cart_id: str):
        lang = (await self.get_state(I18nState)).lang
        cart_id = str(cart_id)
        if self.busy_line or cart_id not in self._lines:
            self.turn += 1
            return
        who = await acting_parent(self)
        if who is None:
            self.turn += 1
            yield session_expired(lang)
            return
        self.busy_line = cart_id
        yield
        try:
            await call_service(
                cancellations.delete_cancel_cart_item,
                parent_id=who.parent_id,
                cancel_cart_id=int(cart_id),
            )
        except DomainError as err:
            self.busy_line = ""
            self.turn += 1
            yield failed(message(err, lang))
            return
        await self._fill(who.parent_id, lang)
        self.busy_line = ""
        self.turn += 1
        yield succeeded(tr("orders_after.cancel_cart_removed", lang))

    @rx.event
    def set_reason(self, value: str):
        value = str(value)
        self.reason_id = value if any(r.id == value for r in self.reasons) else ""
        self.reason_error = self.other_error = ""

    @rx.event
    def set_other_text(self, value: str):
        self.other_text = str(value)[: order_service.OTHER_TEXT_MAX]
        self.other_error = ""

    @rx.event
    async def ask_confirm(self):
        lang = (await self.get_state(I18nState)).lang
        if not self.count:
            return
        if not self.reason_id:
            self.reason_error = tr("cancel_reason_required", lang)
            return rx.set_focus("cancel-reason")
        if self.other_chosen and not self.other_text.strip():
            self.other_error = tr("cancel_other_text_required", lang)
            return rx.set_focus("cancel-other")
        self.sure_open = True

    @rx.event
    def set_sure_open(self, value: bool):
        if not self.confirming:
            self.sure_open = bool(value)

    @rx.event
    async def confirm(self):
        lang = (await self.get_state(I18nState)).lang
        if self.confirming:
            self.turn += 1
            return
        who = await acting_parent(self)
        if who is None:
            self.sure_open = False
            self.turn += 1
            yield session_expired(lang)
            return
        self.confirming = True
        yield
        payload = ["cancel_cart", sorted(self._lines.items()), self.reason_id, self.other_text]
        key = submission_key(self, payload)
        try:
            # Every rule is the service's: the lines are who's and before their cut-offs (one
            # past it refuses the whole confirm), one refund per order, the cart emptied;
            # the same key again (a double tap, a retry) refunds once.
            result = await cancellations.confirm_cancel_cart(
                parent_id=who.parent_id,
                reason_id=int(self.reason_id) if self.reason_id.isdigit() else None,
                other_text=self.other_text if self.other_chosen else None,
                request_key=key,
                lang=lang,
            )
        except DomainError as err:
            self.confirming = False
            self.sure_open = False
            self.turn += 1
            yield failed(message(err, lang))
            return
        self.done_title, self.done_message = result.title, result.message
        self.reason_id = self.other_text = ""
        await self._fill(who.parent_id, lang)
        forget_submission(self)
        self.confirming = False
        self.sure_open = False
        self.turn += 1
        yield succeeded(result.title, description=result.message)
