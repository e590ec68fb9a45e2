"""/api/v1/Parent/user/FamilyCredit (the balance and its movements) and RefundChoice (where
refunds go by default). Documented in docs/api.md."""

from __future__ import annotations

from fastapi import Depends, Request

from hotmeals.api.credit_schemas import FamilyCreditOut, RefundChoiceIn, RefundChoiceOut
from hotmeals.api.deps import (
    Client,
    ParentClient,
    answer_once,
    api_router,
    client_context,
    idempotency_key,
    parent_context,
    parse_body,
    route,
    run_as_parent,
    tags,
)
from hotmeals.api.envelope import ok
from hotmeals.i18n import t
from hotmeals.services import credit

router = api_router()
USER = tags("Parent user")


@route(
    router.get,
    "/Parent/user/FamilyCredit",
    answer=FamilyCreditOut,
    tags=USER,
    summary="The family's credit: its balance (the sum of its movements) and the newest ones",
)
async def family_credit(client: Client = Depends(client_context)):
    data = await run_as_parent(client, credit.family_credit, lang=client.lang)
    return ok(data, t("success", client.lang))


@route(
    router.post,
    "/Parent/user/RefundChoice",
    body=RefundChoiceIn,
    answer=RefundChoiceOut,
    tags=USER,
    summary="Where refunds go unless said otherwise: back to the card (default) or family credit",
)
async def refund_choice(
    request: Request,
    who: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, RefundChoiceIn, who.lang)
    return await answer_once(
        who,
        key,
        "refund_choice",
        credit.choose_refund_to,
        message="success",
        refund_to=body.refund_to,
    )
