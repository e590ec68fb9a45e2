"""Paying the cart: the order summary's payment choice and Pay, and /payment (the
confirmation at ``/payment?order=HM-…``, and the same choice for a parent who lands there
directly). A saved card or Converge's Lightbox (the simulator by default): ``CardPayment``.

Thin: ``hotmeals.services.ordering.checkout`` prices the cart again from the database, opens the
payment, confirms an approval with Converge and turns the cart into one order
(``start_checkout``, ``complete_checkout``); a decline, a cancel or an error leaves the cart as
it was (``checkout_declined``). The payment id stays in a backend-only var; the promo code and
the donation come from the summary's browser storage and are checked again by the service.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import reflex as rx
from reflex.event import EventSpec

from hotmeals import clock
from hotmeals.domain.charges import CHARGE_FIELDS
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.i18n import t as tr
from hotmeals.services import cards
from hotmeals.services.ordering import pricing
from hotmeals.services.ordering.checkout import (
    checkout_declined,
    complete_checkout,
    start_checkout,
)
from hotmeals.services.ordering.confirmation import (
    Confirmation,
    order_confirmation,
    placed_order_confirmation,
)
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.screens.cart.state import (
    PAYMENT_ROUTE,
    CartGroupView,
    CartLineView,
    CartState,
    cart_charge_texts,
    charge_texts,
    long_date,
)
from hotmeals.ui.shared_state.auth import ActingParent, acting_parent, page_path, sync_cart_count
from hotmeals.ui.shared_state.card_choice import CardPayment, card_option, card_options, preselected
from hotmeals.ui.shared_state.forms import message
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.lightbox import Started
from hotmeals.ui.shared_state.menu_views import allergy_badge
from hotmeals.ui.shared_state.screens import LoadedScreen, new_language_for
from hotmeals.ui.shared_state.steps import history_replace_script

ORDER_ROUTE = "/edit-profile/order-details"
# What ``_settle`` answers when the parent closed the Lightbox: the cart stays as it was.
CANCELLED = "cancelled"


def confirmation_views(order: Confirmation, lang: str) -> list[CartGroupView]:
    """A paid order's meals as the cart shows its own (by child, then date)."""
    return [
        CartGroupView(
            key=f"{group.child_id}-{group.date.isoformat()}",
            child=group.child_name,
            date=long_date(group.date.isoformat(), lang),
            lines=[
                CartLineView(
                    size_label=line.size_label,
                    menu_option=line.menu_option,
                    meal_option=line.meal_option,
                    addons=", ".join(
                        f"{a.name} (+{format_money(a.price_cents, lang)})" for a in line.addons
                    ),
                    note=line.special_note,
                    cart_id=str(line.line_id or ""),
                    name=line.name,
                    quantity=line.quantity,
                    allergy_ack=line.allergy_ack,
                    price=format_money(line.line_total_cents, lang),
                    for_child=tr("ui.safe.for_child", lang, name=group.child_name),
                    allergy_text=allergy_badge({}, lang),
                )
                for line in group.lines
            ],
        )
        for group in order.groups
    ]


def paid_charge_texts(order: Confirmation, lang: str) -> dict[str, str]:
    """A paid order's charges as the summary shows its own (``charge_texts``)."""
    lines = [
        {"name": c.name, "label": c.label, "cents": c.cents, "amount": format_money(c.cents, lang)}
        for c in order.charge_lines
    ]
    charges = {name: getattr(order.charges, name) for name in CHARGE_FIELDS}
    return charge_texts({"charges": charges, "tax_bps": order.tax_bps, "charge_lines": lines}, lang)


