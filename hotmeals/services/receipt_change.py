"""The receipt of an applied change of an order (``services/receipts.py``): what its payment
charged or its refunds gave back, and the meals it added, removed or moved."""

from __future__ import annotations

from sqlmodel import Session, col, select

from hotmeals.db.models import (
    MenuDay,
    OrderChange,
    OrderChangeLine,
    OrderLine,
    Parent,
    Payment,
    Refund,
)
from hotmeals.domain.charges import (
    tax_label,
)
from hotmeals.domain.dates import full_day
from hotmeals.domain.money import format_money
from hotmeals.domain.payment_states import (
    PaymentState,
)
from hotmeals.domain.refunds import change_refund_reason
from hotmeals.i18n import normalize_lang, t
from hotmeals.services.receipt_rows import (
    CHANGE,
    Receipt,
    ReceiptCharge,
    ReceiptLine,
    asked_id,
    charge_row,
    grouped_lines,
    line_names,
    line_row,
    not_found,
    own_order,
    paid_row,
    receipt_head,
    refund_rows,
)


def change_receipt(
    session: Session, *, parent_id: int, order: str, change: int, lang: str = "en"
) -> Receipt:
    """The receipt of one applied change (meals added or removed, a meal moved): what it did,
    line by line as sold, and what it charged or refunded."""
    lang = normalize_lang(lang)
    change_id = asked_id(change)
    loaded = own_order(session, parent_id=parent_id, number=order)
    o = loaded.order
    found = session.get(OrderChange, change_id)
    if found is None or found.order_id != o.id or found.state != "applied":
        raise not_found()
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
    children, meals, addon_names = line_names(session, loaded.lines, addon_ids, lang)
    by_id = {x.id: x for x in loaded.lines}
    taken: set[int] = set()
    entries: list[tuple[OrderLine, ReceiptLine]] = []

    def sold(
        line: OrderLine, quantity: int, action: str, label: str, total_cents: int | None = None
    ) -> ReceiptLine:
        addons = loaded.addons.get(line.id or 0, [])
        return line_row(
            line,
            quantity,
            addons,
            meals,
            addon_names,
            lang,
            total_cents=total_cents,
            action=action,
            action_label=label,
        )

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
            out = sold(line, line.quantity, step.action, t("receipt.action_add", lang))
        else:
            line = by_id.get(step.order_line_id)
            if line is None:
                continue
            if step.action == "remove":
                share = line.line_total_cents * step.quantity // max(line.quantity, 1)
                label = t("receipt.action_remove", lang, qty=step.quantity)
                out = sold(line, step.quantity, step.action, label, total_cents=share)
            else:
                new_day = day_dates.get(step.menu_day_id or 0, line.meal_date)
                label = t("receipt.action_move", lang, day=full_day(new_day, lang))
                out = sold(line, line.quantity, step.action, label)
        entries.append((line, out))
    payment = session.get(Payment, found.payment_id) if found.payment_id else None
    paid = (
        payment.amount_cents
        if payment is not None and payment.state == PaymentState.APPROVED and found.amount_cents > 0
        else 0
    )
    found_refunds = session.exec(
        select(Refund)
        .where(col(Refund.order_id) == o.id, col(Refund.reason) == change_refund_reason(change_id))
        .order_by(col(Refund.id))
    ).all()
    refunds, refunded = refund_rows(list(found_refunds), lang)
    rate = tax_label(o.tax_bps, lang)
    charges: list[ReceiptCharge] = []
    tax = found.tax_cents
    if tax is not None and (paid or found.amount_cents < 0):
        # Every charge line: the difference before HST, the HST at the order's stored rate,
        # and the total, as the change stored them (net + HST = total, to the cent).
        total = paid if paid else -found.amount_cents
        tax = abs(tax)
        side = "charged" if paid else "refund"
        charges += [
            charge_row(
                "change_net_cents", t(f"receipt.change_net_{side}", lang), total - tax, lang
            ),
            charge_row("tax_cents", rate, tax, lang),
            charge_row(
                "charged_cents" if paid else "refund_due_cents",
                t(f"receipt.change_total_{side}", lang),
                total,
                lang,
            ),
        ]
    elif paid:
        charges.append(
            charge_row("charged_cents", t("receipt.change_charged", lang, tax=rate), paid, lang)
        )
    elif found.amount_cents < 0:
        charges.append(
            charge_row(
                "refund_due_cents",
                t("receipt.change_refund_due", lang, tax=rate),
                -found.amount_cents,
                lang,
            )
        )
    else:
        charges.append(charge_row("no_difference", t("receipt.change_none", lang), 0, lang))
    title = t(f"receipt.title_change_{found.kind}", lang)
    return Receipt(
        head=receipt_head(
            CHANGE, f"{o.number}-C{change_id}", found.updated_at, parent, lang, title=title
        ),
        order_number=o.number,
        order_id=o.id,
        status_label=None,
        promo_code=None,
        school=None,
        change_id=change_id,
        groups=grouped_lines(entries, children, lang),
        charges=charges,
        total_cents=paid if paid else found.amount_cents,
        tax_bps=o.tax_bps,
        payments=[paid_row(payment, lang)] if paid and payment is not None else [],
        refunds=refunds,
        refunded_cents=refunded,
        refunded=format_money(refunded, lang),
        net_cents=paid - refunded,
        net=format_money(paid - refunded, lang),
        giveback=[],
        changes=[],
    )
