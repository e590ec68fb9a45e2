"""Family credit's arithmetic (hotmeals/domain/credit.py): what each source paid is what it can
get back, credit first, never more."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hotmeals.domain.credit import (
    CreditKind,
    RefundDestination,
    payment_split,
    refund_split,
    signed_amount,
)
from hotmeals.domain.errors import DomainError

cents = st.integers(min_value=0, max_value=100_000)


def test_a_movement_is_signed_by_its_kind_and_never_zero():
    assert signed_amount(CreditKind.REFUND, 500) == 500
    assert signed_amount(CreditKind.RESTORE, 500) == 500
    assert signed_amount(CreditKind.SPEND, 500) == -500
    assert signed_amount(CreditKind.ADJUST, -250) == -250
    for kind, amount in [
        (CreditKind.SPEND, 0),
        (CreditKind.REFUND, -1),
        (CreditKind.ADJUST, 0),
        (CreditKind.SPEND, 1.5),
        (CreditKind.SPEND, True),
    ]:
        with pytest.raises(DomainError) as err:
            signed_amount(kind, amount)  # type: ignore[arg-type]
        assert err.value.code == "credit_amount_invalid"


@given(total=cents, balance=st.integers(min_value=-5_000, max_value=100_000))
def test_credit_pays_first_and_the_card_the_rest(total, balance):
    split = payment_split(total, balance)
    assert split.credit_cents + split.card_cents == total
    assert 0 <= split.credit_cents <= max(balance, 0)
    assert split.card_cents == 0 or split.credit_cents == max(balance, 0)
    assert payment_split(total, balance, use_credit=False).card_cents == total


@given(
    credit=cents,
    card=cents,
    refunds=st.lists(st.integers(min_value=0, max_value=50_000), max_size=8),
    to_credit=st.lists(st.booleans(), min_size=8, max_size=8),
)
def test_refunds_go_back_to_their_sources_and_never_exceed_them(credit, card, refunds, to_credit):
    back_to_credit = from_card = 0
    for amount, choice in zip(refunds, to_credit, strict=False):
        destination = RefundDestination.CREDIT if choice else RefundDestination.CARD
        left = credit - back_to_credit + card - from_card
        if amount > left:
            with pytest.raises(DomainError):
                refund_split(
                    amount,
                    paid_by_credit=credit,
                    paid_by_card=card,
                    refunded_to_credit=back_to_credit,
                    refunded_from_card=from_card,
                    destination=destination,
                )
            continue
        split = refund_split(
            amount,
            paid_by_credit=credit,
            paid_by_card=card,
            refunded_to_credit=back_to_credit,
            refunded_from_card=from_card,
            destination=destination,
        )
        assert split.to_credit_cents + split.card_share_cents == amount
        assert split.card_refund_cents + split.credit_cents == amount
        # credit first: the card's share is touched only once credit's is all back
        assert split.card_share_cents == 0 or back_to_credit + split.to_credit_cents == credit
        back_to_credit += split.to_credit_cents
        from_card += split.card_share_cents
        assert back_to_credit <= credit and from_card <= card
