"""What the parent is told once an order is paid: the confirmation screen (by order id, or by
the number in its own address) and the confirmation e-mail, both from the lines as sold.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlmodel import Session, col, select
from sqlmodel.sql.expression import Select

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
)
from hotmeals.domain.charges import (
    ALWAYS_SHOWN,
    CHARGE_FIELDS,
    CHARGE_LINES,
    OrderCharges,
    charge_label,
    shown_cents,
)
from hotmeals.domain.dates import full_day
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.pricing import giveback_summary
from hotmeals.i18n import normalize_lang, t
from hotmeals.services import notifications
from hotmeals.services.mail_html import MailTable
from hotmeals.services.ordering.labels import is_french
from hotmeals.services.ordering.mails import send_order_mail
from hotmeals.services.payments.credit_pay import (
    credit_line_label,
    credit_share,
    paid_with_credit,
)


@dataclass(frozen=True)
class ChargeLine:
    """A charge as the parent reads it: its name (``meal_net_cents``... or ``family_credit``,
    ``card_pay``), its label and its cents (negative for the discount and the credit)."""

    name: str
    label: str
    cents: int


@dataclass(frozen=True)
class SoldAddOn:
    name: str
    price_cents: int


@dataclass(frozen=True)
class SoldLine:
    """A line of a paid order as sold."""

    line_id: int
    meal_id: int
    name: str
    size: str
    size_label: str
    menu_option: str
    meal_option: str
    addons: list[SoldAddOn]
    special_note: str
    allergy_ack: str
    quantity: int
    unit_price_cents: int
    line_total_cents: int
    status: str


@dataclass(frozen=True)
class SoldGroup:
    """A child's day of a paid order."""

    child_id: int
    child_name: str
    date: date
    day: str
    lines: list[SoldLine]


@dataclass(frozen=True)
class Confirmation:
    """A paid order as its confirmation shows it."""

    order_id: int
    number: str
    status: str
    status_label: str
    created_at: datetime
    placed_at: datetime | None
    promo_code: str | None
    groups: list[SoldGroup]  # by child, then date
    meal_count: int
    charges: OrderCharges  # the order's stored charges (CHARGE_FIELDS)
    tax_bps: int  # the order's stored rate
    charge_lines: list[ChargeLine]
    total_pay_cents: int
    credit_cents: int  # of the total, what family credit paid


def _confirmation(session: Session, order: Order, lang: str) -> Confirmation:
    french = is_french(lang)
    rows = session.exec(
        # five entities: sqlmodel's ``select`` is typed for four at most
        Select[OrderLine, Child, Meal | None, MenuOption | None, MealOption | None](
            OrderLine, Child, Meal, MenuOption, MealOption
        )
        .join(Child, col(Child.id) == OrderLine.child_id)
        .outerjoin(Meal, col(Meal.id) == OrderLine.meal_id)
        .outerjoin(MenuOption, col(MenuOption.id) == OrderLine.menu_option_id)
        .outerjoin(MealOption, col(MealOption.id) == OrderLine.meal_option_id)
        .where(OrderLine.order_id == order.id)
        .order_by(col(Child.first_name), col(Child.id), col(OrderLine.meal_date), col(OrderLine.id))
    ).all()
    addons: dict[int, list[SoldAddOn]] = {}
    if rows:
        for line_addon, addon in session.exec(
            select(OrderLineAddOn, AddOn)
            .outerjoin(AddOn, col(AddOn.id) == OrderLineAddOn.addon_id)
            .where(col(OrderLineAddOn.order_line_id).in_([r[0].id for r in rows]))
            .order_by(col(OrderLineAddOn.id))
        ).all():
            name = addon.name_fr if (french and addon) else line_addon.name
            addons.setdefault(line_addon.order_line_id, []).append(
                SoldAddOn(name=name, price_cents=line_addon.price_cents)
            )
    groups: dict[tuple[int, date], SoldGroup] = {}
    meals = 0
    for line, child, meal, menu_option, meal_option in rows:
        meals += line.quantity - line.cancelled_quantity
        key = (child.id or 0, line.meal_date)
        if key not in groups:
            groups[key] = SoldGroup(
                child_id=child.id or 0,
                child_name=f"{child.first_name} {child.last_name}",
                date=line.meal_date,
                day=full_day(line.meal_date, lang),
                lines=[],
            )
        groups[key].lines.append(
            SoldLine(
                line_id=line.id or 0,
                meal_id=line.meal_id,
                name=meal.name_fr if (french and meal) else line.meal_name,
                size=line.size,
                size_label=t(f"portion_{line.size}", lang)
                if line.size in ("small", "large")
                else line.size,
                menu_option=(menu_option.name_fr if (french and menu_option) else None)
                or line.menu_option_name,
                meal_option=(meal_option.name_fr if (french and meal_option) else None)
                or line.meal_option_name,
                addons=addons.get(line.id or 0, []),
                special_note=line.special_note or "",
                allergy_ack=line.allergy_ack or "",
                quantity=line.quantity,
                unit_price_cents=line.unit_price_cents,
                line_total_cents=line.line_total_cents,
                status=line.status,
            )
        )
    by_credit = paid_with_credit(session, order.id or 0)
    return Confirmation(
        order_id=order.id or 0,
        number=order.number,
        status=order.status,
        status_label=t(f"orderpay.status_{order.status}", lang),
        created_at=order.created_at,
        placed_at=order.placed_at,
        promo_code=order.promo_code,
        groups=list(groups.values()),
        meal_count=meals,
        charges=OrderCharges(**{name: getattr(order, name) for name in CHARGE_FIELDS}),
        tax_bps=order.tax_bps,
        charge_lines=paid_charge_lines(order, by_credit, lang),
        total_pay_cents=order.total_pay_cents,
        credit_cents=by_credit,
    )


