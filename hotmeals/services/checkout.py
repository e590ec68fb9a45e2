"""The checkout (issue 9, `/payment` and ``order/getConvergeSessionToken`` + ``order/AddOrder``):
the parent's cart becomes one paid order.

Plain Python, no Reflex: the `/payment` screen and the /api/v1 order calls both call
``start_checkout``, then ``complete_checkout`` (the Lightbox's ``onApproval``) or
``checkout_declined`` (``onDeclined`` / ``onError`` / ``onCancelled``: only a hint, checked
with Converge), then ``order_confirmation``.

The payment service's three steps (``services/payments``: reserve -> call -> record):

1. **reserve** (``start_checkout``), one transaction under the lock of the parent's row: the
   cart is priced from the DATABASE (``services.cart.cart_summary``: today's catalogue, the
   cut-offs, the allergies; the promo code and the donation checked by ``services.promos`` and
   ``services.donations``), never from the client. The PAYABLE lines become a PENDING_PAYMENT
   ``Order`` (the charges, the rates and promo terms in force, every line with the prices it is
   sold at and the cart line it came from) and its ``Payment`` (purpose ORDER) of exactly
   ``order.total_pay_cents``. Flagged lines (cut-off passed, withdrawn, allergy) stay in the
   cart; a cart with nothing payable is refused, naming the day whose cut-off passed.
   The same cart content checked out again (two tabs, a double tap, a retry) finds the
   pending order (``Order.cart_fingerprint``) instead of writing another; a changed cart
   cancels the old pending order first. Every checkout is a new attempt (its own ``Payment``
   row, invoice and session: issue 21), opened only once Converge has been asked about the
   order's earlier attempts it has not had the last word on (open, or failed on a browser's
   word only): one it was paid for places the order instead, and a saved card's charge in
   flight is waited for, never doubled.
2. **call**: the Lightbox (``open_hosted_session``) or a saved card (``charge_stored_card``),
   no transaction open.
3. **record**: ``confirm_payment`` asks Converge (``txnquery``) and records the approval; in
   that transaction the ORDER handler (``services/payments/purposes.py``) calls
   ``place_or_cancel`` below: every line's cut-off still open -> PLACED, exactly the cart lines
   the order was made from deleted, the confirmation e-mail queued (once: only the move from
   PENDING_PAYMENT does it); a cut-off passed, or the order not pending any more -> the order is
   CANCELLED and the charge is VOIDED: at once by ``complete_checkout``, and by the periodic
   reconciliation (``void_orphan_payments``) if that did not happen. No money is kept without
   an order, no order is placed without money.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import and_, delete, exists, insert, or_
from sqlalchemy.engine import Engine
from sqlalchemy.orm import aliased
from sqlmodel import Session, select

from hotmeals.db.models import (
    AddOn,
    CartLine,
    CartLineAddOn,
    Child,
    Meal,
    MealOption,
    MenuDay,
    MenuOption,
    Order,
    OrderLine,
    OrderLineAddOn,
    Parent,
    Payment,
    Portion,
    PriceTier,
    Refund,
    StoredCard,
    Vendor,
)
from hotmeals.domain.charges import OrderTerms, check_promo, tax_label
from hotmeals.domain.cutoff import cutoff_at
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.orders import OrderStatus
from hotmeals.domain.orders import transition as order_transition
from hotmeals.domain.payments import PaymentState, Purpose
from hotmeals.domain.pricing import LineInput, giveback, price_line, tiers_to_text
from hotmeals.domain.pricing import PriceTier as TierRule
from hotmeals.i18n import normalize_lang, t
from hotmeals.payments.gateway import PaymentGateway
from hotmeals.services import clock, school_year
from hotmeals.services.payment_outcome import await_charge
from hotmeals.services.payments import (
    SESSION_WINDOW,
    HostedSession,
    ask_converge,
    charge_begun_card,
    confirm_payment,
    open_payment_attempt,
    refund,
    report_browser_failure,
    reserve_payment,
    steps,
)
from hotmeals.services.payments.records import (
    RESERVING,
    PaymentView,
    audit,
    get_payment,
    lock_row,
    payment_view,
)
from hotmeals.services.payments.runtime import actor_of, db

log = logging.getLogger("hotmeals.checkout")

PLACED, DECLINED, PENDING, VOIDED = "placed", "declined", "pending", "voided"
LIVE = (PaymentState.CREATED, PaymentState.UNKNOWN)
PLACED_STATUSES = (
    OrderStatus.PLACED,
    OrderStatus.PARTIALLY_CANCELLED,
    OrderStatus.DELIVERED,
)
CHARGE_FIELDS = (
    "meal_net_cents",
    "special_note_fees_cents",
    "processing_fee_cents",
    "tax_cents",
    "discount_cents",
    "school_donation_cents",
    "additional_charge_cents",
    "total_pay_cents",
)
VOID_REASON = "order not placed: the charge is voided"


@dataclass(frozen=True)
class CheckoutResult:
    status: str  # placed | declined | pending | voided
    order_id: int
    order_number: str  # HM-000123
    total_pay_cents: int
    message: str  # ready to show, in the parent's language
    payment_id: int


@dataclass(frozen=True)
class CheckoutStarted:
    order_id: int
    order_number: str
    payment_id: int
    amount_cents: int
    hosted: HostedSession | None  # the Lightbox session; None when a saved card was charged
    result: CheckoutResult | None  # set when a saved card was charged (or a charge is running)


def _now() -> datetime:
    return clock.now()  # through the module: tests move the clock


def _day(value: date | str, lang: str) -> str:
    """``Monday, March 2, 2026`` / ``lundi 2 mars 2026`` (Babel)."""
    from babel.dates import format_date

    day = date.fromisoformat(value) if isinstance(value, str) else value
    locale = "fr_CA" if normalize_lang(lang) == "fr" else "en_CA"
    return format_date(day, format="full", locale=locale)


# -- 1. reserve: the order and its payment, in one transaction -----------------------------------


def _priced_cart(
    session: Session, *, parent_id: int, promo_code: object, donation: object, lang: str, now
) -> tuple[dict, Any]:
    """The cart summary with the promo and the donation (as ``cart.priced_summary``), and the
    promo's row (the order records where its terms came from). Nothing payable: refused,
    naming the day whose cut-off passed when that is why."""
    from hotmeals.services import cart, donations, promos

    row = None
    promo = None
    if promo_code not in (None, ""):
        row = promos.usable_promo(session=session, parent_id=parent_id, code=promo_code, now=now)
        promo = promos.to_promo(row)
    gift = 0
    if donation not in (None, "", 0, "0"):
        gift = donations.parse_amount(donation)
    summary = cart.cart_summary(
        session=session,
        parent_id=parent_id,
        lang=lang,
        now=now,
        promo=promo,
        school_donation_cents=gift,
    )
    if summary["payable_count"] == 0:
        past = sorted(
            group["date"]
            for group in summary["groups"]
            for line in group["lines"]
            if datetime.fromisoformat(line["cutoff_at"]) <= now
        )
        if past:
            raise DomainError("orderpay_cutoff_passed", day=_day(past[0], lang))
        raise DomainError("cart_nothing_payable")
    if promo is not None:
        check_promo(promo, summary["charges"]["meal_net_cents"], lang)
    return summary, row


def _cart_rows(session: Session, cart_ids: list[int]) -> dict[int, dict]:
    """What an order line copies from each payable cart line, in three statements."""
    rows = session.exec(
        select(CartLine, MenuDay, Meal, Portion, MenuOption, MealOption)
        .join(MenuDay, MenuDay.id == CartLine.menu_day_id)
        .join(Meal, Meal.id == CartLine.meal_id)
        .join(Portion, Portion.id == CartLine.portion_id)
        .outerjoin(MenuOption, MenuOption.id == CartLine.menu_option_id)
        .outerjoin(MealOption, MealOption.id == CartLine.meal_option_id)
        .where(CartLine.id.in_(cart_ids))
    ).all()
    tiers: dict[int, list[TierRule]] = {}
    for tier in session.exec(
        select(PriceTier)
        .where(PriceTier.portion_id.in_(sorted({r[3].id for r in rows})))
        .order_by(PriceTier.portion_id, PriceTier.min_quantity)
    ).all():
        tiers.setdefault(tier.portion_id, []).append(
            TierRule(tier.min_quantity, tier.unit_price_cents)
        )
    addons: dict[int, list[AddOn]] = {}
    for cart_line_id, addon in session.exec(
        select(CartLineAddOn.cart_line_id, AddOn)
        .join(AddOn, AddOn.id == CartLineAddOn.addon_id)
        .where(CartLineAddOn.cart_line_id.in_(cart_ids), AddOn.is_active)
        .order_by(AddOn.id)
    ).all():
        addons.setdefault(cart_line_id, []).append(addon)
    out: dict[int, dict] = {}
    for line, menu_day, meal, portion, menu_option, meal_option in rows:
        line_addons = addons.get(line.id, [])
        line_tiers = tuple(tiers.get(portion.id, ()))
        price = price_line(
            LineInput(
                portion_tiers=line_tiers,
                quantity=line.quantity,
                option_cents=[o.price_cents for o in (menu_option, meal_option) if o],
                addon_cents=[a.price_cents for a in line_addons],
                special_note=line.special_note,
            )
        )
        out[line.id] = {
            "line": line,
            "menu_day": menu_day,
            "meal": meal,
            "portion": portion,
            "menu_option": menu_option,
            "meal_option": meal_option,
            "addons": line_addons,
            "tiers": line_tiers,
            "price": price,
        }
    return out


def _fingerprint(
    items: list[dict], *, promo_code: str | None, donation_cents: int, total: int
) -> str:
    """What the parent is paying for, to the cent: a second checkout of the same content is
    the same order."""
    content = sorted(
        [
            item["line"].id,
            item["line"].child_id,
            item["line"].menu_day_id,
            item["line"].meal_id,
            item["line"].portion_id,
            item["line"].quantity,
            item["line"].menu_option_id,
            item["line"].meal_option_id,
            [a.id for a in item["addons"]],
            item["line"].special_note or "",
            item["line"].allergy_ack or "",
            item["price"].total_cents,
        ]
        for item in items
    )
    text = json.dumps([content, promo_code or "", donation_cents, total], default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _write_order(
    session: Session,
    *,
    parent_id: int,
    summary: dict,
    promo_row: Any,
    items: list[dict],
    fingerprint: str,
    now: datetime,
) -> Order:
    from hotmeals.services import promos
    from hotmeals.settings import get_settings

    charges = summary["charges"]
    terms = OrderTerms(
        get_settings().charge_rates, promos.to_promo(promo_row) if promo_row else None
    )
    order = Order(
        number=f"HM-T{secrets.token_hex(6).upper()}",  # the id's number once it has one
        parent_id=parent_id,
        status=OrderStatus.PENDING_PAYMENT,
        promo_code_id=promo_row.id if promo_row else None,
        cart_fingerprint=fingerprint,
        created_at=now,
        updated_at=now,
        **{name: charges[name] for name in CHARGE_FIELDS},
        **terms.to_stored(),
    )
    session.add(order)
    session.flush()
    order.number = f"HM-{order.id:06d}"
    lines = []
    for item in items:
        cart_line, menu_day, meal, portion = (
            item["line"],
            item["menu_day"],
            item["meal"],
            item["portion"],
        )
        menu_option, meal_option, price = item["menu_option"], item["meal_option"], item["price"]
        lines.append(
            OrderLine(
                order_id=order.id,
                child_id=cart_line.child_id,
                menu_day_id=menu_day.id,
                vendor_id=menu_day.vendor_id,
                meal_id=meal.id,
                portion_id=portion.id,
                menu_option_id=cart_line.menu_option_id,
                meal_option_id=cart_line.meal_option_id,
                meal_date=menu_day.meal_date,
                meal_name=meal.name_en[:120],
                size=portion.size,
                menu_option_name=menu_option.name_en if menu_option else "",
                meal_option_name=meal_option.name_en if meal_option else "",
                quantity=cart_line.quantity,
                price_tiers=tiers_to_text(item["tiers"]),
                unit_price_cents=price.unit_cents,
                menu_option_cents=menu_option.price_cents if menu_option else 0,
                meal_option_cents=meal_option.price_cents if meal_option else 0,
                special_note=cart_line.special_note,
                special_note_fee_cents=price.special_note_fee_cents,
                line_total_cents=price.total_cents,
                allergy_ack=cart_line.allergy_ack,
                allergy_ack_at=cart_line.allergy_ack_at,
                cart_line_id=cart_line.id,
            )
        )
    # One executemany per table whatever the number of lines (the ORM would insert row by
    # row on SQLite to read each id back); the ids are read back in one statement.
    table: Any = OrderLine
    session.execute(insert(table.__table__), [line.model_dump(exclude={"id"}) for line in lines])
    ids = dict(
        session.exec(
            select(OrderLine.cart_line_id, OrderLine.id).where(OrderLine.order_id == order.id)
        ).all()
    )
    sold = [
        {
            "order_line_id": ids[item["line"].id],
            "addon_id": addon.id,
            "name": addon.name_en[:80],
            "price_cents": addon.price_cents,
        }
        for item in items
        for addon in item["addons"]
    ]
    if sold:
        addon_table: Any = OrderLineAddOn
        session.execute(insert(addon_table.__table__), sold)
    session.add(order)
    session.flush()
    audit(
        session,
        actor=actor_of(parent_id),
        kind="order.created",
        entity="order",
        entity_id=order.id or 0,
        data={
            "number": order.number,
            "lines": len(lines),
            "total_pay_cents": order.total_pay_cents,
            "promo": order.promo_code,
        },
    )
    return order


def _abandon(session: Session, order: Order, now: datetime, why: str) -> None:
    order.status = order_transition(order.status, OrderStatus.CANCELLED)
    order.updated_at = now
    session.add(order)
    audit(
        session,
        actor="system",
        kind="order.abandoned",
        entity="order",
        entity_id=order.id or 0,
        data={"number": order.number, "why": why},
    )


def _reserve_checkout(
    session: Session,
    *,
    parent_id: int,
    promo_code: object,
    donation: object,
    card_id: int | None,
    lang: str,
    asked: frozenset[int] = frozenset(),
) -> dict:
    """Step 1, under the lock of the parent's row: two checkouts of one parent run one after
    the other, so the second finds what the first wrote. Returns the order and either the
    earlier attempts to ask Converge about first (``ask``: none of them in ``asked``), the
    attempt in flight to report on (``settle``), or the new attempt (``payment_id``, and
    ``card_sale`` when a saved card is to be charged)."""
    parent = lock_row(session, Parent, parent_id)
    if parent is None:
        raise DomainError("payment_order_not_found")
    now = _now()
    if card_id is not None:
        card = session.get(StoredCard, card_id)
        if card is None or card.parent_id != parent_id or card.deleted_at is not None:
            raise DomainError("card_not_found", field="card_id")
    summary, promo_row = _priced_cart(
        session,
        parent_id=parent_id,
        promo_code=promo_code,
        donation=donation,
        lang=lang,
        now=now,
    )
    payable = [
        line["cart_id"] for group in summary["groups"] for line in group["lines"] if line["payable"]
    ]
    found = _cart_rows(session, payable)
    items = [found[cart_id] for cart_id in payable if cart_id in found]
    school_year.require_confirmed(
        session, parent_id=parent_id, child_ids=[i["line"].child_id for i in items], now=now
    )
    # The order's lines add up to what the summary charges (both read the same rows).
    net = sum(item["price"].meal_cents for item in items)
    if len(items) != len(payable) or net != summary["charges"]["meal_net_cents"]:
        raise DomainError("cart_nothing_payable")  # the cart changed under us: try again
    charges = summary["charges"]
    fingerprint = _fingerprint(
        items,
        promo_code=promo_row.code if promo_row else None,
        donation_cents=charges["school_donation_cents"],
        total=charges["total_pay_cents"],
    )

    waiting = session.exec(
        select(Order)
        .where(
            Order.parent_id == parent_id,
            Order.status.in_([OrderStatus.PENDING_PAYMENT, OrderStatus.PAYMENT_FAILED]),
        )
        .order_by(Order.id)
    ).all()
    order: Order | None = None
    for old in waiting:
        if order is None and old.cart_fingerprint == fingerprint:
            order = old
        else:
            _abandon(session, old, now, "cart changed")
    if order is None:
        order = _write_order(
            session,
            parent_id=parent_id,
            summary=summary,
            promo_row=promo_row,
            items=items,
            fingerprint=fingerprint,
            now=now,
        )
    common = {"order_id": order.id, "order_number": order.number}
    # Every earlier attempt of this order that Converge has not had the last word on (open,
    # in flight, or failed on a browser's word only) is asked about before a new one opens:
    # its sale, if any, pays for the order (issue 21).
    attempts = session.exec(
        select(Payment)
        .where(
            Payment.order_id == order.id,
            Payment.purpose == Purpose.ORDER,
            Payment.duplicate_of_id.is_(None),
        )
        .order_by(Payment.id)
    ).all()
    to_ask = [
        p.id
        for p in attempts
        if p.state != PaymentState.APPROVED and p.closed_at is None and p.id not in asked
    ]
    if to_ask:
        return {**common, "ask": to_ask}
    in_flight = [p for p in attempts if p.state in (PaymentState.UNKNOWN, PaymentState.APPROVED)]
    if in_flight:  # a charge may be under way (or was just recorded): never a second one
        return {**common, "ask": [], "settle": in_flight[-1].id}
    # One attempt, one payment row, one invoice: every session or saved-card charge is new.
    payment = reserve_payment(
        session,
        parent_id=parent_id,
        purpose=Purpose.ORDER,
        amount_cents=order.total_pay_cents,
        order_id=order.id,
    )
    card_sale = None
    if card_id is not None:
        # In flight from the moment it is written: a second tab finds it UNKNOWN and waits.
        card_sale = steps.begin_card_sale(
            session,
            payment_id=payment.id,
            parent_id=parent_id,
            card_id=card_id,
            actor=actor_of(parent_id),
        )
    return {
        **common,
        "ask": [],
        "payment_id": payment.id,
        "amount_cents": payment.amount_cents,
        "card_sale": card_sale,
    }


async def start_checkout(
    *,
    parent_id: int,
    promo_code: object = None,
    donation: object = None,
    card_id: int | None = None,
    save_card: bool = False,
    lang: str = "en",
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> CheckoutStarted:
    """The parent pays their cart: the order (or the pending one of the same cart) and a new
    attempt to pay it, then the Lightbox session, or the saved card ``card_id`` charged at
    once (then ``result`` says what happened). Earlier attempts of the same order are first
    asked about at Converge: one that was paid places the order and no new attempt opens."""
    lang = normalize_lang(lang)
    asked: set[int] = set()
    for _ in range(5):  # each turn asks about attempts another tab opened meanwhile
        reserved = await db(
            engine,
            _reserve_checkout,
            parent_id=parent_id,
            promo_code=promo_code,
            donation=donation,
            card_id=card_id,
            lang=lang,
            asked=frozenset(asked),
        )
        if not reserved["ask"]:
            break
        for attempt in reserved["ask"]:
            found = await ask_converge(
                payment_id=attempt, close_after=SESSION_WINDOW, engine=engine, gateway=gateway
            )
            if not found.answered:
                # Converge cannot say whether the earlier attempt was paid: no new one now.
                raise DomainError("payment_unavailable")
            asked.add(attempt)
            if found.view.state == PaymentState.APPROVED:
                result = await _settle(
                    found.view, parent_id=parent_id, lang=lang, engine=engine, gateway=gateway
                )
                return _started(reserved, found.view, result)
    else:  # pragma: no cover - five rounds of new tabs while asking
        raise DomainError("payment_unavailable")
    if "settle" in reserved:
        # Another tap is charging this order (a saved card): answer its outcome ("placed"),
        # not "we are confirming your payment" while it is on its way (issue 21).
        await await_charge(payment_id=reserved["settle"], engine=engine)
        view = await db(engine, _view, payment_id=reserved["settle"], parent_id=parent_id)
        result = await _settle(view, parent_id=parent_id, lang=lang, engine=engine, gateway=gateway)
        return _started(reserved, view, result)
    payment_id = reserved["payment_id"]
    if reserved["card_sale"] is not None:
        token, amount, invoice = reserved["card_sale"]
        view = await charge_begun_card(
            payment_id=payment_id,
            token=token,
            amount_cents=amount,
            invoice=invoice,
            actor=actor_of(parent_id),
            engine=engine,
            gateway=gateway,
        )
        result = await _settle(view, parent_id=parent_id, lang=lang, engine=engine, gateway=gateway)
        return _started(reserved, view, result)
    hosted = await open_payment_attempt(
        payment_id=payment_id,
        parent_id=parent_id,
        card_id=None,
        save_card=save_card,
        engine=engine,
        gateway=gateway,
    )
    assert isinstance(hosted, HostedSession)
    return CheckoutStarted(
        order_id=reserved["order_id"],
        order_number=reserved["order_number"],
        payment_id=payment_id,
        amount_cents=reserved["amount_cents"],
        hosted=hosted,
        result=None,
    )


def _started(reserved: dict, view: PaymentView, result: CheckoutResult) -> CheckoutStarted:
    return CheckoutStarted(
        order_id=reserved["order_id"],
        order_number=reserved["order_number"],
        payment_id=view.id,
        amount_cents=view.amount_cents,
        hosted=None,
        result=result,
    )


# -- 3. record: placing the order on approval (called by the ORDER payment handler) -------------


def _closed_days(session: Session, order_id: int, now: datetime) -> list[date]:
    from hotmeals.services.menu import cutoff_rule

    rows = session.exec(
        select(OrderLine.meal_date, Vendor)
        .join(Vendor, Vendor.id == OrderLine.vendor_id)
        .where(OrderLine.order_id == order_id)
    ).all()
    return sorted({day for day, vendor in rows if now >= cutoff_at(cutoff_rule(vendor), day)})


def place_or_cancel(session: Session, order: Order, payment: Payment) -> bool:
    """The approval of ``payment`` for a PENDING_PAYMENT ``order`` (locked by the caller, same
    transaction as the recorded approval). Every line's cut-off still open: PLACED, the cart
    lines it was made from deleted, the confirmation e-mail queued; returns True. Otherwise
    the order is CANCELLED (the charge is voided by ``complete_checkout`` or the
    reconciliation); returns False."""
    now = _now()
    closed = _closed_days(session, order.id or 0, now)
    if closed:
        order.status = order_transition(order.status, OrderStatus.CANCELLED)
        order.updated_at = now
        session.add(order)
        audit(
            session,
            actor="system",
            kind="order.cancelled_past_cutoff",
            entity="order",
            entity_id=order.id or 0,
            data={
                "payment_id": payment.id,
                "number": order.number,
                "days": [d.isoformat() for d in closed],
            },
        )
        return False
    order.status = order_transition(order.status, OrderStatus.PLACED)
    order.placed_at = now
    order.updated_at = now
    session.add(order)
    from_cart = (
        select(OrderLine.cart_line_id)
        .where(OrderLine.order_id == order.id, OrderLine.cart_line_id.is_not(None))
        .scalar_subquery()
    )
    session.execute(
        delete(CartLineAddOn)
        .where(CartLineAddOn.cart_line_id.in_(from_cart))
        .execution_options(synchronize_session=False)
    )
    session.execute(
        delete(CartLine)
        .where(CartLine.id.in_(from_cart), CartLine.parent_id == order.parent_id)
        .execution_options(synchronize_session=False)
    )
    audit(
        session,
        actor="system",
        kind="order.placed",
        entity="order",
        entity_id=order.id or 0,
        data={"payment_id": payment.id, "number": order.number},
    )
    session.flush()
    _queue_confirmation_mail(session, order)
    return True


def _queue_confirmation_mail(session: Session, order: Order) -> None:
    from hotmeals.services import mail, notifications

    parent = session.get(Parent, order.parent_id)
    if parent is None or not parent.email:
        return
    if not notifications.is_enabled(
        session=session, parent_id=order.parent_id, kind="order_confirmation"
    ):
        return  # the parent turned order confirmations off (settings, notifications)
    lang = normalize_lang(parent.language)
    data = _confirmation(session, order, lang)
    lines = []
    for group in data["groups"]:
        lines.append(t("orderpay.mail_group", lang, child=group["child_name"], day=group["day"]))
        for line in group["lines"]:
            extras = [x for x in (line["menu_option"], line["meal_option"]) if x]
            extras += [a["name"] for a in line["addons"]]
            text = t(
                "orderpay.mail_line",
                lang,
                quantity=line["quantity"],
                meal=line["name"],
                size=line["size_label"],
                amount=line["line_total"],
            )
            if extras:
                text += "\n    " + t("orderpay.mail_with", lang, items=", ".join(extras))
            if line["special_note"]:
                text += "\n    " + t("orderpay.mail_note", lang, note=line["special_note"])
            lines.append(text)
        lines.append("")
    charges = [
        t("orderpay.mail_charge", lang, label=c["label"], amount=c["amount"])
        for c in data["charge_lines"]
        if c["name"] != "total_pay_cents"  # the body says "Total paid"
    ]
    mail.send_templated(
        session=session,
        to=parent.email,
        template="order_confirmation",
        language=lang,
        kind="order_confirmation",
        name=parent.first_name,
        number=order.number,
        lines="\n".join(lines).rstrip(),
        charges="\n".join(charges),
        total=data["total_pay"],
        giveback=data["giveback"]["message"],
    )


# -- what the parent is told -----------------------------------------------------------------


def _view(session: Session, *, payment_id: int, parent_id: int | None) -> PaymentView:
    payment = get_payment(session, payment_id, parent_id)
    if payment.purpose != Purpose.ORDER or payment.order_id is None:
        raise DomainError("payment_not_found", field="payment_id")
    return payment_view(session, payment)


def _order_state(session: Session, *, payment_id: int) -> dict:
    payment = session.get(Payment, payment_id)
    assert payment is not None and payment.order_id is not None
    order = session.get(Order, payment.order_id)
    assert order is not None
    paying = _paying_payment_id(session, order)
    closed = _closed_days(session, order.id or 0, _now()) if order.placed_at is None else []
    return {
        "order_id": order.id,
        "number": order.number,
        "status": order.status,
        "total": order.total_pay_cents,
        "paid_by_this": paying == payment_id,
        "closed": [d.isoformat() for d in closed],
    }


def _paying_payment_id(session: Session, order: Order) -> int | None:
    """The approved payment that placed ``order`` (the first approval recorded); None when
    the order was never placed."""
    if order.placed_at is None or OrderStatus(order.status) not in (
        *PLACED_STATUSES,
        OrderStatus.CANCELLED,
    ):
        return None
    return session.exec(
        select(Payment.id)
        .where(
            Payment.order_id == order.id,
            Payment.purpose == Purpose.ORDER,
            Payment.state == PaymentState.APPROVED,
            Payment.duplicate_of_id.is_(None),
        )
        .order_by(Payment.verified_at, Payment.id)
        .limit(1)
    ).first()


def _result(view: PaymentView, state: dict, lang: str, status: str, message: str):
    return CheckoutResult(
        status=status,
        order_id=state["order_id"],
        order_number=state["number"],
        total_pay_cents=state["total"],
        message=message,
        payment_id=view.id,
    )


def _result_now(view: PaymentView, state: dict, lang: str) -> CheckoutResult | None:
    """The result when nothing is left to do (None: an approval to void)."""
    number = state["number"]
    if view.state == PaymentState.APPROVED:
        if state["paid_by_this"]:
            return _result(view, state, lang, PLACED, t("orderpay.placed", lang, number=number))
        return None
    if view.state in LIVE:
        return _result(view, state, lang, PENDING, t("orderpay.pending", lang, number=number))
    reason = view.result_message or view.state
    return _result(view, state, lang, DECLINED, t("orderpay.declined", lang, reason=reason))


async def _void(payment_id: int, *, engine: Engine | None, gateway: PaymentGateway | None) -> bool:
    """Refund an approved order payment in full (a void before settlement). True when the
    money is back or on its way; False when Converge refused (reconciliation tries again)."""
    try:
        result = await refund(
            amount_cents=await db(engine, _refundable, payment_id=payment_id),
            reason=VOID_REASON,
            payment_id=payment_id,
            actor="system",
            engine=engine,
            gateway=gateway,
        )
    except DomainError as err:  # nothing left to refund: voided already (another call)
        if err.code in ("refund_exceeds_paid", "invalid_amount"):
            return True
        raise
    return not result.failed


def _refundable(session: Session, *, payment_id: int) -> int:
    from hotmeals.services.payments.records import refundable_cents

    payment = session.get(Payment, payment_id)
    return refundable_cents(session, payment) if payment else 0


async def _settle(
    view: PaymentView,
    *,
    parent_id: int,
    lang: str,
    engine: Engine | None,
    gateway: PaymentGateway | None,
) -> CheckoutResult:
    state = await db(engine, _order_state, payment_id=view.id)
    done = _result_now(view, state, lang)
    if done is not None:
        return done
    # Approved, but the order was not placed by this payment: give the money back now.
    back = await _void(view.id, engine=engine, gateway=gateway)
    amount = format_money(view.amount_cents, lang)
    key = "orderpay.voided" if back else "orderpay.void_later"
    if back and state["status"] in PLACED_STATUSES:  # paid already by another attempt
        message = t("orderpay.duplicate_voided", lang, number=state["number"], amount=amount)
    elif state["closed"]:
        key += "_cutoff"
        message = t(
            key, lang, number=state["number"], amount=amount, day=_day(state["closed"][0], lang)
        )
    else:
        message = t(key, lang, number=state["number"], amount=amount)
    return _result(view, state, lang, VOIDED, message)


async def complete_checkout(
    *,
    parent_id: int,
    payment_id: int,
    txn_id: str,
    lang: str = "en",
    card_token: str | None = None,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> CheckoutResult:
    """AddOrder, after the Lightbox's ``onApproval``: Converge confirms the sale
    (``confirm_payment``), the order is placed in the same transaction, or, when it cannot be
    any more (a cut-off passed, the cart was checked out again differently), the charge is
    voided at once. ``card_token``: the Lightbox's ``ssl_token`` when the parent ticked "save
    this card" (saved once the order is placed, only if it is the card that paid; the order
    stands either way). Another parent's payment: ``payment_not_found``. Safe to repeat."""
    lang = normalize_lang(lang)
    await db(engine, _view, payment_id=payment_id, parent_id=parent_id)  # the parent's order?
    try:
        view = await confirm_payment(
            payment_id=payment_id,
            txn_id=txn_id,
            parent_id=parent_id,
            engine=engine,
            gateway=gateway,
        )
    except DomainError as err:
        if err.code != "payment_already_paid":
            raise
        # A second sale for an attempt already paid: ``confirm_payment`` recorded it as a row
        # of its own and voided it when Converge vouched for it (issue 21).
        duplicate = await db(engine, _duplicate_of, payment_id=payment_id, txn_id=txn_id)
        if duplicate is None:
            raise  # not a sale of this attempt: nothing of ours was voided
        view = await db(engine, _view, payment_id=payment_id, parent_id=parent_id)
        state = await db(engine, _order_state, payment_id=payment_id)
        amount = format_money(view.amount_cents, lang)
        return _result(
            view,
            state,
            lang,
            VOIDED,
            t("orderpay.duplicate_voided", lang, number=state["number"], amount=amount),
        )
    result = await _settle(view, parent_id=parent_id, lang=lang, engine=engine, gateway=gateway)
    if result.status == PLACED and card_token:
        from hotmeals.services import cards

        try:
            await cards.save_card(
                parent_id=parent_id,
                token=card_token,
                expect_masked=view.card_masked,
                engine=engine,
                gateway=gateway,
            )
        except DomainError:
            pass  # paid and placed all the same; the card is just not saved
    return result


