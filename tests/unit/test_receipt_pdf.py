"""A receipt's PDF (services/receipt_pdf.py): made with DejaVu Sans from the system, or, on a
machine without it, with the core Helvetica font (accents kept, nothing downloaded)."""

from __future__ import annotations

import pytest

from hotmeals.services import receipt_pdf


def _receipt(lang: str) -> dict:
    amount = "12,50\u00a0$" if lang == "fr" else "$12.50"
    line = {
        "meal": "Poulet au beurre" if lang == "fr" else "Butter chicken",
        "size_label": "grand",
        "quantity": 1,
        "cancelled_quantity": 0,
        "moved_from_day": "",
        "special_note": "Sans oignons, s'il vous plaît",
        "items": [{"label": "Repas × 1 à 12,50 $", "cents": 1250, "amount": amount}],
        "cents": 1250,
        "amount": amount,
    }
    return {
        "lang": lang,
        "kind": "order",
        "title": "Reçu" if lang == "fr" else "Receipt",
        "number": "HM-000123",
        "order_number": "HM-000123",
        "day": "mercredi 25 novembre 2026",
        "seller": "Hot Meals",
        "seller_email": "support@hotmeals.example",
        "hst_label": "N° d'inscription TVH 123456789 RT0001",
        "parent_name": "Zoé Bérubé",
        "parent_email": "zoe@example.com",
        "groups": [
            {
                "child_name": "Émile Bérubé",
                "days": [{"day": "jeudi 26 novembre 2026", "lines": [line] * 30}],
            }
        ],
        "charges": [
            {"name": "meal_net_cents", "label": "Montant net des repas", "amount": amount},
            {"name": "total_pay_cents", "label": "Total payé", "amount": amount},
        ],
        "payments": [
            {
                "day": "mercredi 25 novembre 2026",
                "card": "VISA 40**0002",
                "paid_by": "VISA 40**0002 · autorisation A1",
                "approval_code": "A1",
                "amount": amount,
            }
        ],
        "refunds": [
            {"day": "jeudi 26 novembre 2026", "state_label": "remboursé", "amount": amount}
        ],
        "refunded": amount,
        "net": "0,00\u00a0$",
        "giveback": [{"label": "À la communauté scolaire", "amount": "0,50\u00a0$"}],
    }


@pytest.mark.parametrize("fonts", ["system", "none"])
def test_a_long_french_receipt_makes_a_pdf_with_or_without_dejavu(monkeypatch, fonts):
    if fonts == "none":
        monkeypatch.setattr(receipt_pdf, "FONT_DIRS", ())
    elif receipt_pdf._font_files() is None:
        pytest.skip("DejaVu Sans is not installed here")
    pdf = receipt_pdf.receipt_pdf(_receipt("fr"))
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    assert pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") >= 2  # 30 lines: 2+ pages
    assert (b"DejaVuSans" in pdf) == (fonts == "system")
    assert (b"Helvetica" in pdf) == (fonts == "none")
