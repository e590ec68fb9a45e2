"""States of the cart (/edit-profile/cart) and the order summary (/edit-profile/order-summary).

Thin callers of ``services.ordering.cart`` (the cart grouped by child and date, priced from the
database, each line flagged when it cannot be paid; ``priced_summary`` with the promo code and
the donation) and ``hotmeals.services.promos``. The parent is ``acting_parent(self)`` on every
call; the ids the browser sends are the services' to check (another parent's line is 'not
found').

The promo code and the donation chosen on the summary are kept in browser storage so that the
payment screen (``CheckoutState``) prices the same order; they are browser input like any
argument, and the server checks and re-prices them at every step.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import reflex as rx

from hotmeals.domain.charges import CHARGE_FIELDS, tax_label
from hotmeals.domain.dates import full_day_or_text
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.pricing import giveback_summary
from hotmeals.i18n import normalize_lang
from hotmeals.i18n import t as tr
from hotmeals.services import promos as promo_service
from hotmeals.services.ordering import cart as cart_service
from hotmeals.services.ordering import pricing
from hotmeals.services.ordering.cart import CartSummary
from hotmeals.services.ordering.pricing import PricedSummary
from hotmeals.services.payments.credit_pay import (
    CARD_PAY,
    FAMILY_CREDIT,
    CreditLine,
    credit_line_label,
)
from hotmeals.services.promos import UsablePromo
from hotmeals.services.submissions import submit_once
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import acting_parent, sync_cart_count
from hotmeals.ui.shared_state.forms import (
    OnceKey,
    RemoveDialog,
    confirm_once,
    forget_submission,
    message,
)
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.ids import browser_id, browser_step
from hotmeals.ui.shared_state.menu_views import (
    allergy_badge,
    cutoff_text,
    diet_fit_of,
    diet_line_text,
    mark_badge,
)
from hotmeals.ui.shared_state.screens import (
    LoadedScreen,
    MealChoices,
    meal_choices,
    new_language_for,
)
from hotmeals.ui.shared_state.steps import ProfileStepState
from hotmeals.ui.shared_state.toasts import succeeded

CART_ROUTE = "/edit-profile/cart"
SUMMARY_ROUTE = "/edit-profile/order-summary"
PAYMENT_ROUTE = "/payment"
BOOK_ROUTE = "/edit-profile/meal-detailed"
# The optional donation on the summary, in cents ("0": none). The service checks the amount.
DONATION_CHOICES = ("0", "100", "200", "500", "1000")
CHARGE_NAMES = (
    "meal_net",
    "special_note_fees",
    "processing_fee",
    "tax",
    "discount",
    "school_donation",
    "additional_charge",
    "total_pay",
)


@dataclass
class CartLineView(MealChoices):
    cart_id: str = ""
    name: str = ""
    image: str = ""
    vendor: str = ""
    quantity: int = 1
    allergy_ack: str = ""
    price: str = ""
    payable: bool = True
    problems: str = ""
    # whom the meal is for ('For Emma') and its allergy mark for that child
    for_child: str = ""
    allergy_verdict: str = "safe"
    allergy_text: str = ""
    cutoff: str = ""  # 'Order by Thu, Nov 26, 6:00 p.m.' (each order line)
    diet_text: str = ""  # "Fits Emma's diet", or what it misses ("" without needs)


@dataclass
class CartGroupView:
    key: str = ""
    child: str = ""
    date: str = ""
    lines: list[CartLineView] = field(default_factory=list)


long_date = full_day_or_text  # 'Monday, December 7, 2026' / 'lundi 7 décembre 2026'


def group_views(summary: dict, lang: str) -> list[CartGroupView]:
    """The service's groups as what the screens show (text in ``lang``)."""
    views = []
    for group in summary.get("groups", []):
        lines = []
        name = str(group.get("child_first_name") or group["child_name"])
        for line in group["lines"]:
            mark = line.get("allergy") or {}
            lines.append(
                CartLineView(
                    **meal_choices(line),
                    cart_id=str(line.get("cart_id") or line.get("line_id") or ""),
                    name=str(line["name"]),
                    image=str(line.get("image") or ""),
                    vendor=str(line.get("vendor") or ""),
                    quantity=int(line["quantity"]),
                    allergy_ack=str(line.get("allergy_ack") or ""),
                    price=str(line["line_total"]),
                    payable=bool(line.get("payable", True)),
                    problems=" ".join(line.get("problems") or []),
                    for_child=tr("ui.safe.for_child", lang, name=name),
                    allergy_verdict=str(mark.get("verdict") or "safe"),
                    allergy_text=allergy_badge(mark, lang),
                    cutoff=cutoff_text(str(line.get("cutoff_at") or ""), True, lang),
                    diet_text=diet_line_text(diet_fit_of(line.get("diet")), name, lang),
                )
            )
        views.append(
            CartGroupView(
                key=f"{group['child_id']}-{group['date']}",
                child=str(group["child_name"]),
                date=long_date(group["date"], lang),
                lines=lines,
            )
        )
    return views


