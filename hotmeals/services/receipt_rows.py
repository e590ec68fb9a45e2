"""What every receipt shows the same way (``services/receipts.py``): money, days, the card or
family credit that paid, refunds, the head, the lines grouped by child and day, the give-back."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime

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


# -- a receipt, as its page, its PDF and the API show it: rows of labels and cents, each amount
# -- also as the receipt prints it in its language ------------------------------------------------


@dataclass(frozen=True)
class ReceiptCharge:
    """A charge line (or a give-back line): ``name`` says which (``TOTALS``: a total)."""

    name: str
    label: str
    cents: int
    amount: str


@dataclass(frozen=True)
class ReceiptItem:
    label: str
    cents: int
    amount: str


@dataclass(frozen=True)
class ReceiptLine:
    """An order line as sold (for a change: what the change did to it, ``action``)."""

    order_line_id: int | None
    meal: str
    size_label: str
    quantity: int
    cancelled_quantity: int
    status: str
    moved_from: date | None
    moved_from_day: str
    special_note: str
    items: list[ReceiptItem]
    cents: int
    amount: str
    action: str | None = None  # a change's: add, remove or move
    action_label: str | None = None


@dataclass(frozen=True)
class ReceiptDay:
    on: date
    day: str
    lines: list[ReceiptLine]


@dataclass(frozen=True)
class ReceiptGroup:
    child_id: int
    child_name: str
    days: list[ReceiptDay]


@dataclass(frozen=True)
class ReceiptPayment:
    on: date
    day: str
    card: str
    paid_by: str  # the card with its approval code, or family credit by its name alone
    approval_code: str
    invoice_number: str
    cents: int
    amount: str


@dataclass(frozen=True)
class ReceiptRefund:
    refund_id: int | None
    on: date
    day: str
    state: str
    state_label: str
    cents: int
    amount: str


@dataclass(frozen=True)
class ReceiptChangeLink:
    """An applied change of the order, whose own receipt the order's links to."""

    change_id: int | None
    label: str


@dataclass(frozen=True)
class ReceiptHead:
    kind: str  # ORDER, CHANGE or DONATION
    number: str
    title: str
    on: date
    day: str
    parent_name: str
    parent_email: str
    seller: str
    seller_email: str
    hst_number: str
    hst_label: str
    lang: str


@dataclass(frozen=True)
class Receipt:
    head: ReceiptHead
    order_number: str  # "" for a donation
    order_id: int | None
    status_label: str | None  # an order's
    promo_code: str | None  # an order's
    school: str | None  # a donation's
    change_id: int | None  # a change's
    groups: list[ReceiptGroup]
    charges: list[ReceiptCharge]
    total_cents: int
    tax_bps: int
    payments: list[ReceiptPayment]
    refunds: list[ReceiptRefund]
    refunded_cents: int
    refunded: str
    net_cents: int
    net: str
    giveback: list[ReceiptCharge]
    changes: list[ReceiptChangeLink]


def not_found() -> DomainError:
    return DomainError("receipt_not_found", field="order")


def asked_id(value: int) -> int:
    """A change's or donation's id as asked: one the table may hold, else
    ``receipt_not_found`` (0, the doors' "not an id", included)."""
    if not 1 <= value <= _ID_MAX:
        raise not_found()
    return value


def local_day(moment: datetime) -> date:
    return moment.astimezone(TORONTO).date()


def charge_row(name: str, label: str, cents: int, lang: str) -> ReceiptCharge:
    return ReceiptCharge(name=name, label=label, cents=cents, amount=format_money(cents, lang))


def item_row(label: str, cents: int, lang: str) -> ReceiptItem:
    return ReceiptItem(label=label, cents=cents, amount=format_money(cents, lang))


def _card(payment: Payment | None, lang: str) -> str:
    """The card that paid ("VISA 40**…0002"), or "Family credit" for credit's share."""
    if payment is None:
        return ""
    if payment.method == PaymentMethod.CREDIT:
        return t("credit.summary_credit", lang)
    return f"{payment.card_brand or ''} {payment.card_masked or ''}".strip()


def paid_row(payment: Payment, lang: str) -> ReceiptPayment:
    """A payment as a receipt lists it: its day, card, approval code, invoice and amount, and
    ``paid_by`` as the receipt prints it (a card with its approval code; family credit, which
    has none, by its name alone)."""
    day = local_day(payment.verified_at or payment.created_at)
    card = _card(payment, lang)
    code = payment.approval_code or ""
    credit = payment.method == PaymentMethod.CREDIT
    return ReceiptPayment(
        on=day,
        day=full_day(day, lang),
        card=card,
        paid_by=card if credit else t("receipt.paid_by", lang, card=card, code=code or "—"),
        approval_code=code,
        invoice_number=payment.invoice_number,
        cents=payment.amount_cents,
        amount=format_money(payment.amount_cents, lang),
    )


