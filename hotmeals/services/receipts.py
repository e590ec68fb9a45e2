"""Receipts: every paid order, every applied change of an order and every
donation has one, in the parent's language, as data (the receipt page and the API) and as a
PDF (``services/receipt_pdf.py``).

**Money comes from what was stored, never from today's catalogue**: an order's charge lines
are the order's stored charges (``Order.meal_net_cents`` ... ``total_pay_cents``, the tax with
the rate the order stored); its lines show the prices each line was sold at; a change shows the
amount its payment charged or its refunds gave back; a donation its amount. What was refunded
is the sum of the succeeded refund rows (``Refund``), listed with their dates; refunds still
under way are listed, not counted.

**Which receipt**: ``order`` is the order number (``HM-000123``); with ``change`` (the change's
id) the receipt of that applied change of the order; ``donation`` is a donation's id. Another
parent's order, change or donation, or one that was never paid, is ``receipt_not_found``: the
same answer as a number that does not exist.

The HST registration number is the setting ``HOTMEALS_HST_NUMBER``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import date, datetime
from typing import Any

from sqlmodel import Session, col, select

from hotmeals.db.models import (
    AddOn,
    Child,
    Donation,
    Meal,
    MealOption,
    MenuDay,
    MenuOption,
    Order,
    OrderChange,
    OrderChangeLine,
    OrderLine,
    OrderLineAddOn,
    Parent,
    Payment,
    Refund,
    School,
)
from hotmeals.domain.charges import (
    ALWAYS_SHOWN,
    CHARGE_LINES,
    charge_label,
    shown_cents,
    tax_label,
)
from hotmeals.domain.cutoff import TORONTO
from hotmeals.domain.dates import full_day
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.orders import LineStatus
from hotmeals.domain.payment_states import (
    DonationStatus,
    PaymentMethod,
    PaymentState,
    RefundKind,
    RefundState,
)
from hotmeals.domain.pricing import giveback
from hotmeals.domain.refunds import change_refund_reason
from hotmeals.i18n import normalize_lang, t
from hotmeals.services.ids import known_id, rows_by_id
from hotmeals.services.ordering.labels import size_label
from hotmeals.services.ordering.loaded_order import LoadedOrder, load_order
from hotmeals.services.ordering.queries import HISTORY_STATUSES
from hotmeals.settings import get_settings

ORDER, CHANGE, DONATION = "order", "change", "donation"
_NUMBER = re.compile(r"^[A-Z]{2}-[0-9]{1,12}$")
_ID_MAX = 2**31 - 1
# The charge lines shown as a total (an order's; a change's charged or refunded difference).
TOTALS = ("total_pay_cents", "charged_cents", "refund_due_cents")


def _missing() -> DomainError:
    return DomainError("receipt_not_found", field="order")


def _id(value: object) -> int:
    if isinstance(value, bool):
        raise _missing()
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or not 1 <= value <= _ID_MAX:
        raise _missing()
    return value


def _local_day(moment: datetime) -> date:
    return moment.astimezone(TORONTO).date()


def _money(cents: int, lang: str) -> dict[str, Any]:
    return {"cents": cents, "amount": format_money(cents, lang)}


def _charge(name: str, label: str, cents: int, lang: str) -> dict:
    return {"name": name, "label": label, **_money(cents, lang)}


def _card(payment: Payment | None, lang: str) -> str:
    """The card that paid ("VISA 40**…0002"), or "Family credit" for credit's share."""
    if payment is None:
        return ""
    if payment.method == PaymentMethod.CREDIT:
        return t("credit.summary_credit", lang)
    return f"{payment.card_brand or ''} {payment.card_masked or ''}".strip()


def _paid_row(payment: Payment, lang: str) -> dict[str, Any]:
    """A payment as a receipt lists it: its day, card, approval code, invoice and amount."""
    day = _local_day(payment.verified_at or payment.created_at)
    return {
        "date": day.isoformat(),
        "day": full_day(day, lang),
        "card": _card(payment, lang),
        "approval_code": payment.approval_code or "",
        "invoice_number": payment.invoice_number,
        **_money(payment.amount_cents, lang),
    }