def paid_charge_lines(order: Order, credit_cents: int, lang: str) -> list[ChargeLine]:
    """A paid order's charges as the parent reads them (the confirmation, the order's details):
    the lines that apply (the meal net, the tax and the total always), the total paid, then,
    when family credit paid some (``credit_cents``), credit's share and the card's."""
    lines = [
        ChargeLine(
            name=name,
            label=charge_label(name, key, order.tax_bps, lang),
            cents=shown_cents(name, getattr(order, name)),
        )
        for name, key in CHARGE_LINES
        if getattr(order, name) or name in ALWAYS_SHOWN
    ]
    card_cents = order.total_pay_cents - credit_cents
    return lines + [
        ChargeLine(name=c.name, label=credit_line_label(c, lang), cents=c.cents)
        for c in credit_share(credit_cents, card_cents, done=True)
    ]


def order_confirmation(
    session: Session, *, parent_id: int, order_id: int, lang: str = "en"
) -> Confirmation:
    """The confirmation screen (and the e-mail): the order's number and status, its lines by
    child and date as sold (name, size, options, add-ons, note, quantity, line total), the
    charges of docs/product.md §3, what it gives back and the total paid. Another parent's
    order (or id 0): ``payment_order_not_found``."""
    order = session.get(Order, order_id) if order_id > 0 else None
    return confirmation_of(session, order, parent_id=parent_id, lang=lang)


def confirmation_of(
    session: Session, order: Order | None, *, parent_id: int, lang: str = "en"
) -> Confirmation:
    """``order_confirmation`` of an order already read (``payment_order_not_found`` when it is
    none, or another parent's)."""
    if order is None or order.parent_id != parent_id:
        raise DomainError("payment_order_not_found", field="order_id")
    return _confirmation(session, order, normalize_lang(lang))


def placed_order_confirmation(
    session: Session, *, parent_id: int, number: str, lang: str = "en"
) -> Confirmation:
    """The confirmation screen's own address: the order named by its number, as
    ``order_confirmation`` shows it, once it has been paid. Another parent's order, an unknown
    number or an order never paid (a checkout still open, a declined card):
    ``payment_order_not_found``, the same answer for each so a number reveals nothing."""
    if not isinstance(number, str) or not 0 < len(number.strip()) <= 20:
        raise DomainError("payment_order_not_found", field="order")
    order = session.exec(select(Order).where(Order.number == number.strip().upper())).first()
    if order is None or order.parent_id != parent_id or order.placed_at is None:
        raise DomainError("payment_order_not_found", field="order")
    return _confirmation(session, order, normalize_lang(lang))


def queue_confirmation_mail(session: Session, order: Order) -> None:
    parent = session.get(Parent, order.parent_id)
    if parent is None or not parent.email:
        return
    if not notifications.is_enabled(
        session=session, parent_id=order.parent_id, kind="order_confirmation"
    ):
        return  # the parent turned order confirmations off (settings, notifications)
    lang = normalize_lang(parent.language)
    shown_order = _confirmation(session, order, lang)
    lines: list[str] = []
    rows: list[tuple[str, ...]] = []  # a child's day (one cell), then its meals
    for group in shown_order.groups:
        heading = t("orderpay.mail_group", lang, child=group.child_name, day=group.day)
        lines.append(heading)
        rows.append((heading,))
        for line in group.lines:
            extras = [x for x in (line.menu_option, line.meal_option) if x]
            extras += [a.name for a in line.addons]
            more = [t("orderpay.mail_with", lang, items=", ".join(extras))] if extras else []
            if line.special_note:
                more.append(t("orderpay.mail_note", lang, note=line.special_note))
            amount = format_money(line.line_total_cents, lang)
            text = t(
                "orderpay.mail_line",
                lang,
                quantity=line.quantity,
                meal=line.name,
                size=line.size_label,
                amount=amount,
            )
            lines.append("\n    ".join([text, *more]))
            meal = t("orderpay.mail_meal", lang, meal=line.name, size=line.size_label)
            rows.append(("; ".join([meal, *more]), str(line.quantity), amount))
        lines.append("")
    shown = [
        (c.label, format_money(c.cents, lang))
        for c in shown_order.charge_lines
        if c.name != "total_pay_cents"  # "Total paid"
    ]
    send_order_mail(
        session,
        parent,
        "order_confirmation",
        lang,
        order,
        lines=MailTable(
            text="\n".join(lines).rstrip(),
            caption=t("mail.caption.meals", lang),
            columns=tuple(t(f"mail.col.{name}", lang) for name in ("meal", "quantity", "amount")),
            rows=tuple(rows),
            numeric=frozenset({1, 2}),
        ),
        charges=MailTable(
            text="\n".join(
                t("orderpay.mail_charge", lang, label=label, amount=amount)
                for label, amount in shown
            ),
            caption=t("mail.caption.charges", lang),
            columns=(t("mail.col.charge", lang), t("mail.col.amount", lang)),
            rows=tuple(shown),
            numeric=frozenset({1}),
        ),
        total=format_money(shown_order.total_pay_cents, lang),
        giveback=giveback_summary(shown_order.meal_count, lang)["message"],
    )
