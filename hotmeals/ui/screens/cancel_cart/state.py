"""State of the cancel cart (/edit-profile/cancel-cart).

Thin caller of ``hotmeals.services.ordering.cancelling.cancel_cart``: cancel_cart_details (the
lines by order, each order's refund from the terms it was sold on), update_cancel_cart_quantity,
delete_cancel_cart_item, cancel_reasons and confirm_cancel_cart (one cancellation and one
refund per order, repeat-safe by the request key). The parent is ``acting_parent(self)`` on
every call; a cancel-cart id must be one on screen, and the service checks it is the parent's.
The header's Cancel Cart count follows every change (``auth.sync_cancel_count``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import reflex as rx

from hotmeals.domain.money import format_money
from hotmeals.i18n import t as tr
from hotmeals.i18n import tn
from hotmeals.services.ordering.cancelling import cancel_cart
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import sync_cancel_count
from hotmeals.ui.shared_state.cancel_reason import CancelReasonForm
from hotmeals.ui.shared_state.forms import confirm_once
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.ids import browser_step
from hotmeals.ui.shared_state.screens import OrderedMeal, OrderLink, order_details_href
from hotmeals.ui.shared_state.toasts import succeeded


@dataclass
class CancelLineView(OrderedMeal):
    cart_id: str = ""
    size_label: str = ""
    max_quantity: int = 0
    cancellable: bool = True
    reason: str = ""


@dataclass
class CancelGroupView(OrderLink):
    refund: str = ""
    lines: list[CancelLineView] = field(default_factory=list)


def group_views(cart: cancel_cart.CancelCartDetails, lang: str) -> list[CancelGroupView]:
    return [
        CancelGroupView(
            order_id=str(g.order_id),
            number=g.number,
            href=order_details_href(g.order_id),
            refund=format_money(g.refund_cents, lang),
            lines=[
                CancelLineView(
                    child=x.child_name,
                    day=x.day,
                    meal=x.meal_name,
                    quantity=x.quantity,
                    price=format_money(x.line_total_cents, lang),
                    cart_id=str(x.cancel_cart_id),
                    size_label=x.size_label,
                    max_quantity=x.max_quantity,
                    cancellable=x.cancellable,
                    reason=x.reason,
                )
                for x in g.lines
            ],
        )
        for g in cart.orders
    ]


class CancelCartState(CancelReasonForm, rx.State):
    groups: list[CancelGroupView] = []
    count: int = 0
    total_refund: str = ""
    empty_message: str = ""
    busy_line: str = ""
    confirming: bool = False
    turn: int = 0

    _lines: dict[str, tuple[int, int]] = {}  # cart id -> (quantity, most)

    @rx.var
    def is_empty(self) -> bool:
        return self.loaded and self.count == 0

    async def _fill(self, parent_id: int, lang: str) -> None:
        answer = await run_in_transaction(
            cancel_cart.cancel_cart_details, parent_id=parent_id, lang=lang
        )
        self.groups = group_views(answer, lang)
        self._lines = {
            x.cart_id: (x.quantity, x.max_quantity) for g in self.groups for x in g.lines
        }
        self.count = answer.count
        self.total_refund = format_money(answer.total_refund_cents, lang)
        self.empty_message = tr("orders_ui.cancel_cart_empty", lang)
        await self._load_reasons(parent_id, lang)
        self.loaded = True
        self._lang = lang
        await sync_cancel_count(self, self.count)

    @rx.event
    async def load(self) -> None:
        lang = (await self.get_state(I18nState)).lang
        self.loaded = False
        self.busy_line = ""
        self.confirming = False
        self._open_anew()
        if not await self._fill_acting(lang):
            self.groups = []

    @rx.event
    async def relang(self) -> None:
        await self._relang()

    @rx.event
    async def change_quantity(self, cart_id: str, delta: int) -> AsyncIterator[Any]:
        cart_id = str(cart_id)
        step = browser_step(delta)
        quantity, most = self._lines.get(cart_id, (0, 0))
        wanted = quantity + step

        async def act(parent_id: int, _key: str, lang: str) -> Any:
            return await run_in_transaction(
                cancel_cart.update_cancel_cart_quantity,
                parent_id=parent_id,
                cancel_cart_id=int(cart_id),
                quantity=wanted,
                lang=lang,
            )

        async for event in confirm_once(
            self,
            busy="busy_line",
            busy_as=cart_id,
            ready=step != 0 and 1 <= wanted <= most,
            act=act,
            done=self._refilled("orders_after.cancel_cart_updated"),
        ):
            yield event

    @rx.event
    async def remove(self, cart_id: str) -> AsyncIterator[Any]:
        cart_id = str(cart_id)

        async def act(parent_id: int, _key: str, _lang: str) -> Any:
            return await run_in_transaction(
                cancel_cart.delete_cancel_cart_item,
                parent_id=parent_id,
                cancel_cart_id=int(cart_id),
            )

        async for event in confirm_once(
            self,
            busy="busy_line",
            busy_as=cart_id,
            ready=cart_id in self._lines,
            act=act,
            done=self._refilled("orders_after.cancel_cart_removed"),
        ):
            yield event

    def _refilled(self, toast_key: str) -> Callable[[int, Any, str], Awaitable[Any]]:
        """After a line changed: the cart again from the service, and the toast."""

        async def done(parent_id: int, _result: Any, lang: str) -> Any:
            await self._fill(parent_id, lang)
            return succeeded(tr(toast_key, lang))

        return done

    def _confirm_busy(self) -> bool:
        return self.confirming

    @rx.event
    async def ask_confirm(self) -> Any:
        return await self._ask_sure(ready=bool(self.count))

    @rx.event(background=True)
    async def confirm(self) -> AsyncIterator[Any]:
        async for event in self._confirm_cancel(
            busy="confirming",
            once=lambda: self._reason_once("cancel_cart", sorted(self._lines.items())),
            act=self._confirm_cart,
            done=self._cart_cancelled,
        ):
            yield event

    async def _cart_cancelled(self, parent_id: int, result: Any, lang: str) -> Any:
        """The cancel's outcome, titled with what was cancelled ("1 meal cancelled"): the
        cart may hold one meal of an order, and "Order Cancelled" would say more."""
        meals = sum(quantity for quantity, _most in self._lines.values())
        title = tn("orders_ui.meals_cancelled", meals, lang)
        return await self._cancelled(parent_id, result, lang, title=title)

    async def _confirm_cart(self, parent_id: int, key: str, lang: str) -> Any:
        # Every rule is the service's: the lines are the parent's and before their cut-offs
        # (one past it refuses the whole confirm), one refund per order, the cart emptied;
        # the same key again (a double tap, a retry) refunds once.
        return await cancel_cart.confirm_cancel_cart(**self._cancel_args(parent_id, key, lang))