def cart_group_views(summary: CartSummary, lang: str) -> list[CartGroupView]:
    """The cart's groups (``cart.cart_summary``) as what the screens show (text in ``lang``)."""
    views = []
    for group in summary.groups:
        lines = []
        name = group.child_first_name or group.child_name
        for line in group.lines:
            addons = ", ".join(
                f"{a.name} (+{format_money(a.price_cents, lang)})" for a in line.addons
            )
            lines.append(
                CartLineView(
                    size_label=line.size_label,
                    menu_option=line.menu_option,
                    meal_option=line.meal_option,
                    addons=addons,
                    note=line.special_note,
                    cart_id=str(line.cart_id),
                    name=line.name,
                    image=line.image or "",
                    vendor=line.vendor,
                    quantity=line.quantity,
                    allergy_ack=line.allergy_ack,
                    price=format_money(line.line_total_cents, lang),
                    payable=line.payable,
                    problems=" ".join(line.problems),
                    for_child=tr("ui.safe.for_child", lang, name=name),
                    allergy_verdict=line.allergy.verdict.value,
                    allergy_text=mark_badge(line.allergy, lang),
                    cutoff=cutoff_text(line.cutoff_at.isoformat(), True, lang),
                    diet_text=diet_line_text(line.diet, name, lang),
                )
            )
        day = group.date.isoformat()
        views.append(
            CartGroupView(
                key=f"{group.child_id}-{day}",
                child=group.child_name,
                date=long_date(day, lang),
                lines=lines,
            )
        )
    return views


# Shown whatever their amount; the other charges only when they apply (no $0.00
# lines for a discount, a fee or a donation the parent does not have).
ALWAYS_SHOWN = ("meal_net", "tax", "total_pay")


CREDIT_ROWS = (FAMILY_CREDIT, CARD_PAY)


@dataclass(frozen=True)
class CreditRow:
    """Family credit's share or the card's, as the summary writes it (label and money in the
    parent's language)."""

    name: str  # FAMILY_CREDIT or CARD_PAY
    label: str
    amount: str
    cents: int


def charge_texts(summary: dict, lang: str) -> dict[str, str]:
    """Each charge of spec §3 of an answer that carries them (the confirmation), formatted in
    ``lang`` (``_charge_texts``)."""
    rows = [*summary.get("credit_lines", []), *summary.get("charge_lines", [])]
    credit = [
        CreditRow(
            name=str(row["name"]),
            label=str(row.get("label", "")),
            amount=str(row.get("amount", "")),
            cents=int(row.get("cents") or 0),
        )
        for row in rows
        if row.get("name") in CREDIT_ROWS
    ]
    cents = summary.get("charges", {})
    return _charge_texts(cents, int(summary.get("tax_bps") or 0), credit, lang)


