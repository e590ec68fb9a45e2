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
from hotmeals.domain.dates import full_day
from hotmeals.domain.money import format_money
from hotmeals.i18n import t
from hotmeals.services import credit, submissions
from hotmeals.services.credit import CreditMove, FamilyCredit
from hotmeals.services.transaction import run_in_transaction

router = api_router()


def credit_move_out(move: CreditMove, lang: str) -> dict[str, Any]:
    return {
        "id": move.id,
        "kind": move.kind.value,
        "label": t(f"credit.kind.{move.kind.value}", lang),
        "amount_cents": move.amount_cents,
        "amount": format_money(move.amount_cents, lang),
        "order_id": move.order_id,
        "order_number": move.order_number,
        "about": credit.about_text(move, lang),
        "reason": move.reason,
        "date": full_day(move.created_at.date(), lang),
        "created_at": move.created_at.isoformat(),
    }


def family_credit_out(view: FamilyCredit, lang: str) -> dict[str, Any]:
    return {
        "balance_cents": view.balance_cents,
        "balance": format_money(view.balance_cents, lang),
        "refund_to": view.refund_to.value,
        "history": [credit_move_out(move, lang) for move in view.history],
    }


@router.get(
    "/Parent/user/FamilyCredit",
    tags=PARENT_USER,
    summary="The family's credit: its balance (the sum of its movements) and the newest ones",
    response_model=Envelope[FamilyCreditOut],
)
async def family_credit(who: SignedIn) -> Any:
    view = await run_in_transaction(credit.family_credit, parent_token=who.token)
    return answer(family_credit_out(view, who.lang), who.lang)


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
        present=lambda kept: {"refund_to": kept.value},
        refund_to=body.refund_to or "",
    )
    return answered(done, who.lang, "success")
