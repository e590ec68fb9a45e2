"""Family credit's arithmetic (hotmeals/domain/credit.py): what each source paid is what it can
get back, credit first, never more."""

from __future__ import annotations

import pytest

from hotmeals.domain.credit import (
    CreditKind,
    signed_amount,
)
from hotmeals.domain.errors import DomainError


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