def cart_charge_texts(
    summary: CartSummary, credit_lines: Sequence[CreditLine], lang: str
) -> dict[str, str]:
    """The cart's charges (``cart.cart_summary``) formatted in ``lang`` (``_charge_texts``),
    with the credit's lines of ``pricing.priced_summary`` when there are some."""
    cents = {name: getattr(summary.charges, name) for name in CHARGE_FIELDS}
    credit = [
        CreditRow(
            name=line.name,
            label=credit_line_label(line, lang),
            amount=format_money(line.cents, lang),
            cents=line.cents,
        )
        for line in credit_lines
    ]
    return _charge_texts(cents, summary.tax_bps, credit, lang)


def _charge_texts(
    cents: dict[str, Any], tax_bps: int, credit: Sequence[CreditRow], lang: str
) -> dict[str, str]:
    """Each charge of spec §3 formatted in ``lang`` (the discount as a negative amount); ""
    for a charge that does not apply; ``tax_label`` names the tax with its rate."""
    out = {
        name: format_money(int(cents.get(f"{name}_cents", 0)), lang)
        if name in ALWAYS_SHOWN or int(cents.get(f"{name}_cents", 0))
        else ""
        for name in CHARGE_NAMES
    }
    if int(cents.get("discount_cents", 0)):
        out["discount"] = format_money(-int(cents["discount_cents"]), lang)  # money off
    out["tax_label"] = tax_label(tax_bps, lang)
    # Family credit's share and the card's, when credit pays some ("Family credit −$x.xx",
    # then "To pay by card" or, once paid, "Paid by card").
    sources = {row.name: row for row in credit}
    for name in CREDIT_ROWS:
        row = sources.get(name)
        out[name] = row.amount if row is not None else ""
        out[f"{name}_label"] = row.label if row is not None else ""
    # What the Pay button names: the card's share when credit pays some; "" when credit pays
    # it all (the button then says it pays with family credit).
    card = sources.get(CARD_PAY)
    out["pay_amount"] = out["total_pay"] if card is None else (card.amount if card.cents else "")
    return out


def promo_view(promo: UsablePromo, lang: str) -> dict[str, str]:
    french = normalize_lang(lang) == "fr"
    if promo.kind == "percent":
        pct = promo.percent_bps / 100
        shown = f"{pct:g}".replace(".", ",") if french else f"{pct:g}"
        what = tr("checkout.promo_percent", lang, percent=shown)
    else:
        what = tr("checkout.promo_fixed", lang, amount=format_money(promo.amount_off_cents, lang))
    extra = []
    if promo.min_order_cents:
        extra.append(
            tr("checkout.promo_min", lang, amount=format_money(promo.min_order_cents, lang))
        )
    if promo.valid_until:
        extra.append(
            tr("checkout.promo_until", lang, date=long_date(promo.valid_until.isoformat(), lang))
        )
    detail = ", ".join([what, *extra])
    description = promo.description_fr if french else promo.description_en
    return {"code": promo.code, "description": description, "detail": detail}