def _duplicate_of(session: Session, *, payment_id: int, txn_id: str) -> int | None:
    """The duplicate sale row recorded for ``txn_id`` under ``payment_id``, if any."""
    return session.exec(
        select(Payment.id).where(
            Payment.duplicate_of_id == payment_id, Payment.converge_txn_id == txn_id
        )
    ).first()


async def checkout_declined(
    *,
    parent_id: int,
    payment_id: int,
    message: str,
    outcome: str = "declined",
    lang: str = "en",
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> CheckoutResult:
    """OrderDeclined: the Lightbox's ``onDeclined`` / ``onError`` / ``onCancelled``
    (``outcome``: declined, error or cancelled). Only a hint: Converge is asked first
    (issue 21). A sale it made places the order (or is voided, as for ``AddOrder``);
    otherwise the attempt is DECLINED on the browser's word (still open: the next checkout
    and the reconciliation ask again), the order PAYMENT_FAILED, the cart untouched. The
    message says what is known: a decline Converge shows no charge for is a decline; an
    error, or no answer from Converge, is "we could not confirm the payment"."""
    lang = normalize_lang(lang)
    await db(engine, _view, payment_id=payment_id, parent_id=parent_id)
    reason = str(message or "")[:120].strip() or "DECLINED"
    asked = await report_browser_failure(
        payment_id=payment_id,
        parent_id=parent_id,
        message=reason,
        engine=engine,
        gateway=gateway,
    )
    view = asked.view
    if view.state == PaymentState.APPROVED:
        return await _settle(view, parent_id=parent_id, lang=lang, engine=engine, gateway=gateway)
    state = await db(engine, _order_state, payment_id=payment_id)
    if view.state in LIVE:  # a saved card's charge in flight: the browser knows nothing
        return _result_now(view, state, lang) or _result(
            view, state, lang, PENDING, t("orderpay.pending", lang, number=state["number"])
        )
    if asked.answered and outcome == "declined":
        text = t("orderpay.declined", lang, reason=view.result_message or reason)
    else:
        text = t("orderpay.not_confirmed", lang, number=state["number"])
    return _result(view, state, lang, DECLINED, text)


# -- reconciliation: no money kept without an order ----------------------------------------------


def orphan_payments(session: Session) -> list[int]:
    """Approved order payments that paid for nothing and are not refunded: the order was never
    placed and is cancelled (a cut-off passed before the approval, the cart was checked out
    again), or another payment placed it first."""
    other = aliased(Payment)
    earlier = exists().where(
        other.order_id == Payment.order_id,
        other.purpose == Purpose.ORDER,
        other.state == PaymentState.APPROVED,
        other.duplicate_of_id.is_(None),
        other.id != Payment.id,
        or_(
            other.verified_at < Payment.verified_at,
            and_(other.verified_at == Payment.verified_at, other.id < Payment.id),
        ),
    )
    refunded = select(Refund.payment_id).where(Refund.state.in_(list(RESERVING)))
    rows = session.exec(
        select(Payment.id)
        .join(Order, Order.id == Payment.order_id)
        .where(
            Payment.purpose == Purpose.ORDER,
            Payment.state == PaymentState.APPROVED,
            Payment.duplicate_of_id.is_(None),  # voided on their own (payments service)
            Payment.id.not_in(refunded),
            or_(
                and_(Order.status == OrderStatus.CANCELLED, Order.placed_at.is_(None)),
                earlier,
            ),
        )
        .order_by(Payment.id)
    ).all()
    return list(rows)


async def void_orphan_payments(
    *, engine: Engine | None = None, gateway: PaymentGateway | None = None
) -> list[int]:
    """The periodic job's part (``payments.reconcile_round``): void every orphan payment.
    Returns the ids it voided (or started to)."""
    ids = await db(engine, orphan_payments)
    done = []
    for payment_id in ids:
        try:
            if await _void(payment_id, engine=engine, gateway=gateway):
                done.append(payment_id)
        except Exception:  # noqa: BLE001 - one failure must not stop the round
            log.exception("payment %s: could not void an orphan order payment", payment_id)
    return done


# -- the confirmation screen ---------------------------------------------------------------------


def _confirmation(session: Session, order: Order, lang: str) -> dict:
    french = normalize_lang(lang) == "fr"
    rows = session.exec(
        select(OrderLine, Child, Meal, MenuOption, MealOption)
        .join(Child, Child.id == OrderLine.child_id)
        .outerjoin(Meal, Meal.id == OrderLine.meal_id)
        .outerjoin(MenuOption, MenuOption.id == OrderLine.menu_option_id)
        .outerjoin(MealOption, MealOption.id == OrderLine.meal_option_id)
        .where(OrderLine.order_id == order.id)
        .order_by(Child.first_name, Child.id, OrderLine.meal_date, OrderLine.id)
    ).all()
    addons: dict[int, list[dict]] = {}
    if rows:
        for line_addon, addon in session.exec(
            select(OrderLineAddOn, AddOn)
            .outerjoin(AddOn, AddOn.id == OrderLineAddOn.addon_id)
            .where(OrderLineAddOn.order_line_id.in_([r[0].id for r in rows]))
            .order_by(OrderLineAddOn.id)
        ).all():
            name = addon.name_fr if (french and addon) else line_addon.name
            addons.setdefault(line_addon.order_line_id, []).append(
                {
                    "name": name,
                    "price_cents": line_addon.price_cents,
                    "price": format_money(line_addon.price_cents, lang),
                }
            )
    groups: dict[tuple[int, date], dict] = {}
    meals = 0
    for line, child, meal, menu_option, meal_option in rows:
        meals += line.quantity - line.cancelled_quantity
        key = (child.id or 0, line.meal_date)
        if key not in groups:
            groups[key] = {
                "child_id": child.id,
                "child_name": f"{child.first_name} {child.last_name}",
                "date": line.meal_date.isoformat(),
                "day": _day(line.meal_date, lang),
                "lines": [],
            }
        groups[key]["lines"].append(
            {
                "line_id": line.id,
                "meal_id": line.meal_id,
                "name": meal.name_fr if (french and meal) else line.meal_name,
                "size": line.size,
                "size_label": t(f"portion_{line.size}", lang)
                if line.size in ("small", "large")
                else line.size,
                "menu_option": (menu_option.name_fr if (french and menu_option) else None)
                or line.menu_option_name,
                "meal_option": (meal_option.name_fr if (french and meal_option) else None)
                or line.meal_option_name,
                "addons": addons.get(line.id or 0, []),
                "special_note": line.special_note or "",
                "allergy_ack": line.allergy_ack or "",
                "quantity": line.quantity,
                "unit_price_cents": line.unit_price_cents,
                "line_total_cents": line.line_total_cents,
                "line_total": format_money(line.line_total_cents, lang),
                "status": line.status,
            }
        )
    charges = {name: getattr(order, name) for name in CHARGE_FIELDS}
    labels = (
        ("meal_net_cents", "orderpay.charge_meal_net"),
        ("special_note_fees_cents", "orderpay.charge_note_fees"),
        ("discount_cents", "orderpay.charge_discount"),
        ("processing_fee_cents", "orderpay.charge_processing"),
        ("tax_cents", "orderpay.charge_tax"),
        ("school_donation_cents", "orderpay.charge_donation"),
        ("additional_charge_cents", "orderpay.charge_additional"),
        ("total_pay_cents", "orderpay.charge_total"),
    )
    charge_lines = [
        {
            "name": name,
            "label": tax_label(order.tax_bps, lang) if name == "tax_cents" else t(key, lang),
            "cents": -charges[name] if name == "discount_cents" else charges[name],
            "amount": format_money(
                -charges[name] if name == "discount_cents" else charges[name], lang
            ),
        }
        for name, key in labels
        if charges[name] or name in ("meal_net_cents", "tax_cents", "total_pay_cents")
    ]
    school, nutrition = giveback(meals)
    return {
        "order_id": order.id,
        "number": order.number,
        "status": order.status,
        "status_label": t(f"orderpay.status_{order.status}", lang),
        "created_at": order.created_at.isoformat(),
        "placed_at": order.placed_at.isoformat() if order.placed_at else None,
        "promo_code": order.promo_code,
        "groups": list(groups.values()),
        "meal_count": meals,
        "charges": charges,
        "tax_bps": order.tax_bps,  # the order's stored rate (issue 20)
        "charge_lines": charge_lines,
        "giveback": {
            "school_cents": school,
            "nutrition_cents": nutrition,
            "message": t(
                "giveback_line",
                lang,
                school=format_money(school, lang),
                nutrition=format_money(nutrition, lang),
            ),
        },
        "total_pay_cents": order.total_pay_cents,
        "total_pay": format_money(order.total_pay_cents, lang),
    }


def order_confirmation(
    session: Session, *, parent_id: int, order_id: int, lang: str = "en"
) -> dict:
    """The confirmation screen (and the e-mail): the order's number and status, its lines by
    child and date as sold (name, size, options, add-ons, note, quantity, line total), the
    charges of docs/product.md §3, what it gives back and the total paid. Another parent's
    order: ``payment_order_not_found``."""
    if isinstance(order_id, bool) or not isinstance(order_id, int):
        raise DomainError("payment_order_not_found", field="order_id")
    order = session.get(Order, order_id)
    if order is None or order.parent_id != parent_id:
        raise DomainError("payment_order_not_found", field="order_id")
    return _confirmation(session, order, normalize_lang(lang))


def placed_order_confirmation(
    session: Session, *, parent_id: int, number: str, lang: str = "en"
) -> dict:
    """The confirmation screen's own address (issue 20): the order named by its number, as
    ``order_confirmation`` shows it, once it has been paid. Another parent's order, an unknown
    number or an order never paid (a checkout still open, a declined card):
    ``payment_order_not_found``, the same answer for each so a number reveals nothing."""
    if not isinstance(number, str) or not 0 < len(number.strip()) <= 20:
        raise DomainError("payment_order_not_found", field="order")
    order = session.exec(select(Order).where(Order.number == number.strip().upper())).first()
    if order is None or order.parent_id != parent_id or order.placed_at is None:
        raise DomainError("payment_order_not_found", field="order")
    return _confirmation(session, order, normalize_lang(lang))
