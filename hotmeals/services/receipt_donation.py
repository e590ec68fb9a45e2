"""A donation's receipt (``services/receipts.py``): its amount, its payment and refunds, and
the school it gives to."""

from __future__ import annotations

from sqlmodel import Session, col, select

from hotmeals.db.models import (
    Donation,
    Parent,
    Payment,
    Refund,
    School,
)
from hotmeals.domain.money import format_money
from hotmeals.domain.payment_states import (
    DonationStatus,
    PaymentState,
)
from hotmeals.i18n import normalize_lang, t
from hotmeals.services.receipt_rows import (
    DONATION,
    Receipt,
    asked_id,
    charge_row,
    not_found,
    paid_row,
    receipt_head,
    refund_rows,
)


def donation_receipt(
    session: Session, *, parent_id: int, donation: int, lang: str = "en"
) -> Receipt:
    """The receipt of a paid donation: the gift, the school it goes to, no tax."""
    lang = normalize_lang(lang)
    donation_id = asked_id(donation)
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
        raise not_found()
    gift, school = row
    payment = session.exec(
        select(Payment).where(
            Payment.donation_id == donation_id, Payment.state == PaymentState.APPROVED
        )
    ).first()
    parent = session.get(Parent, parent_id)
    assert parent is not None
    refunds, refunded = (
        refund_rows(
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
    return Receipt(
        head=receipt_head(DONATION, f"DN-{donation_id:06d}", when, parent, lang),
        order_number="",
        order_id=None,
        status_label=None,
        promo_code=None,
        school=school_name,
        change_id=None,
        groups=[],
        charges=[
            charge_row(
                "donation_cents",
                t("receipt.donation_line", lang, school=school_name or "—"),
                gift.amount_cents,
                lang,
            ),
            charge_row("tax_cents", t("receipt.donation_no_tax", lang), 0, lang),
            charge_row("total_pay_cents", t("receipt.total_paid", lang), gift.amount_cents, lang),
        ],
        total_cents=gift.amount_cents,
        tax_bps=0,
        payments=[paid_row(payment, lang)] if payment is not None else [],
        refunds=refunds,
        refunded_cents=refunded,
        refunded=format_money(refunded, lang),
        net_cents=gift.amount_cents - refunded,
        net=format_money(gift.amount_cents - refunded, lang),
        giveback=[
            charge_row(
                "donation",
                t("receipt.giveback_gift", lang, school=school_name or "—"),
                gift.amount_cents - refunded,
                lang,
            )
        ],
        changes=[],
    )
