"""/api/v1/Parent/user/FamilyCredit (the balance and its movements) and RefundChoice (where
refunds go by default). Documented in docs/api.md."""

from __future__ import annotations

from hotmeals.api.calls import Get, Once, ParentRead, Post, declare_all
from hotmeals.api.credit_schemas import FamilyCreditOut, RefundChoiceIn, RefundChoiceOut
from hotmeals.api.deps import (
    PARENT_USER,
    api_router,
)
from hotmeals.services import credit

router = api_router()


declare_all(
    router,
    PARENT_USER,
    [
        Get(
            "/Parent/user/FamilyCredit",
            ParentRead("family_credit", credit.family_credit),
            answer=FamilyCreditOut,
            summary="The family's credit: its balance (the sum of its movements) and the newest "
            "ones",
        ),
        Post(
            "/Parent/user/RefundChoice",
            Once("refund_choice", credit.choose_refund_to, message="success"),
            body=RefundChoiceIn,
            answer=RefundChoiceOut,
            summary="Where refunds go unless said otherwise: back to the card (default) or "
            "family credit",
        ),
    ],
)
