"""The payments' periodic round (the ``reconcile`` job): what no request is left to finish.

It runs in one worker at a time (a lease, or the job queue) and calls down into the services:
each step takes its own row locks, so a round that overlaps another (a lease that ran out)
still records every outcome once.
"""

from __future__ import annotations

from hotmeals.services import payments
from hotmeals.services.ordering.payment_purposes import void_stray_order_payments
from hotmeals.services.runtime import APP, Runtime


async def reconcile_round(*, runtime: Runtime = APP) -> None:
    """Reconcile open payments, void order payments that paid for nothing, void duplicate
    sales, reconcile open refunds, then send again every refused refund whose next try is
    due (finitely, then flagged for a person: ``services/payments/refund_retries.py``)."""
    await payments.reconcile_open_payments(runtime=runtime)
    await void_stray_order_payments(runtime=runtime)
    await payments.void_duplicate_payments(runtime=runtime)
    await payments.reconcile_open_refunds(runtime=runtime)
    await payments.resend_failed_refunds(runtime=runtime)