class CheckoutState(CardPayment, LoadedScreen, rx.State):
    """The order summary's payment choice and Pay, and /payment."""

    total: str = ""
    meal_count: int = 0
    charges: dict[str, str] = {}
    # status (CardPayment): "", opening, paying, confirming, placed, declined, cancelled,
    # pending, error; missing: the address names no paid order of this parent's
    order_number: str = ""
    order_link: str = ""
    confirmation: list[CartGroupView] = []
    paid_charges: dict[str, str] = {}

    _saving: bool = False  # "save this card" was ticked for the open payment
    _order_id: int = 0
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
    async def load(self) -> None:
        """/payment's on_load: the confirmation its address names, or the choice and Pay."""
        await self._enter(summary=False)

    @rx.event
    async def load_choice(self) -> None:
        """The order summary's on_load: the parent's cards and the choice (no pricing: the
        summary prices the cart, with its promo and donation)."""
        await self._enter(summary=True)

    async def _enter(self, *, summary: bool) -> None:
        lang = (await self.get_state(I18nState)).lang
        if self.busy and self.status == "confirming":
            return  # the server is confirming an approval for this tab: keep its screen
        # Anything else in flight died with the page (a reload closed the Lightbox): the
        # payment left open is settled by the reconciliation, and paying again reuses the
        # pending order of the same cart (services/checkout.py).
        self.busy = False
        self._payment_id, self._lightbox_open = 0, False
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
            # The confirmation's own address: a reload or Back shows the order
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
        rows = await run_in_transaction(cards.list_cards, parent_id=parent_id)
        self.cards = [card_option(c, lang) for c in rows]
        default = cards.default_card(rows, clock.today())
        self.card_choice = preselected(
            self.card_choice,
            self._picked,
            [c["id"] for c in self.cards],
            str(default.id) if default is not None else "",
        )

    @rx.event
    async def relang(self) -> None:
        """The language was switched: amounts, cards and the confirmation in that language."""
        found = await new_language_for(self, ready=not self.busy)
        if found is None:
            return
        who, lang = found
        self._lang = lang
        if self.status == "placed" and self._order_id:
            await self._show_order(who.parent_id, self._order_id, lang)
            return
        if not self._summary:
            await self._price(who.parent_id, lang)
        self.cards = await card_options(who.parent_id, lang)

    async def _choices(self) -> tuple[str | None, int | None]:
        summary = await self.get_state(CartState)
        code = summary.promo_code or None
        donation = int(summary.donation_choice) or None
        return code, donation

    async def _price(self, parent_id: int, lang: str) -> None:
        code, donation = await self._choices()
        try:
            priced = await run_in_transaction(
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
            priced = await run_in_transaction(
                pricing.priced_summary, parent_id=parent_id, donation_cents=donation, lang=lang
            )
        summary = priced.summary
        total = format_money(summary.charges.total_pay_cents, lang)
        self.total = total if summary.payable_count else ""
        self.meal_count = summary.meal_count
        self.charges = cart_charge_texts(summary, priced.credit_lines, lang)

    @rx.event
    def set_card_choice(self, value: str) -> None:
        if not self.busy:
            self.card_choice = str(value)
            self._picked = True
            self.status = self.message = ""

    # ---- Pay: CardPayment's pay ---------------------------------------------------------
    async def _begin(self, who: ActingParent, lang: str) -> Any:
        code, donation = await self._choices()
        card, save = self._chosen()
        self._saving = save
        self._paid_from_summary = page_path(self.router.url.path).rstrip("/") != PAYMENT_ROUTE
        self.status = "opening" if card is None else "paying"
        self.message = tr("checkout.opening" if card is None else "checkout.paying", lang)
        return {"promo_code": code, "donation": donation, "card_id": card, "save_card": save}

    async def _start(self, who: ActingParent, ticket: Any, lang: str) -> Started:
        # Family credit pays first (the summary shows its share): all of it places the order
        # at once, no card; part of it leaves the card the rest.
        started = await start_checkout(parent_id=who.parent_id, lang=lang, **ticket)
        if started.result is not None or started.hosted is None:
            return Started.done(started.result)
        return Started.lightbox(started.hosted, started.payment_id)

    async def _refused(self, who: ActingParent, err: DomainError, lang: str) -> None:
        self.status, self.message = "error", message(err, lang)
        if err.field == "promo_code":
            # The summary's code no longer holds: said at its field too.
            (await self.get_state(CartState)).promo_error = self.message

    def _confirming(self, lang: str) -> None:
        self.status, self.message = "confirming", tr("checkout.confirming", lang)

    async def _settle(
        self, who: ActingParent, payment_id: int, outcome: dict[str, str], lang: str
    ) -> Any:
        if outcome["outcome"] == "approval":
            return await complete_checkout(
                parent_id=who.parent_id,
                payment_id=payment_id,
                txn_id=outcome["txn_id"],
                lang=lang,
                # Saved once the order is placed, and only the card that paid.
                card_token=(outcome["token"] or None) if self._saving else None,
            )
        # A hint only: Converge is asked first; a sale it made places the order.
        done = await checkout_declined(
            parent_id=who.parent_id,
            payment_id=payment_id,
            message=outcome["message"] or outcome["outcome"],
            outcome=outcome["outcome"],
            lang=lang,
        )
        if outcome["outcome"] == "cancelled" and done.status == "declined":
            return CANCELLED
        return done

    async def _show_order(self, parent_id: int, order_id: int, lang: str) -> None:
        """The placed order's lines and charges (the service checks it is the parent's)."""
        try:
            confirmation = await run_in_transaction(
                order_confirmation, parent_id=parent_id, order_id=order_id, lang=lang
            )
        except DomainError:
            self.confirmation, self.paid_charges = [], {}
            return
        self.confirmation = confirmation_views(confirmation, lang)
        self.paid_charges = paid_charge_texts(confirmation, lang)
        self.total = format_money(confirmation.total_pay_cents, lang)

    async def _show_placed(self, parent_id: int, number: str, lang: str) -> None:
        try:
            shown = await run_in_transaction(
                placed_order_confirmation, parent_id=parent_id, number=number, lang=lang
            )
        except DomainError as err:
            self.status, self.message = "missing", message(err, lang)
            self.total = ""
            return
        self.status = "placed"
        self.order_number = shown.number
        self._order_id = shown.order_id
        self.order_link = f"{ORDER_ROUTE}?id={self._order_id}"
        self.confirmation = confirmation_views(shown, lang)
        self.paid_charges = paid_charge_texts(shown, lang)
        self.total = format_money(shown.total_pay_cents, lang)

    def _placed_address(self) -> EventSpec | None:
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

    async def _finish(self, who: ActingParent, result: Any, lang: str) -> list:
        """Show a checkout's result; once placed, the address names the order."""
        await self._show_result(who.parent_id, result, lang)
        address = self._placed_address()
        return [address] if address is not None else []

    async def _show_result(self, parent_id: int, result: Any, lang: str) -> None:
        if result == CANCELLED:
            self.status, self.message = "cancelled", tr("checkout.cancelled", lang)
            return
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
