"""Issue 20, part 2: the words a parent reads after cancelling one meal, in EN and FR."""

from __future__ import annotations

from types import SimpleNamespace

from hotmeals.ui.state.manage_meal import meal_cancelled_text


def _result(refund: int, refunded: int, pending: int = 0, message: str = "") -> SimpleNamespace:
    return SimpleNamespace(
        refund_cents=refund, refunded_cents=refunded, pending_cents=pending, message=message
    )


def test_one_meal_cancelled_says_meal_and_its_refund_in_both_languages():
    assert meal_cancelled_text(_result(452, 452), "en") == (
        "Meal cancelled — $4.52 refund on its way"
    )
    assert meal_cancelled_text(_result(452, 0, 452), "fr") == (
        "Repas annulé — remboursement de 4,52\u00a0$ en route"
    )
    assert meal_cancelled_text(_result(0, 0), "en") == "Meal cancelled"
    refused = meal_cancelled_text(_result(452, 0, 0, "The refund is not confirmed yet."), "en")
    assert refused == "Meal cancelled. The refund is not confirmed yet."
    assert "Order" not in meal_cancelled_text(_result(452, 452), "en")


def test_french_says_one_word_for_add_ons_and_no_raw_status():
    from hotmeals.i18n import FR, t

    # One word for add-ons in the dialog, the cart, the summary and the order.
    assert {FR["ui.book.addons"], FR["checkout.addons"], FR["orders_ui.addons"]} == {"Suppléments"}
    # An order that is paid for reads as confirmed, not "past", under "À venir".
    assert FR["orderpay.status_placed"] == "Confirmée"
    # A decline never shows the processor's status word.
    for key in ("orderpay.declined", "pay.declined", "order_change.declined"):
        for lang in ("en", "fr"):
            assert "DECLINED" not in t(key, lang, reason="DECLINED"), (key, lang)
    # French puts a no-break space before the colon.
    assert FR["checkout.colon"] == "\u00a0: "
