"""A receipt's PDF (services/receipt_pdf.py): made with DejaVu Sans from the system, or, on a
machine without it, with the core Helvetica font (accents kept, nothing downloaded)."""

from __future__ import annotations

from datetime import date

import pytest

from hotmeals.services import receipt_pdf
from hotmeals.services.receipt_rows import (
    Receipt,
    ReceiptCharge,
    ReceiptDay,
    ReceiptGroup,
    ReceiptHead,
    ReceiptItem,
    ReceiptLine,
    ReceiptPayment,
    ReceiptRefund,
)


def _receipt(lang: str) -> Receipt:
    amount = "12,50\u00a0$" if lang == "fr" else "$12.50"
    day = date(2026, 11, 26)
    line = ReceiptLine(
        order_line_id=1,
        meal="Poulet au beurre" if lang == "fr" else "Butter chicken",
        size_label="grand",
        quantity=1,
        cancelled_quantity=0,
        status="active",
        moved_from=None,
        moved_from_day="",
        special_note="Sans oignons, s'il vous plaît",
        items=[ReceiptItem(label="Repas × 1 à 12,50 $", cents=1250, amount=amount)],
        cents=1250,
        amount=amount,
    )
    return Receipt(
        head=ReceiptHead(
            kind="order",
            number="HM-000123",
            title="Reçu" if lang == "fr" else "Receipt",
            on=date(2026, 11, 25),
            day="mercredi 25 novembre 2026",
            parent_name="Zoé Bérubé",
            parent_email="zoe@example.com",
            seller="Hot Meals",
            seller_email="support@hotmeals.example",
            hst_number="123456789 RT0001",
            hst_label="N° d'inscription TVH 123456789 RT0001",
            lang=lang,
        ),
        order_number="HM-000123",
        order_id=1,
        status_label=None,
        promo_code=None,
        school=None,
        change_id=None,
        groups=[
            ReceiptGroup(
                child_id=1,
                child_name="Émile Bérubé",
                days=[ReceiptDay(on=day, day="jeudi 26 novembre 2026", lines=[line] * 30)],
            )
        ],
        charges=[
            ReceiptCharge(
                name="meal_net_cents", label="Montant net des repas", cents=1250, amount=amount
            ),
            ReceiptCharge(name="total_pay_cents", label="Total payé", cents=1250, amount=amount),
        ],
        total_cents=1250,
        tax_bps=1300,
        payments=[
            ReceiptPayment(
                on=date(2026, 11, 25),
                day="mercredi 25 novembre 2026",
                card="VISA 40**0002",
                paid_by="VISA 40**0002 · autorisation A1",
                approval_code="A1",
                invoice_number="HM-000123-1",
                cents=1250,
                amount=amount,
            )
        ],
        refunds=[
            ReceiptRefund(
                refund_id=1,
                on=day,
                day="jeudi 26 novembre 2026",
                state="SUCCEEDED",
                state_label="remboursé",
                cents=1250,
                amount=amount,
            )
        ],
        refunded_cents=1250,
        refunded=amount,
        net_cents=0,
        net="0,00\u00a0$",
        giveback=[
            ReceiptCharge(
                name="school", label="À la communauté scolaire", cents=50, amount="0,50\u00a0$"
            )
        ],
        changes=[],
    )


@pytest.mark.parametrize("fonts", ["system", "none"])
def test_a_long_french_receipt_makes_a_pdf_with_or_without_dejavu(monkeypatch, fonts):
    if fonts == "none":
        monkeypatch.setattr(receipt_pdf, "FONT_DIRS", ())
    elif receipt_pdf.font_files() is None:
        pytest.skip("DejaVu Sans is not installed here")
    pdf = receipt_pdf.receipt_pdf(_receipt("fr"))
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    assert pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") >= 2  # 30 lines: 2+ pages
    assert (b"DejaVuSans" in pdf) == (fonts == "system")
    assert (b"Helvetica" in pdf) == (fonts == "none")