def refund_rows(refunds: list[Refund], lang: str) -> tuple[list[ReceiptRefund], int]:
    """Succeeded refunds and those still under way (not counted); a failed try that was sent
    again is the same refund: not listed twice."""
    out: list[ReceiptRefund] = []
    done = 0
    for r in refunds:
        if r.state == RefundState.FAILED:
            continue
        if r.state == RefundState.SUCCEEDED:
            done += r.amount_cents
        day = local_day(r.created_at)
        out.append(
            ReceiptRefund(
                refund_id=r.id,
                on=day,
                day=full_day(day, lang),
                state=r.state,
                state_label=t(
                    "receipt.refund_to_credit"
                    if r.kind == RefundKind.CREDIT
                    else "receipt.refund_done"
                    if r.state == RefundState.SUCCEEDED
                    else "receipt.refund_pending",
                    lang,
                ),
                cents=r.amount_cents,
                amount=format_money(r.amount_cents, lang),
            )
        )
    return out, done


def receipt_head(
    kind: str, number: str, when: datetime, parent: Parent, lang: str, title: str = ""
) -> ReceiptHead:
    """The head of a receipt (``title``: its own, else its kind's)."""
    day = local_day(when)
    settings = get_settings()
    return ReceiptHead(
        kind=kind,
        number=number,
        title=title or t(f"receipt.title_{kind}", lang),
        on=day,
        day=full_day(day, lang),
        parent_name=f"{parent.first_name} {parent.last_name}".strip(),
        parent_email=parent.email,
        seller=t("receipt.seller", lang),
        seller_email=settings.provider_email,
        hst_number=settings.hst_number,
        hst_label=t("receipt.hst_number", lang, number=settings.hst_number),
        lang=lang,
    )


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
    action: str | None = None,
    action_label: str | None = None,
) -> ReceiptLine:
    """One order line as sold: its price items for ``quantity`` meals (for a change, with
    what the change did to it)."""
    items = [
        item_row(
            t(
                "receipt.item_meal",
                lang,
                qty=quantity,
                unit=format_money(line.unit_price_cents, lang),
            ),
            line.unit_price_cents * quantity,
            lang,
        )
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
                item_row(
                    t("receipt.item_option", lang, name=name, qty=quantity),
                    cents * quantity,
                    lang,
                )
            )
    for addon in addons:
        items.append(
            item_row(
                t(
                    "receipt.item_addon",
                    lang,
                    name=addon_names.get(addon.addon_id, addon.name),
                    qty=quantity,
                ),
                addon.price_cents * quantity,
                lang,
            )
        )
    if line.special_note and line.special_note_fee_cents:
        items.append(item_row(t("receipt.item_note", lang), line.special_note_fee_cents, lang))
    total = line.line_total_cents if total_cents is None else total_cents
    return ReceiptLine(
        order_line_id=line.id,
        meal=meals.get(line.meal_id) or line.meal_name,
        size_label=size_label(line.size, lang),
        quantity=line.quantity,
        cancelled_quantity=line.cancelled_quantity,
        status=line.status,
        moved_from=line.moved_from_date,
        moved_from_day=full_day(line.moved_from_date, lang) if line.moved_from_date else "",
        special_note=line.special_note or "",
        items=items,
        cents=total,
        amount=format_money(total, lang),
        action=action,
        action_label=action_label,
    )


def grouped_lines(
    entries: list[tuple[OrderLine, ReceiptLine]], children: dict[int, Child], lang: str
) -> list[ReceiptGroup]:
    """Lines by child, then by date."""
    by_child: dict[int, dict[date, list[ReceiptLine]]] = defaultdict(lambda: defaultdict(list))
    for line, out in entries:
        by_child[line.child_id][line.meal_date].append(out)

    def child_key(child_id: int) -> tuple:
        c = children.get(child_id)
        return (c is None, c.first_name if c else "", child_id)

    return [
        ReceiptGroup(
            child_id=child_id,
            child_name=(
                f"{children[child_id].first_name} {children[child_id].last_name}"
                if child_id in children
                else ""
            ),
            days=[
                ReceiptDay(on=day, day=full_day(day, lang), lines=lines)
                for day, lines in sorted(by_child[child_id].items())
            ],
        )
        for child_id in sorted(by_child, key=child_key)
    ]


# -- an order -------------------------------------------------------------------------------------


def own_order(session: Session, *, parent_id: int, number: str) -> LoadedOrder:
    if not _NUMBER.match(number.strip().upper()):
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


def giveback_rows(school: int, nutrition: int, donation: int, lang: str) -> list[ReceiptCharge]:
    rows = [
        charge_row("school", t("receipt.giveback_school", lang), school, lang),
        charge_row("nutrition", t("receipt.giveback_nutrition", lang), nutrition, lang),
    ]
    if donation:
        rows.append(charge_row("donation", t("receipt.giveback_donation", lang), donation, lang))
    return rows


# -- a change of an order -------------------------------------------------------------------------
