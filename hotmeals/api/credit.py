"""/api/v1/Parent/user/FamilyCredit (the balance and its movements) and RefundChoice (where
refunds go by default). Documented in docs/api.md."""

from __future__ import annotations

from fastapi import Depends

from hotmeals.api.credit_schemas import FamilyCreditOut, RefundChoiceIn, RefundChoiceOut
from hotmeals.api.deps import (
    PARENT_USER,
    Client,
    ParentWrite,
    api_router,
    client_context,
    parent_write,
    read_as_parent,
    route,
)
from hotmeals.services import credit

router = api_router()


@route(
    router.get,
    "/Parent/user/FamilyCredit",
    answer=FamilyCreditOut,
    tags=PARENT_USER,
    summary="The family's credit: its balance (the sum of its movements) and the newest ones",
)
async def family_credit(client: Client = Depends(client_context)):
    return await read_as_parent(client, credit.family_credit)


@route(
    router.post,
    "/Parent/user/RefundChoice",
    body=RefundChoiceIn,
    answer=RefundChoiceOut,
    tags=PARENT_USER,
    summary="Where refunds go unless said otherwise: back to the card (default) or family credit",
)
async def refund_choice(who: ParentWrite = Depends(parent_write)):
    body = await who.body(RefundChoiceIn)
    return await who.answer_once(
        "refund_choice",
        credit.choose_refund_to,
        message="success",
        refund_to=body.refund_to,
    )