def _refund_rows(refunds: list[Refund], lang: str) -> tuple[list[dict], int]:
    """Succeeded refunds and those still under way (not counted); a failed try that was sent
    again is the same refund: not listed twice."""
    out, done = [], 0
    for r in refunds:
        if r.state == RefundState.FAILED:
            continue
        if r.state == RefundState.SUCCEEDED:
            done += r.amount_cents
        day = _local_day(r.created_at)
        out.append(
            {
                "refund_id": r.id,
                "date": day.isoformat(),
                "day": full_day(day, lang),
                "state": r.state,
                "state_label": t(
                    "receipt.refund_to_credit"
                    if r.kind == RefundKind.CREDIT
                    else "receipt.refund_done"
                    if r.state == RefundState.SUCCEEDED
                    else "receipt.refund_pending",
                    lang,
                ),
                **_money(r.amount_cents, lang),
            }
        )
    return out, done


def _head(kind: str, number: str, when: datetime, parent: Parent, lang: str) -> dict[str, Any]:
    day = _local_day(when)
    settings = get_settings()
    return {
        "kind": kind,
        "number": number,
        "title": t(f"receipt.title_{kind}", lang),
        "date": day.isoformat(),
        "day": full_day(day, lang),
        "parent_name": f"{parent.first_name} {parent.last_name}".strip(),
        "parent_email": parent.email,
        "seller": t("receipt.seller", lang),
        "seller_email": settings.provider_email,
        "hst_number": settings.hst_number,
        "hst_label": t("receipt.hst_number", lang, number=settings.hst_number),
        "lang": lang,
    }


# -- names in the parent's language --------------------------------------------------------------


def _names(session: Session, lines: list[OrderLine], addon_ids: set[int], lang: str) -> tuple:
    """Children by id; in French, the meals', options' and add-ons' French names by id (one
    statement each); options keyed ``("menu", id)`` / ``("meal", id)`` in the meal names."""
    children = rows_by_id(session, Child, (x.child_id for x in lines))
    meals: dict[int | str, str] = {}  # meals by id, options by "menu:<id>", "meal:<id>"
    addons: dict[int, str] = {}
    if normalize_lang(lang) == "fr":
        meals = {
            known_id(m_id): name
            for m_id, name in session.exec(
                select(Meal.id, Meal.name_fr).where(
                    col(Meal.id).in_(sorted({x.meal_id for x in lines}) or [0])
                )
            ).all()
            if name
        }
        addons = {
            known_id(a_id): name
            for a_id, name in session.exec(
                select(AddOn.id, AddOn.name_fr).where(col(AddOn.id).in_(sorted(addon_ids) or [0]))
            ).all()
            if name
        }
        for kind, model, ids in (
            ("menu", MenuOption, {x.menu_option_id for x in lines if x.menu_option_id}),
            ("meal", MealOption, {x.meal_option_id for x in lines if x.meal_option_id}),
        ):
            if ids:
                for o_id, name in session.exec(
                    select(model.id, model.name_fr).where(col(model.id).in_(sorted(ids)))
                ).all():
                    if name:
                        meals[f"{kind}:{o_id}"] = name
    return children, meals, addons


def _line_out(
    line: OrderLine,
    quantity: int,
    addons: list[OrderLineAddOn],
    meals: dict[int | str, str],
    addon_names: dict[int, str],
    lang: str,
    *,
    total_cents: int | None = None,
) -> dict[str, Any]:
    """One order line as sold: its price items for ``quantity`` meals."""
    items = [
        {
            "label": t(
                "receipt.item_meal",
                lang,
                qty=quantity,
                unit=format_money(line.unit_price_cents, lang),
            ),
            **_money(line.unit_price_cents * quantity, lang),
        }
    ]
    for name, cents in (
        (
            meals.get(f"menu:{line.menu_option_id}") or line.menu_option_name,
            line.menu_option_cents,
        ),
        (
            meals.get(f"meal:{line.meal_option_id}") or line.meal_option_name,
            line.meal_option_cents,
        ),
    ):
        if name or cents:
            items.append(
                {
                    "label": t("receipt.item_option", lang, name=name, qty=quantity),
                    **_money(cents * quantity, lang),
                }
            )
    for addon in addons:
        items.append(
            {
                "label": t(
                    "receipt.item_addon",
                    lang,
                    name=addon_names.get(addon.addon_id, addon.name),
                    qty=quantity,
                ),
                **_money(addon.price_cents * quantity, lang),
            }
        )
    if line.special_note and line.special_note_fee_cents:
        items.append(
            {"label": t("receipt.item_note", lang), **_money(line.special_note_fee_cents, lang)}
        )
    total = line.line_total_cents if total_cents is None else total_cents
    return {
        "order_line_id": line.id,
        "meal": meals.get(line.meal_id) or line.meal_name,
        "size_label": size_label(line.size, lang),
        "quantity": line.quantity,
        "cancelled_quantity": line.cancelled_quantity,
        "status": line.status,
        "moved_from": line.moved_from_date.isoformat() if line.moved_from_date else None,
        "moved_from_day": full_day(line.moved_from_date, lang) if line.moved_from_date else "",
        "special_note": line.special_note or "",
        "items": items,
        **_money(total, lang),
    }