class CartState(RemoveDialog, OnceKey, LoadedScreen, rx.State):
    """The cart and the order summary."""

    groups: list[CartGroupView] = []
    line_count: int = 0
    payable_count: int = 0
    meal_count: int = 0
    charges: dict[str, str] = {}
    giveback: str = ""
    busy_line: str = ""  # the line whose quantity is changing
    delete_name: str = ""
    turn: int = 0  # bumped when a write ends: re-arms data-hm-once buttons

    # The summary's choices, kept for the payment screen (browser input: checked server-side).
    promo_code: str = rx.LocalStorage("", name="hmPromoCode")
    donation_cents: str = rx.LocalStorage("0", name="hmDonation")
    promo_input: str = ""
    promo_error: str = ""
    promo_busy: bool = False
    promos: list[dict[str, str]] = []

    _quantities: dict[str, int] = {}
    _view: str = "cart"  # or "summary"

    @rx.var
    def is_empty(self) -> bool:
        return self.loaded and self.line_count == 0

    @rx.var
    def has_unpayable(self) -> bool:
        return self.payable_count < self.line_count

    @rx.var
    def donation_choice(self) -> str:
        return self.donation_cents if self.donation_cents in DONATION_CHOICES else "0"

    # ---- private ------------------------------------------------------------------------
    def _apply(
        self, summary: CartSummary, lang: str, credit_lines: Sequence[CreditLine] = ()
    ) -> None:
        self.groups = cart_group_views(summary, lang)
        self._quantities = {
            line.cart_id: line.quantity for group in self.groups for line in group.lines
        }
        self.line_count = summary.cart_count
        self.payable_count = summary.payable_count
        self.meal_count = summary.meal_count
        self.charges = cart_charge_texts(summary, credit_lines, lang)
        self.giveback = str(giveback_summary(summary.meal_count, lang)["message"])
        self.loaded = True
        self._lang = lang

    def _apply_priced(self, priced: PricedSummary, lang: str) -> None:
        self._apply(priced.summary, lang, priced.credit_lines)

    def _donation(self) -> int:
        return int(self.donation_choice)

    async def _priced(self, parent_id: int, lang: str) -> PricedSummary:
        """The summary with the stored promo and donation; a promo that no longer holds is
        dropped (its refusal shown at the field) and the cart priced without it."""
        try:
            return await run_in_transaction(
                pricing.priced_summary,
                parent_id=parent_id,
                promo_code=self.promo_code or None,
                donation_cents=self._donation() or None,
                lang=lang,
            )
        except DomainError as err:
            if err.field == "promo_code":
                self.promo_error = message(err, lang)
                self.promo_code = ""
            else:
                self.donation_cents = "0"
            return await run_in_transaction(pricing.priced_summary, parent_id=parent_id, lang=lang)

    # ---- the cart -----------------------------------------------------------------------
    @rx.event
    async def load_cart(self) -> None:
        lang = (await self.get_state(I18nState)).lang
        self.delete_open = self.deleting = False
        self.busy_line = ""
        forget_submission(self)
        self._view = "cart"
        who = await acting_parent(self)
        if who is None:
            self.groups, self.loaded = [], False
            return
        summary = await run_in_transaction(
            cart_service.cart_summary, parent_id=who.parent_id, lang=lang
        )
        self._apply(summary, lang)
        await sync_cart_count(self, self.line_count)

    @rx.event
    async def relang(self) -> None:
        """The language was switched: the same screen's text again in that language."""
        found = await new_language_for(self)
        if found is None:
            return
        who, lang = found
        if self._view == "summary":
            self._apply_priced(await self._priced(who.parent_id, lang), lang)
            rows = await run_in_transaction(promo_service.list_for_parent, parent_id=who.parent_id)
            self.promos = [promo_view(r, lang) for r in rows]
        else:
            summary = await run_in_transaction(
                cart_service.cart_summary, parent_id=who.parent_id, lang=lang
            )
            self._apply(summary, lang)

    @rx.event
    async def change_quantity(self, cart_id: str, delta: int) -> AsyncIterator[Any]:
        cart_id = str(cart_id)
        step = browser_step(delta)
        # Only a line on screen (the service checks it is the parent's); one change at a time.
        wanted = self._quantities.get(cart_id, 0) + step

        async def act(parent_id: int, _key: str, lang: str) -> Any:
            # The service changes only a line of the parent's (another parent's: not found)
            # and refuses a day whose cut-off has passed.
            return await run_in_transaction(
                cart_service.update_quantity,
                parent_id=parent_id,
                cart_id=browser_id(cart_id),
                quantity=wanted,
                lang=lang,
            )

        async def done(_parent_id: int, summary: Any, lang: str) -> Any:
            self._apply(summary, lang)
            return succeeded(tr("cart_quantity_updated", lang))

        async for event in confirm_once(
            self,
            busy="busy_line",
            busy_as=cart_id,
            ready=step != 0 and wanted >= 1 and cart_id in self._quantities,
            act=act,
            done=done,
        ):
            yield event

    @rx.event
    def ask_delete(self, cart_id: str) -> None:
        cart_id = str(cart_id)
        names = {line.cart_id: line.name for group in self.groups for line in group.lines}
        if cart_id not in names:
            return
        self.delete_id, self.delete_name = cart_id, names[cart_id]
        self.delete_open = True

    @rx.event
    async def confirm_delete(self) -> AsyncIterator[Any]:
        async for event in confirm_once(
            self,
            busy="deleting",
            ready=bool(self.delete_id),
            dialog="delete_open",
            once=["delete_cart_line", self.delete_id],
            act=self._delete_line,
            done=self._line_deleted,
        ):
            yield event

    async def _delete_line(self, parent_id: int, key: str, lang: str) -> Any:
        return await run_in_transaction(
            submit_once,
            parent_id=parent_id,
            key=key,
            action="delete_cart_line",
            fn=cart_service.delete_line,
            cart_id=browser_id(self.delete_id),
        )

    async def _line_deleted(self, parent_id: int, _result: Any, lang: str) -> Any:
        summary = await run_in_transaction(
            cart_service.cart_summary, parent_id=parent_id, lang=lang
        )
        self._apply(summary, lang)
        await sync_cart_count(self, self.line_count)
        self.delete_id = ""
        return succeeded(tr("cart_line_deleted", lang))

    @rx.event
    async def book_meal(self) -> Any:
        """The empty cart's 'Book Meal': the edit-profile step back to 1, then the menu."""
        steps = await self.get_state(ProfileStepState)
        steps._reset_steps()
        return rx.redirect(BOOK_ROUTE)

    # ---- the order summary --------------------------------------------------------------
    @rx.event
    async def load_summary(self) -> None:
        lang = (await self.get_state(I18nState)).lang
        self.promo_error = ""
        self.promo_busy = False
        self.promo_input = self.promo_code
        self._view = "summary"
        who = await acting_parent(self)
        if who is None:
            self.groups, self.loaded = [], False
            return
        self._apply_priced(await self._priced(who.parent_id, lang), lang)
        await sync_cart_count(self, self.line_count)
        rows = await run_in_transaction(promo_service.list_for_parent, parent_id=who.parent_id)
        self.promos = [promo_view(r, lang) for r in rows]

    @rx.event
    def set_promo_input(self, value: str) -> None:
        self.promo_input = str(value)[:40]
        self.promo_error = ""

    @rx.event
    async def apply_promo(self, form_data: dict | None = None) -> None:
        await self._apply_code(self.promo_input)

    @rx.event
    async def use_promo(self, code: str) -> None:
        self.promo_input = str(code)[:40]
        await self._apply_code(self.promo_input)

    async def _apply_code(self, code: str) -> None:
        lang = (await self.get_state(I18nState)).lang
        if self.promo_busy:
            return
        who = await acting_parent(self)
        if who is None:
            return
        self.promo_busy = True
        try:
            # The service says why a code is refused: unknown (or another parent's), not yet
            # valid, expired, used up, or the cart below its minimum.
            priced = await run_in_transaction(
                pricing.priced_summary,
                parent_id=who.parent_id,
                promo_code=code,
                donation_cents=self._donation() or None,
                lang=lang,
            )
        except DomainError as err:
            self.promo_busy = False
            self.promo_error = message(err, lang)
            return
        self.promo_code = priced.summary.promo_code or ""
        self.promo_input = self.promo_code
        self.promo_error = ""
        self._apply_priced(priced, lang)
        self.promo_busy = False

    @rx.event
    async def remove_promo(self) -> None:
        lang = (await self.get_state(I18nState)).lang
        self.promo_code = ""
        self.promo_input = ""
        self.promo_error = ""
        who = await acting_parent(self)
        if who is None:
            return
        self._apply_priced(await self._priced(who.parent_id, lang), lang)

    @rx.event
    async def set_donation(self, value: str) -> None:
        lang = (await self.get_state(I18nState)).lang
        self.donation_cents = value if value in DONATION_CHOICES else "0"
        who = await acting_parent(self)
        if who is None:
            return
        self._apply_priced(await self._priced(who.parent_id, lang), lang)
