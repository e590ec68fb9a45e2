import pytest

from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import (
    ALLOWED,
    LINE_ALLOWED,
    LineStatus,
    OrderStatus,
    can_cancel,
    can_modify,
    can_transition,
    can_transition_line,
    delivered_in_full,
    status_after_cancel,
    transition,
    transition_line,
)

S = OrderStatus

EXPECTED_MOVES = {
    (S.PENDING_PAYMENT, S.PLACED),
    (S.PENDING_PAYMENT, S.PAYMENT_FAILED),
    (S.PENDING_PAYMENT, S.CANCELLED),
    (S.PAYMENT_FAILED, S.PENDING_PAYMENT),
    (S.PAYMENT_FAILED, S.CANCELLED),
    (S.PLACED, S.PARTIALLY_CANCELLED),
    (S.PLACED, S.CANCELLED),
    (S.PLACED, S.DELIVERED),
    (S.PARTIALLY_CANCELLED, S.PARTIALLY_CANCELLED),
    (S.PARTIALLY_CANCELLED, S.CANCELLED),
    (S.PARTIALLY_CANCELLED, S.DELIVERED),
}
ALL_PAIRS = [(a, b) for a in OrderStatus for b in OrderStatus]


def test_order_status_values_are_stable_strings():
    assert [s.value for s in OrderStatus] == [
        "pending_payment",
        "placed",
        "partially_cancelled",
        "cancelled",
        "delivered",
        "payment_failed",
    ]
    assert OrderStatus("placed") == "placed"


def test_every_status_has_a_row_in_the_table():
    assert set(ALLOWED) == set(OrderStatus)
    assert set(LINE_ALLOWED) == set(LineStatus)


def test_table_allows_exactly_the_expected_moves():
    allowed = {(a, b) for a, targets in ALLOWED.items() for b in targets}
    assert allowed == EXPECTED_MOVES


@pytest.mark.parametrize(("current", "new"), sorted(EXPECTED_MOVES))
def test_allowed_moves_return_the_new_status(current, new):
    assert can_transition(current, new)
    assert transition(current, new) is new


@pytest.mark.parametrize(("current", "new"), [p for p in ALL_PAIRS if p not in EXPECTED_MOVES])
def test_other_moves_are_rejected(current, new):
    assert not can_transition(current, new)
    with pytest.raises(DomainError) as info:
        transition(current, new)
    assert info.value.code == "invalid_order_transition"
    assert info.value.params == {"current": current.value, "new": new.value}


def test_cancelled_and_delivered_orders_are_final():
    assert ALLOWED[S.CANCELLED] == frozenset()
    assert ALLOWED[S.DELIVERED] == frozenset()


def test_cancel_of_a_delivered_order_is_rejected():
    with pytest.raises(DomainError):
        transition(S.DELIVERED, S.CANCELLED)


def test_transition_accepts_stored_strings():
    assert transition("placed", "cancelled") is S.CANCELLED


@pytest.mark.parametrize(("current", "new"), [("placed", "bogus"), ("bogus", "placed")])
def test_unknown_status_strings_are_rejected(current, new):
    assert not can_transition(current, new)
    with pytest.raises(DomainError) as info:
        transition(current, new)
    assert info.value.code == "invalid_order_transition"


def test_line_can_be_cancelled_once():
    assert transition_line(LineStatus.ACTIVE, LineStatus.CANCELLED) is LineStatus.CANCELLED
    for current, new in [
        (LineStatus.CANCELLED, LineStatus.ACTIVE),
        (LineStatus.CANCELLED, LineStatus.CANCELLED),
        (LineStatus.ACTIVE, LineStatus.ACTIVE),
        ("active", "gone"),
    ]:
        assert not can_transition_line(current, new)
        with pytest.raises(DomainError) as info:
            transition_line(current, new)
        assert info.value.code == "invalid_line_transition"


@pytest.mark.parametrize("status", list(OrderStatus))
def test_only_paid_orders_can_be_cancelled_or_modified(status):
    paid = status in (S.PLACED, S.PARTIALLY_CANCELLED)
    assert can_cancel(status) is paid
    assert can_modify(status) is paid


def test_status_after_cancelling_every_line_is_cancelled():
    assert status_after_cancel([LineStatus.CANCELLED, LineStatus.CANCELLED]) is S.CANCELLED


def test_status_after_cancelling_some_is_partially_cancelled():
    assert status_after_cancel([LineStatus.CANCELLED, LineStatus.ACTIVE]) is (S.PARTIALLY_CANCELLED)
    # Some quantity of a line that stays active.
    assert status_after_cancel([LineStatus.ACTIVE]) is S.PARTIALLY_CANCELLED


def test_status_after_cancel_needs_lines():
    with pytest.raises(ValueError):
        status_after_cancel([])


def test_cancelling_the_last_active_line_of_an_order_with_delivered_meals_leaves_it_delivered():
    assert status_after_cancel([LineStatus.CANCELLED, LineStatus.DELIVERED]) is S.DELIVERED
    assert status_after_cancel([LineStatus.DELIVERED, LineStatus.ACTIVE]) is (S.PARTIALLY_CANCELLED)


def test_an_order_is_delivered_once_no_line_is_left_to_serve():
    assert delivered_in_full([LineStatus.DELIVERED, LineStatus.CANCELLED])
    assert not delivered_in_full([LineStatus.DELIVERED, LineStatus.ACTIVE])  # a later day
    assert not delivered_in_full([LineStatus.CANCELLED])  # nothing was handed out
