"""Paying the cart (issue 9, screen 7; issue 20: one Pay): the order summary's payment choice
and Pay, and /payment (the confirmation at ``/payment?order=HM-…``, and the same choice for a
parent who lands there directly). A saved card or Converge's Lightbox (the simulator by
default), the shape of the donation flow (``state/payments.py``).

Thin: ``hotmeals.services.ordering.checkout`` prices the cart again from the database, opens the
payment, confirms an approval with Converge and turns the cart into one order
(``start_checkout``, ``complete_checkout``); a decline, a cancel or an error leaves the cart as
it was (``checkout_declined``). The payment id stays in a backend-only var; the promo code and
the donation come from the summary's browser storage and are checked again by the service.
Handlers that talk to Converge run as background events.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import reflex as rx

from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.services import cards
from hotmeals.services.ordering import pricing
from hotmeals.services.ordering.days import toronto_today
from hotmeals.ui.state.auth import acting_parent, page_path, session_expired
from hotmeals.ui.state.base import call_service
from hotmeals.ui.state.cart import (
    PAYMENT_ROUTE,
    CartGroupView,
    CartState,
    charge_texts,
    group_views,
    sync_cart_count,
)
from hotmeals.ui.state.forms import message
from hotmeals.ui.state.i18n import I18nState
from hotmeals.ui.state.payments import _result, lightbox_script
from hotmeals.ui.state.steps import history_replace_script

NEW_CARD = "new"
ORDER_ROUTE = "/edit-profile/order-details"


def preselected(choice: str, picked: bool, card_ids: list[str], default_id: str) -> str:
    """The payment choice shown: the parent's own pick while it still holds (a card of the
    list, or a new card), else their default saved card (``default_id``, "" for none), else a
    new card."""
    if picked and (choice == NEW_CARD or choice in card_ids):
        return choice
    return default_id if default_id in card_ids else NEW_CARD


def _card_option(card: cards.CardView, lang: str) -> dict[str, str]:
    return {
        "id": str(card.id),
        "label": tr("checkout.saved_card", lang, brand=card.brand or "CARD", last4=card.last4),
        "expiry": card.expiry,
    }


class CheckoutState(rx.State):
    """The order summary's payment choice and Pay, and /payment."""

    loaded: bool = False
    total: str = ""
    meal_count: int = 0
    charges: dict[str, str] = {}
    cards: list[dict[str, str]] = []
    card_choice: str = NEW_CARD
    save_card: bool = False
    busy: bool = False
    turn: int = 0
    # "", opening, confirming, placed, declined, cancelled, pending, error; missing: the
    # address names no paid order of this parent's
    status: str = ""
    message: str = ""
    order_number: str = ""
    order_link: str = ""
    confirmation: list[CartGroupView] = []
    paid_charges: dict[str, str] = {}

    _payment_id: int = 0
    _saving: bool = False  # "save this card" was ticked for the open payment
    _order_id: int = 0
    _lang: str = ""
    _picked: bool = False  # the parent chose the card for this cart (else their default)
    _summary: bool = False  # shown on the order summary (it prices the cart itself)
    _paid_from_summary: bool = False  # the running payment was started on the summary

    @rx.var
    def is_placed(self) -> bool:
        return self.status == "placed"

    @rx.var
    def chosen_card(self) -> str:
        """The chosen saved card's label; "" for a new card."""
        return next((c["label"] for c in self.cards if c["id"] == self.card_choice), "")

    @rx.var
    def waiting(self) -> bool:
        return self.status in ("opening", "confirming", "paying")

    @rx.event
    async def load(self):
        """/payment's on_load: the confirmation its address names, or the choice and Pay."""
        await self._enter(summary=False)

    @rx.event
    async def load_choice(self):
        """The order summary's on_load: the parent's cards and the choice (no pricing: the
        summary prices the cart, with its promo and donation)."""
        await self._enter(summary=True)

    async def _enter(self, *, summary: bool) -> None:
        lang = (await self.get_state(I18nState)).lang
        if self.busy and self.status == "confirming":
            return  # the server is confirming an approval for this tab: keep its screen
        # Anything else in flight died with the page (a reload closed the Lightbox): the
        # payment left open is settled by the reconciliation, and paying again reuses the
        # pending order of the same cart (services/ordering/checkout.py).
        self.busy = False
        self._payment_id = 0
        self.turn += 1
        self.status = self.message = self.order_number = self.order_link = ""
        self.confirmation, self.paid_charges, self._order_id = [], {}, 0
        self._summary = summary
        who = await acting_parent(self)
        if who is None:
            self.loaded = False
            return
        asked = "" if summary else str(self.router.url.query_parameters.get("order") or "")
        if asked:
            # The confirmation's own address (issue 20): a reload or Back shows the order
            # again; the service shows only a paid order of this parent's.
            await self._show_placed(who.parent_id, asked, lang)
            self.loaded = True
            self._lang = lang
            return
        if not summary:
            await self._price(who.parent_id, lang)
        await self._load_cards(who.parent_id, lang)
        self.loaded = True
        self._lang = lang

    async def _load_cards(self, parent_id: int, lang: str) -> None:
        rows = await call_service(cards.list_cards, parent_id=parent_id)
        self.cards = [_card_option(c, lang) for c in rows]
        default = cards.default_card(rows, toronto_today())
        self.card_choice = preselected(
            self.card_choice,
            self._picked,
            [c["id"] for c in self.cards],
            str(default.id) if default is not None else "",
        )

    @rx.event
    async def relang(self):
        """The language was switched: amounts, cards and the confirmation in that language."""
        lang = (await self.get_state(I18nState)).lang
        if not self.loaded or self.busy or lang == self._lang:
            return
        who = await acting_parent(self)
        if who is None:
            return
        self._lang = lang
        if self.status == "placed" and self._order_id:
            await self._show_order(who.parent_id, self._order_id, lang)
            return
        if not self._summary:
            await self._price(who.parent_id, lang)
        rows = await call_service(cards.list_cards, parent_id=who.parent_id)
        self.cards = [_card_option(c, lang) for c in rows]

    async def _choices(self) -> tuple[str | None, int | None]:
        summary = await self.get_state(CartState)
        code = summary.promo_code or None
        donation = int(summary.donation_choice) or None
        return code, donation

    async def _price(self, parent_id: int, lang: str) -> None:
        code, donation = await self._choices()
        try:
            summary = await call_service(
                pricing.priced_summary,
                parent_id=parent_id,
                promo_code=code,
                donation_cents=donation,
                lang=lang,
            )
        except DomainError:
            # The summary's promo no longer holds: price without it (the summary says why).
            cart_state = await self.get_state(CartState)
            cart_state.promo_code = ""
            summary = await call_service(
                pricing.priced_summary, parent_id=parent_id, donation_cents=donation, lang=lang
            )
        self.total = str(summary["total_pay"]) if summary.get("payable_count") else ""
        self.meal_count = int(summary.get("meal_count", 0))
        self.charges = charge_texts(summary, lang)

    @rx.event
    def set_card_choice(self, value: str):
        if not self.busy:
            self.card_choice = str(value)
            self._picked = True
            self.status = self.message = ""

    @rx.event
    def set_save_card(self, value: bool):
        self.save_card = bool(value)

    @rx.event(background=True)
    async def pay(self):
        from hotmeals.services.ordering.checkout import start_checkout

        async with self:
            if self.busy:
                return
            who = await acting_parent(self)
            lang = (await self.get_state(I18nState)).lang
            if who is not None:
                code, donation = await self._choices()
                # A card id from the browser: the service takes only a card of who's.
                card = int(self.card_choice) if self.card_choice.isdigit() else None
                save = self.save_card and card is None
                self.busy = True
                self._paid_from_summary = page_path(self.router.url.path).rstrip("/") != (
                    PAYMENT_ROUTE
                )
                self.status = "opening" if card is None else "paying"
                self.message = tr("checkout.opening" if card is None else "checkout.paying", lang)
            else:
                self.turn += 1
        if who is None:
            yield session_expired(lang)
            return
        try:
            started = await start_checkout(
                parent_id=who.parent_id,
                promo_code=code,
                donation=donation,
                card_id=card,
                save_card=save,
                lang=lang,
            )
        except DomainError as err:
            async with self:
                self.busy = False
                self.turn += 1
                self.status, self.message = "error", message(err, lang)
                if err.field == "promo_code":
                    # The summary's code no longer holds: said at its field too.
                    (await self.get_state(CartState)).promo_error = self.message
            return
        if started.result is not None or started.hosted is None:
            async with self:
                await self._finish(who.parent_id, started.result, lang)
                address = self._placed_address()
            if address is not None:
                yield address
            return
        async with self:
            self._payment_id = started.payment_id
            self._saving = save
        yield rx.call_script(
            lightbox_script(started.hosted.lightbox_url, started.hosted.token, lang),
            callback=CheckoutState.lightbox_closed,
        )

    @rx.event(background=True)
    async def lightbox_closed(self, value: Any):
        from hotmeals.services.ordering.checkout import checkout_declined, complete_checkout

        result = _result(value)
        async with self:
            who = await acting_parent(self)
            lang = (await self.get_state(I18nState)).lang
            payment_id = self._payment_id
            saving = self._saving
            if who is None or not payment_id:
                # Signed out meanwhile (or no payment open here): nothing is recorded from
                # this browser; an approval is settled by the reconciliation with Converge.
                self.busy = False
                self.turn += 1
                self._payment_id = 0
            elif result["outcome"] == "approval":
                self.status, self.message = "confirming", tr("checkout.confirming", lang)
        if who is None:
            yield session_expired(lang)
            return
        if not payment_id:
            return
        try:
            if result["outcome"] == "approval":
                done = await complete_checkout(
                    parent_id=who.parent_id,
                    payment_id=payment_id,
                    txn_id=result["txn_id"],
                    lang=lang,
                    # Saved once the order is placed, and only the card that paid.
                    card_token=(result["token"] or None) if saving else None,
                )
            else:
                text = result["message"] or result["outcome"]
                # A hint only: Converge is asked first; a sale it made places the order.
                done = await checkout_declined(
                    parent_id=who.parent_id,
                    payment_id=payment_id,
                    message=text,
                    outcome=result["outcome"],
                    lang=lang,
                )
                if result["outcome"] == "cancelled" and done.status == "declined":
                    async with self:
                        self._payment_id = 0
                        self.busy = False
                        self.turn += 1
                        self.status = "cancelled"
                        self.message = tr("checkout.cancelled", lang)
                    return
        except DomainError as err:
            async with self:
                self._payment_id = 0
                self.busy = False
                self.turn += 1
                self.status, self.message = "error", message(err, lang)
            return
        async with self:
            self._payment_id = 0
            await self._finish(who.parent_id, done, lang)
            address = self._placed_address()
        if address is not None:
            yield address

    async def _show_order(self, parent_id: int, order_id: int, lang: str) -> None:
        """The placed order's lines and charges (the service checks it is the parent's)."""
        from hotmeals.services.ordering.confirmation import order_confirmation

        try:
            confirmation = await call_service(
                order_confirmation, parent_id=parent_id, order_id=order_id, lang=lang
            )
        except DomainError:
            confirmation = {}
        self.confirmation = group_views(confirmation, lang) if confirmation else []
        self.paid_charges = charge_texts(confirmation, lang) if confirmation else {}
        self.total = str(confirmation.get("total_pay") or self.total)

    async def _show_placed(self, parent_id: int, number: str, lang: str) -> None:
        from hotmeals.services.ordering.confirmation import placed_order_confirmation

        try:
            shown = await call_service(
                placed_order_confirmation, parent_id=parent_id, number=number, lang=lang
            )
        except DomainError as err:
            self.status, self.message = "missing", message(err, lang)
            self.total = ""
            return
        self.status = "placed"
        self.order_number = str(shown["number"])
        self._order_id = int(shown["order_id"])
        self.order_link = f"{ORDER_ROUTE}?id={self._order_id}"
        self.confirmation = group_views(shown, lang)
        self.paid_charges = charge_texts(shown, lang)
        self.total = str(shown.get("total_pay") or "")

    def _placed_address(self) -> rx.event.EventSpec | None:
        """Once placed, the tab's address names the order: a reload or Back shows this
        confirmation, never an empty payment screen. Paid on /payment: its history entry
        replaced (no route change); paid on the summary: the confirmation opens in place of
        the summary's entry."""
        if self.status != "placed" or not self.order_number:
            return None
        address = f"{PAYMENT_ROUTE}?order={quote(self.order_number)}"
        if self._paid_from_summary:
            return rx.redirect(address, replace=True)
        return rx.call_script(history_replace_script(address))

    async def _finish(self, parent_id: int, result: Any, lang: str) -> None:
        """Show a checkout's result (called inside ``async with self``)."""
        self.busy = False
        self.turn += 1
        if result is None:
            self.status, self.message = "error", tr("payment_unavailable", lang)
            return
        self.message = str(result.message or "")
        if result.status != "placed":
            self.status = "declined" if result.status in ("declined", "voided") else "pending"
            if not self.message and self.status == "declined":
                self.message = tr("checkout.retry_hint", lang)
            return
        self.status = "placed"
        self._picked = False  # the pick was for this cart: the next one starts at the default
        self.order_number = str(result.order_number)
        self.order_link = f"{ORDER_ROUTE}?id={int(result.order_id)}"
        self._order_id = int(result.order_id)
        await self._show_order(parent_id, self._order_id, lang)
        await sync_cart_count(self, 0)
        cart_state = await self.get_state(CartState)
        cart_state.promo_code = ""
        cart_state.donation_cents = "0"
        cart_state.groups, cart_state.line_count, cart_state.payable_count = [], 0, 0
