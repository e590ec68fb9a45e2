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

from sqlmodel import Session, col, select

from hotmeals.db.models import (
    OrderChange,
    Parent,
)
from hotmeals.domain.charges import (
    ALWAYS_SHOWN,
    CHARGE_LINES,
    charge_label,
    shown_cents,
)
from hotmeals.domain.dates import full_day
from hotmeals.domain.money import format_money
from hotmeals.domain.orders import LineStatus
from hotmeals.domain.pricing import giveback
from hotmeals.i18n import normalize_lang, t
from hotmeals.services.receipt_change import change_receipt
from hotmeals.services.receipt_donation import donation_receipt
from hotmeals.services.receipt_rows import (
    ORDER,
    Receipt,
    ReceiptChangeLink,
    charge_row,
    giveback_rows,
    grouped_lines,
    line_names,
    line_row,
    local_day,
    own_order,
    paid_row,
    receipt_head,
    refund_rows,
)


def order_receipt(session: Session, *, parent_id: int, order: str, lang: str = "en") -> Receipt:
    """The receipt of a paid order, as it stands: every line as sold, the order's charges,
    its payments, its refunds and what was paid in all after them."""
    lang = normalize_lang(lang)
    loaded = own_order(session, parent_id=parent_id, number=order)
    o = loaded.order
    parent = session.get(Parent, parent_id)
    assert parent is not None
    addon_ids = {a.addon_id for v in loaded.addons.values() for a in v}
    children, meals, addon_names = line_names(session, loaded.lines, addon_ids, lang)
    entries = [
        (
            line,
            line_row(
                line, line.quantity, loaded.addons.get(line.id or 0, []), meals, addon_names, lang
            ),
        )
        for line in loaded.lines
    ]
    # The order's charge lines; its total is "Total paid" here.
    charges = [
        charge_row(
            name,
            charge_label(name, key, o.tax_bps, lang),
            shown_cents(name, getattr(o, name)),
            lang,
        )
        for name, key in CHARGE_LINES
        if name != "total_pay_cents" and (getattr(o, name) or name in ALWAYS_SHOWN)
    ]
    charges.append(
        charge_row("total_pay_cents", t("receipt.total_paid", lang), o.total_pay_cents, lang)
    )
    refunds, refunded = refund_rows(loaded.refunds, lang)
    kept_meals = sum(
        x.quantity - x.cancelled_quantity for x in loaded.lines if x.status != LineStatus.CANCELLED
    )
    school, nutrition = giveback(kept_meals)
    changes = session.exec(
        select(OrderChange)
        .where(OrderChange.order_id == o.id, OrderChange.state == "applied")
        .order_by(col(OrderChange.updated_at), col(OrderChange.id))
    ).all()
    payments = [paid_row(p, lang) for p in loaded.payments]
    return Receipt(
        head=receipt_head(ORDER, o.number, o.placed_at or o.created_at, parent, lang),
        order_number=o.number,
        order_id=o.id,
        status_label=t(f"orderpay.status_{o.status}", lang),
        promo_code=o.promo_code or "",
        school=None,
        change_id=None,
        groups=grouped_lines(entries, children, lang),
        charges=charges,
        total_cents=o.total_pay_cents,
        tax_bps=o.tax_bps,
        payments=payments,
        refunds=refunds,
        refunded_cents=refunded,
        refunded=format_money(refunded, lang),
        net_cents=o.total_pay_cents - refunded,
        net=format_money(o.total_pay_cents - refunded, lang),
        giveback=giveback_rows(school, nutrition, o.school_donation_cents, lang),
        changes=[
            ReceiptChangeLink(
                change_id=c.id,
                label=t(
                    f"receipt.change_{c.kind}",
                    lang,
                    day=full_day(local_day(c.updated_at), lang),
                ),
            )
            for c in changes
        ],
    )


def receipt(
    session: Session,
    *,
    parent_id: int,
    order: str = "",
    change: int | None = None,
    donation: int | None = None,
    lang: str = "en",
) -> Receipt:
    """One receipt of the parent's: an order's, a change's (``order`` and ``change``) or a
    donation's. None: not asked; 0, an id that is not one: ``receipt_not_found``."""
    if donation is not None:
        return donation_receipt(session, parent_id=parent_id, donation=donation, lang=lang)
    if change is not None:
        return change_receipt(session, parent_id=parent_id, order=order, change=change, lang=lang)
    return order_receipt(session, parent_id=parent_id, order=order, lang=lang)
