"""What every receipt shows the same way (``services/receipts.py``): money, days, the card or
family credit that paid, refunds, the head, the lines grouped by child and day, the give-back."""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import date, datetime
from typing import Any

from sqlmodel import Session, col, select

from hotmeals.db.models import (
    AddOn,
    Child,
    Meal,
    MealOption,
    MenuOption,
    Order,
    OrderLine,
    OrderLineAddOn,
    Parent,
    Payment,
    Refund,
)
from hotmeals.domain.cutoff import TORONTO
from hotmeals.domain.dates import full_day
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.payment_states import (
    PaymentMethod,
    RefundKind,
    RefundState,
)
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


def not_found() -> DomainError:
    return DomainError("receipt_not_found", field="order")


def receipt_id(value: object) -> int:
    if isinstance(value, bool):
        raise not_found()
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or not 1 <= value <= _ID_MAX:
        raise not_found()
    return value


def local_day(moment: datetime) -> date:
    return moment.astimezone(TORONTO).date()


def money(cents: int, lang: str) -> dict[str, Any]:
    return {"cents": cents, "amount": format_money(cents, lang)}


def charge_row(name: str, label: str, cents: int, lang: str) -> dict:
    return {"name": name, "label": label, **money(cents, lang)}


def _card(payment: Payment | None, lang: str) -> str:
    """The card that paid ("VISA 40**…0002"), or "Family credit" for credit's share."""
    if payment is None:
        return ""
    if payment.method == PaymentMethod.CREDIT:
        return t("credit.summary_credit", lang)
    return f"{payment.card_brand or ''} {payment.card_masked or ''}".strip()


def paid_row(payment: Payment, lang: str) -> dict[str, Any]:
    """A payment as a receipt lists it: its day, card, approval code, invoice and amount, and
    ``paid_by`` as the receipt prints it (a card with its approval code; family credit, which
    has none, by its name alone)."""
    day = local_day(payment.verified_at or payment.created_at)
    card = _card(payment, lang)
    code = payment.approval_code or ""
    credit = payment.method == PaymentMethod.CREDIT
    return {
        "date": day.isoformat(),
        "day": full_day(day, lang),
        "card": card,
        "paid_by": card if credit else t("receipt.paid_by", lang, card=card, code=code or "—"),
        "approval_code": code,
        "invoice_number": payment.invoice_number,
        **money(payment.amount_cents, lang),
    }


def refund_rows(refunds: list[Refund], lang: str) -> tuple[list[dict], int]:
    """Succeeded refunds and those still under way (not counted); a failed try that was sent
    again is the same refund: not listed twice."""
    out, done = [], 0
    for r in refunds:
        if r.state == RefundState.FAILED:
            continue
        if r.state == RefundState.SUCCEEDED:
            done += r.amount_cents
        day = local_day(r.created_at)
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
                **money(r.amount_cents, lang),
            }
        )
    return out, done


def receipt_head(
    kind: str, number: str, when: datetime, parent: Parent, lang: str
) -> dict[str, Any]:
    day = local_day(when)
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


def line_names(session: Session, lines: list[OrderLine], addon_ids: set[int], lang: str) -> tuple:
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


def line_row(
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
            **money(line.unit_price_cents * quantity, lang),
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
                    **money(cents * quantity, lang),
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
                **money(addon.price_cents * quantity, lang),
            }
        )
    if line.special_note and line.special_note_fee_cents:
        items.append(
            {"label": t("receipt.item_note", lang), **money(line.special_note_fee_cents, lang)}
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
        **money(total, lang),
    }


def grouped_lines(
    entries: list[tuple[OrderLine, dict]], children: dict[int, Child], lang: str
) -> list:
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


def own_order(session: Session, *, parent_id: int, number: object) -> LoadedOrder:
    if not isinstance(number, str) or not _NUMBER.match(number.strip().upper()):
        raise not_found()
    order_id = session.exec(
        select(Order.id).where(Order.number == number.strip().upper(), Order.parent_id == parent_id)
    ).first()
    if order_id is None:
        raise not_found()
    loaded = load_order(session, order_id=order_id, parent_id=parent_id)
    # Placed: paid (or nothing to pay), as the order details show it.
    placed = loaded.order.placed_at is not None
    if loaded.order.status not in [str(s) for s in HISTORY_STATUSES] or not placed:
        raise not_found()
    return loaded


def giveback_rows(school: int, nutrition: int, donation: int, lang: str) -> list[dict]:
    rows = [
        {"name": "school", "label": t("receipt.giveback_school", lang), **money(school, lang)},
        {
            "name": "nutrition",
            "label": t("receipt.giveback_nutrition", lang),
            **money(nutrition, lang),
        },
    ]
    if donation:
        rows.append(
            {
                "name": "donation",
                "label": t("receipt.giveback_donation", lang),
                **money(donation, lang),
            }
        )
    return rows


# -- a change of an order -------------------------------------------------------------------------
