"""/api/v1/Parent/user/FamilyCredit (the balance and its movements) and RefundChoice (where
refunds go by default). Documented in docs/api.md."""

from __future__ import annotations

from hotmeals.api.calls import Once, ParentRead, declare
from hotmeals.api.credit_schemas import FamilyCreditOut, RefundChoiceIn, RefundChoiceOut
from hotmeals.api.deps import (
    PARENT_USER,
    api_router,
)
from hotmeals.services import credit

router = api_router()


declare(
    router.get,
    "/Parent/user/FamilyCredit",
    ParentRead("family_credit", credit.family_credit),
    answer=FamilyCreditOut,
    tags=PARENT_USER,
    summary="The family's credit: its balance (the sum of its movements) and the newest ones",
)


declare(
    router.post,
    "/Parent/user/RefundChoice",
    Once("refund_choice", credit.choose_refund_to, message="success"),
    body=RefundChoiceIn,
    answer=RefundChoiceOut,
    tags=PARENT_USER,
    summary="Where refunds go unless said otherwise: back to the card (default) or family credit",
)
