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
