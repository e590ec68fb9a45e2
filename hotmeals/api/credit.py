"""/api/v1/Parent/user/FamilyCredit (the balance and its movements) and RefundChoice (where
refunds go by default). Documented in docs/api.md."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends

from hotmeals.api.bodies import openapi_body
from hotmeals.api.credit_schemas import FamilyCreditOut, RefundChoiceIn, RefundChoiceOut
from hotmeals.api.deps import (
    PARENT_USER,
    ParentWriting,
    SignedIn,
    answer,
    answered,
    api_router,
    json_body,
)
from hotmeals.api.envelope import Envelope
from hotmeals.services import credit, submissions
from hotmeals.services.transaction import run_in_transaction

router = api_router()


@router.get(
    "/Parent/user/FamilyCredit",
    tags=PARENT_USER,
    summary="The family's credit: its balance (the sum of its movements) and the newest ones",
    response_model=Envelope[FamilyCreditOut],
)
async def family_credit(who: SignedIn) -> Any:
    data = await run_in_transaction(credit.family_credit, parent_token=who.token, lang=who.lang)
    return answer(data, who.lang)


@router.post(
    "/Parent/user/RefundChoice",
    tags=PARENT_USER,
    summary="Where refunds go unless said otherwise: back to the card (default) or family credit",
    response_model=Envelope[RefundChoiceOut],
    openapi_extra=openapi_body(RefundChoiceIn),
)
async def refund_choice(
    who: ParentWriting, body: Annotated[RefundChoiceIn, Depends(json_body(RefundChoiceIn))]
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="refund_choice",
        fn=credit.choose_refund_to,
        refund_to=body.refund_to,
    )
    return answered(done, who.lang, "success")
