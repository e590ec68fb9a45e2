"""A second sale under one attempt's invoice (a Lightbox submitted twice, a sale Converge
made after we gave the attempt up): recorded as a payment row of its own, pointing at the
attempt, and voided in full, so no money is kept for nothing. ``void_duplicate_payments`` is
the reconciliation round's part: a duplicate whose void Converge refused is tried again."""

from __future__ import annotations

import logging

from hotmeals.converge.gateway import TxnQueryResult
from hotmeals.domain.refunds import RefundReason
from hotmeals.services.payments import steps
from hotmeals.services.payments.records import get_payment
from hotmeals.services.payments.reversal import reverse_each, reverse_in_full
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

log = logging.getLogger("hotmeals.converge")


async def void_duplicate_sale(
    *,
    payment_id: int,
    charge: steps.Charge,
    actor: str = "system",
    runtime: Runtime = APP,
) -> int | None:
    """Record a second approved sale under ``payment_id``'s invoice as a row of its own and
    void it (a refund row of its own; a return once settled). The sale's id is checked by
    the caller against Converge. Returns the duplicate row's id (None: it is the attempt's
    own sale). Safe to repeat: the same sale is the same row, refunded once."""
    engine = runtime.engine
    dup = await run_in_transaction(
        steps.record_duplicate, engine=engine, payment_id=payment_id, charge=charge, actor=actor
    )
    if dup is not None:
        await reverse_in_full(dup, reason=RefundReason.DUPLICATE_SALE, runtime=runtime)
    return dup


async def void_duplicate_txn(
    payment_id: int, txn_id: str, actor: str, *, runtime: Runtime
) -> int | None:
    """Void ``txn_id`` as a duplicate sale of ``payment_id`` if Converge vouches that it is a
    sale of this attempt (its invoice and amount) other than the one recorded. Returns the
    duplicate row's id, or None when there is nothing of ours to void."""
    payment = await run_in_transaction(
        lambda session, **kw: get_payment(session, kw["pid"]), engine=runtime.engine, pid=payment_id
    )
    if payment.converge_txn_id == txn_id:
        return None
    query = await runtime.converge.txnquery(txn_id)
    if not isinstance(query, TxnQueryResult) or not query.confirms_sale(
        amount_cents=payment.amount_cents, invoice_number=payment.invoice_number
    ):
        return None  # not a sale of this attempt: nothing of ours to void
    return await void_duplicate_sale(
        payment_id=payment_id,
        charge=steps.Charge.of_query(query, "txnquery"),
        actor=actor,
        runtime=runtime,
    )


async def void_duplicate_payments(*, runtime: Runtime = APP) -> list[int]:
    """The round's part: every duplicate sale row not refunded yet is voided."""
    return await reverse_each(
        await run_in_transaction(steps.unrefunded_duplicates, engine=runtime.engine),
        reason=RefundReason.DUPLICATE_SALE,
        log=log,
        what="a duplicate sale",
        runtime=runtime,
    )
