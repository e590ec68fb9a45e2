"""The words a parent reads after cancelling one meal, in EN and FR."""

from __future__ import annotations

from hotmeals.services.ordering.cancelling.cancel_order import CancelResult
from hotmeals.services.ordering.mails import refund_notice
from hotmeals.ui.screens.manage_meal.state import meal_cancelled_text


def _result(refund: int, refunded: int, credit: int = 0, failed: int = 0) -> CancelResult:
    return CancelResult(
        order_ids=[7],
        numbers=["HM-7"],
        cancellation_ids=[1],
        refund_cents=refund,
        refunded_cents=refunded,
        pending_cents=0,
        statuses=["CANCELLED"],
        repeated=False,
        credit_cents=credit,
        failed_cents=failed,
    )


def test_one_meal_cancelled_says_meal_and_the_cancels_refund_notice_in_both_languages():
    """The result is "Meal cancelled." and the cancel's own refund notice (how much, where:
    the card, family credit or both), the sentence every cancel door answers."""
    assert meal_cancelled_text(_result(452, 452), "en") == (
        "Meal cancelled. A refund of $4.52 will go back to your card. Refunds follow our "
        "refund policy and may take a few business days to appear."
    )
    assert meal_cancelled_text(_result(452, 452, credit=452), "fr") == (
        "Repas annulé. 4,52\u00a0$ a été ajouté à votre crédit familial. Il sera utilisé en "
        "premier lors de votre prochain paiement."
    )
    none = meal_cancelled_text(_result(0, 0), "en")
    assert none == "Meal cancelled. No refund is due for this cancellation."
    refused = meal_cancelled_text(_result(452, 0, failed=452), "en")
    assert refused == (
        "Meal cancelled. Your cancellation is recorded, but the card processor has not "
        "confirmed the refund yet: we will keep trying and e-mail you."
    )


def test_before_a_cancel_credits_share_is_said_as_still_to_come():
    """'Are you sure?' says the refund by the same rule (``ahead``): the card's words are the
    same before and after; family credit's "has been added" becomes "will be added"."""
    assert refund_notice(452, "en", ahead=True) == refund_notice(452, "en")
    assert refund_notice(452, "en", credit_cents=452, ahead=True) == (
        "$4.52 will be added to your family credit at once. It is used first at your next checkout."
    )
    assert refund_notice(452, "fr", credit_cents=452, ahead=True).startswith(
        "4,52\u00a0$ sera ajouté tout de suite à votre crédit familial."
    )
    split = refund_notice(652, "en", credit_cents=500, ahead=True)
    assert split.startswith("$5.00 goes back to your family credit at once and $1.52 to your card")


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


def test_a_history_card_counts_the_meals_still_booked_and_names_the_cancelled_ones():
    from hotmeals.ui.screens.order_history.state import items_text

    assert items_text(3, 3, "en") == "3"
    assert items_text(2, 3, "en") == "2 (1 cancelled)"
    assert items_text(0, 3, "fr") == "0 (3 annulés)"
    assert items_text(1, 2, "fr") == "1 (1 annulé)"