def _grouped(entries: list[tuple[OrderLine, dict]], children: dict[int, Child], lang: str) -> list:
    """Lines by child, then by date: ``[{child_name, days: [{date, day, lines}]}]``."""
    by_child: dict[int, dict[date, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for line, out in entries:
        by_child[line.child_id][line.meal_date].append(out)

    def child_key(child_id: int) -> tuple:
        c = children.get(child_id)
        return (c is None, c.first_name if c else "", child_id)

    return [
        {
            "child_id": child_id,
            "child_name": (
                f"{children[child_id].first_name} {children[child_id].last_name}"
                if child_id in children
                else ""
            ),
            "days": [
                {"date": day.isoformat(), "day": full_day(day, lang), "lines": lines}
                for day, lines in sorted(by_child[child_id].items())
            ],
        }
        for child_id in sorted(by_child, key=child_key)
    ]


# -- an order -------------------------------------------------------------------------------------


def _own_order(session: Session, *, parent_id: int, number: object) -> LoadedOrder:
    if not isinstance(number, str) or not _NUMBER.match(number.strip().upper()):
        raise _missing()
    order_id = session.exec(
        select(Order.id).where(Order.number == number.strip().upper(), Order.parent_id == parent_id)
    ).first()
    if order_id is None:
        raise _missing()
    loaded = load_order(session, order_id=order_id, parent_id=parent_id)
    # Placed: paid (or nothing to pay), as the order details show it.
    placed = loaded.order.placed_at is not None
    if loaded.order.status not in [str(s) for s in HISTORY_STATUSES] or not placed:
        raise _missing()
    return loaded


def order_receipt(session: Session, *, parent_id: int, order: object, lang: str = "en") -> dict:
    """The receipt of a paid order, as it stands: every line as sold, the order's charges,
    its payments, its refunds and what was paid in all after them."""
    lang = normalize_lang(lang)
    loaded = _own_order(session, parent_id=parent_id, number=order)
    o = loaded.order
    parent = session.get(Parent, parent_id)
    assert parent is not None
    addon_ids = {a.addon_id for v in loaded.addons.values() for a in v}
    children, meals, addon_names = _names(session, loaded.lines, addon_ids, lang)
    entries = [
        (
            line,
            _line_out(
                line, line.quantity, loaded.addons.get(line.id or 0, []), meals, addon_names, lang
            ),
        )
        for line in loaded.lines
    ]
    # The order's charge lines; its total is "Total paid" here.
    charges = [
        _charge(
            name,
            charge_label(name, key, o.tax_bps, lang),
            shown_cents(name, getattr(o, name)),
            lang,
        )
        for name, key in CHARGE_LINES
        if name != "total_pay_cents" and (getattr(o, name) or name in ALWAYS_SHOWN)
    ]
    charges.append(
        _charge("total_pay_cents", t("receipt.total_paid", lang), o.total_pay_cents, lang)
    )
    refunds, refunded = _refund_rows(loaded.refunds, lang)
    kept_meals = sum(
        x.quantity - x.cancelled_quantity for x in loaded.lines if x.status != LineStatus.CANCELLED
    )
    school, nutrition = giveback(kept_meals)
    changes = session.exec(
        select(OrderChange)
        .where(OrderChange.order_id == o.id, OrderChange.state == "applied")
        .order_by(col(OrderChange.updated_at), col(OrderChange.id))
    ).all()
    payments = [_paid_row(p, lang) for p in loaded.payments]
    return {
        **_head(ORDER, o.number, o.placed_at or o.created_at, parent, lang),
        "order_number": o.number,
        "order_id": o.id,
        "status_label": t(f"orderpay.status_{o.status}", lang),
        "promo_code": o.promo_code or "",
        "groups": _grouped(entries, children, lang),
        "charges": charges,
        "total_cents": o.total_pay_cents,
        "tax_bps": o.tax_bps,
        "payments": payments,
        "refunds": refunds,
        "refunded_cents": refunded,
        "refunded": format_money(refunded, lang),
        "net_cents": o.total_pay_cents - refunded,
        "net": format_money(o.total_pay_cents - refunded, lang),
        "giveback": _giveback(school, nutrition, o.school_donation_cents, lang),
        "changes": [
            {
                "change_id": c.id,
                "label": t(
                    f"receipt.change_{c.kind}",
                    lang,
                    day=full_day(_local_day(c.updated_at), lang),
                ),
            }
            for c in changes
        ],
    }


def _giveback(school: int, nutrition: int, donation: int, lang: str) -> list[dict]:
    rows = [
        {"name": "school", "label": t("receipt.giveback_school", lang), **_money(school, lang)},
        {
            "name": "nutrition",
            "label": t("receipt.giveback_nutrition", lang),
            **_money(nutrition, lang),
        },
    ]
    if donation:
        rows.append(
            {
                "name": "donation",
                "label": t("receipt.giveback_donation", lang),
                **_money(donation, lang),
            }
        )
    return rows


# -- a change of an order -------------------------------------------------------------------------


def change_receipt(
    session: Session, *, parent_id: int, order: object, change: object, lang: str = "en"
) -> dict:
    """The receipt of one applied change (meals added or removed, a meal moved): what it did,
    line by line as sold, and what it charged or refunded."""
    lang = normalize_lang(lang)
    change_id = _id(change)
    loaded = _own_order(session, parent_id=parent_id, number=order)
    o = loaded.order
    found = session.get(OrderChange, change_id)
    if found is None or found.order_id != o.id or found.state != "applied":
        raise _missing()
    parent = session.get(Parent, parent_id)
    assert parent is not None
    steps = session.exec(
        select(OrderChangeLine)
        .where(OrderChangeLine.change_id == change_id)
        .order_by(col(OrderChangeLine.id))
    ).all()
    day_ids = sorted({s.menu_day_id for s in steps if s.menu_day_id})
    day_dates = {
        d_id: d
        for d_id, d in session.exec(
            select(col(MenuDay.id), col(MenuDay.meal_date)).where(
                col(MenuDay.id).in_(day_ids or [0])
            )
        ).all()
    }
    addon_ids = {a.addon_id for v in loaded.addons.values() for a in v}
    children, meals, addon_names = _names(session, loaded.lines, addon_ids, lang)
    by_id = {x.id: x for x in loaded.lines}
    taken: set[int] = set()
    entries: list[tuple[OrderLine, dict]] = []

    def sold(line: OrderLine, quantity: int, total_cents: int | None = None) -> dict[str, Any]:
        addons = loaded.addons.get(line.id or 0, [])
        return _line_out(line, quantity, addons, meals, addon_names, lang, total_cents=total_cents)

    for step in steps:
        if step.action == "add":
            # Added lines are the order's lines made from this step (same child, day, meal,
            # portion and quantity), each matched once.
            line = next(
                (
                    x
                    for x in loaded.lines
                    if x.id not in taken
                    and x.child_id == step.child_id
                    and x.menu_day_id == step.menu_day_id
                    and x.meal_id == step.meal_id
                    and x.portion_id == step.portion_id
                    and x.quantity == step.quantity
                    and x.cart_line_id is None
                ),
                None,
            )
            if line is None:
                continue
            taken.add(line.id or 0)
            out = sold(line, line.quantity)
            out["action_label"] = t("receipt.action_add", lang)
        else:
            line = by_id.get(step.order_line_id)
            if line is None:
                continue
            if step.action == "remove":
                share = line.line_total_cents * step.quantity // max(line.quantity, 1)
                out = sold(line, step.quantity, total_cents=share)
                out["action_label"] = t("receipt.action_remove", lang, qty=step.quantity)
            else:
                new_day = day_dates.get(step.menu_day_id or 0, line.meal_date)
                out = sold(line, line.quantity)
                out["action_label"] = t("receipt.action_move", lang, day=full_day(new_day, lang))
        out["action"] = step.action
        entries.append((line, out))
    payment = session.get(Payment, found.payment_id) if found.payment_id else None
    paid = (
        payment.amount_cents
        if payment is not None and payment.state == PaymentState.APPROVED and found.amount_cents > 0
        else 0
    )
    refund_rows = session.exec(
        select(Refund)
        .where(col(Refund.order_id) == o.id, col(Refund.reason) == change_refund_reason(change_id))
        .order_by(col(Refund.id))
    ).all()
    refunds, refunded = _refund_rows(list(refund_rows), lang)
    rate = tax_label(o.tax_bps, lang)
    charges = []
    tax = found.tax_cents
    if tax is not None and (paid or found.amount_cents < 0):
        # Every charge line: the difference before HST, the HST at the order's stored rate,
        # and the total, as the change stored them (net + HST = total, to the cent).
        total = paid if paid else -found.amount_cents
        tax = abs(tax)
        side = "charged" if paid else "refund"
        charges += [
            _charge("change_net_cents", t(f"receipt.change_net_{side}", lang), total - tax, lang),
            _charge("tax_cents", rate, tax, lang),
            _charge(
                "charged_cents" if paid else "refund_due_cents",
                t(f"receipt.change_total_{side}", lang),
                total,
                lang,
            ),
        ]
    elif paid:
        charges.append(
            _charge("charged_cents", t("receipt.change_charged", lang, tax=rate), paid, lang)
        )
    elif found.amount_cents < 0:
        charges.append(
            _charge(
                "refund_due_cents",
                t("receipt.change_refund_due", lang, tax=rate),
                -found.amount_cents,
                lang,
            )
        )
    else:
        charges.append(_charge("no_difference", t("receipt.change_none", lang), 0, lang))
    return {
        **_head(CHANGE, f"{o.number}-C{change_id}", found.updated_at, parent, lang),
        "title": t(f"receipt.title_change_{found.kind}", lang),
        "order_number": o.number,
        "order_id": o.id,
        "change_id": change_id,
        "groups": _grouped(entries, children, lang),
        "charges": charges,
        "total_cents": paid if paid else found.amount_cents,
        "tax_bps": o.tax_bps,
        "payments": [_paid_row(payment, lang)] if paid and payment is not None else [],
        "refunds": refunds,
        "refunded_cents": refunded,
        "refunded": format_money(refunded, lang),
        "net_cents": paid - refunded,
        "net": format_money(paid - refunded, lang),
        "giveback": [],
        "changes": [],
    }


# -- a donation -----------------------------------------------------------------------------------


def donation_receipt(
    session: Session, *, parent_id: int, donation: object, lang: str = "en"
) -> dict:
    """The receipt of a paid donation: the gift, the school it goes to, no tax."""
    lang = normalize_lang(lang)
    donation_id = _id(donation)
    row = session.exec(
        select(Donation, School)
        .join(School, col(School.id) == Donation.school_id, isouter=True)
        .where(
            Donation.id == donation_id,
            Donation.parent_id == parent_id,
            col(Donation.status).in_([DonationStatus.PAID, DonationStatus.REFUNDED]),
        )
    ).first()
    if row is None:
        raise _missing()
    gift, school = row
    payment = session.exec(
        select(Payment).where(
            Payment.donation_id == donation_id, Payment.state == PaymentState.APPROVED
        )
    ).first()
    parent = session.get(Parent, parent_id)
    assert parent is not None
    refunds, refunded = (
        _refund_rows(
            list(
                session.exec(
                    select(Refund)
                    .where(col(Refund.payment_id) == payment.id)
                    .order_by(col(Refund.id))
                ).all()
            ),
            lang,
        )
        if payment is not None
        else ([], 0)
    )
    when = (payment.verified_at if payment else None) or gift.created_at
    school_name = school.name if school else ""
    return {
        **_head(DONATION, f"DN-{donation_id:06d}", when, parent, lang),
        "order_number": "",
        "school": school_name,
        "groups": [],
        "charges": [
            _charge(
                "donation_cents",
                t("receipt.donation_line", lang, school=school_name or "—"),
                gift.amount_cents,
                lang,
            ),
            _charge("tax_cents", t("receipt.donation_no_tax", lang), 0, lang),
            _charge("total_pay_cents", t("receipt.total_paid", lang), gift.amount_cents, lang),
        ],
        "total_cents": gift.amount_cents,
        "tax_bps": 0,
        "payments": [_paid_row(payment, lang)] if payment is not None else [],
        "refunds": refunds,
        "refunded_cents": refunded,
        "refunded": format_money(refunded, lang),
        "net_cents": gift.amount_cents - refunded,
        "net": format_money(gift.amount_cents - refunded, lang),
        "giveback": [
            {
                "name": "donation",
                "label": t("receipt.giveback_gift", lang, school=school_name or "—"),
                **_money(gift.amount_cents - refunded, lang),
            }
        ],
        "changes": [],
    }


def receipt(
    session: Session,
    *,
    parent_id: int,
    order: object = None,
    change: object = None,
    donation: object = None,
    lang: str = "en",
) -> dict:
    """One receipt of the parent's: an order's, a change's (``order`` and ``change``) or a
    donation's."""
    if donation not in (None, ""):
        return donation_receipt(session, parent_id=parent_id, donation=donation, lang=lang)
    if change not in (None, ""):
        return change_receipt(session, parent_id=parent_id, order=order, change=change, lang=lang)
    return order_receipt(session, parent_id=parent_id, order=order, lang=lang)
