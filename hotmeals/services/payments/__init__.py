"""The only door to money movement: charges, their confirmation and reconciliation, refunds.

No Reflex, no FastAPI here. A Reflex background handler and an ``/api/v1`` route both
``await`` the same functions; synchronous code (a thread, a CLI) uses ``run_sync``.

Design
------
Rows, not flags. Every charge attempt is a ``Payment`` row and every refund attempt a
``Refund`` row, each with its own state (``domain/payment_states.py`` lists them and their moves).
What a payment pays for reacts to its outcomes through one handler per purpose, registered
by the module that owns it (``purposes.py``), the same for the Lightbox and the saved-card
paths. What was paid is the sum of APPROVED payments; what can still be refunded is that
minus every refund that succeeded or may still succeed (PENDING, UNKNOWN). Nothing stores
"paid" or "refunded".

No transaction is held open across a network call. Converge can take 30 s to answer; a
database transaction (and on SQLite the single write lock) must not wait that long. So each
operation is three short steps:

1. **reserve** in one transaction, under the row lock: check the rules against the sums and
   write what we are about to do (a CREATED/UNKNOWN payment, a PENDING refund), then commit;
2. **call** Converge with no transaction open;
3. **record** the outcome in a new transaction, again under the row lock, with a conditional
   UPDATE that only moves the row from the state step 1 left it in.

"Assume every operation runs concurrently with itself." The lock (``lock_row``:
``SELECT ... FOR UPDATE`` on PostgreSQL; on SQLite a write to the row as the transaction's
first statement, which takes the database's write lock before anything is read) serialises
the checks, and the conditional UPDATE means a second writer changes nothing even if it got
past a check. So twenty confirmations of one approval record one APPROVED payment and one
``payment.approved`` event, and two refunds at once can never add up to more than was paid.

Never trust the browser. After the Lightbox's ``onApproval`` the browser only tells us a
transaction id; ``confirm_payment`` asks Converge (``txnquery``) and counts the payment as
paid only if that transaction is an approved, unvoided SALE for exactly our amount and our
invoice number (unique per payment, so one transaction can confirm one payment only).

Never keep a sale for nothing. Converge has no idempotency key: every attempt has its own
invoice number. When an answer is lost (``UnknownOutcome``) the payment stays UNKNOWN and the
reconciliation looks the invoice up (``find_by_invoice``); when Converge has no such charge
once the session window is over, the attempt is EXPIRED. A second sale under one invoice is a
row of its own, voided at once (``duplicates.py``); an approved payment that pays for nothing
(an order not placed, a change not applied) is voided by the module that owns its purpose, at
once or by the periodic round.

Refunds: a VOID when the whole payment is refunded before settlement, else a RETURN
(``ccreturn``); a void refused with 4018 (settled meanwhile) falls back to a return.

Every movement writes an ``AuditEvent`` (``payment.created``, ``payment.approved``,
``payment.declined``, ``refund.succeeded``, ...) with ids, amounts, invoice numbers and masked
cards, never a PIN, card number, CVV or token.

Modules: ``charging.py`` (reserve, hosted session, confirm, saved-card sale),
``reconciliation.py`` (lost answers of charges and refunds), ``refunds.py`` (reserve, send,
record), ``refund_retries.py`` (refused refunds sent again, flagged for a person),
``duplicates.py`` (second sales voided), ``steps.py`` (the one-transaction steps),
``records.py`` (locks, moves, sums, views), ``purposes.py`` (the purpose registry),
``runtime.py`` (the Lightbox script, ``run_sync``). What a call runs on (database, Converge,
clock) is ``services/runtime.Runtime``, taken as ``runtime: Runtime = APP``. This package
imports nothing of the app above it: what a closed Lightbox means to the parent is
``services/payment_outcome.py``, the periodic round that calls these is
``hotmeals/jobs/payment_round.py``.
"""

from hotmeals.services.payments.charging import (
    HostedSession,
    SessionInputs,
    charge_begun_card,
    charge_stored_card,
    confirm_approval,
    confirm_payment,
    open_hosted_session,
    open_payment_attempt,
    record_decline,
    reserve_payment,
    start_payment,
)
from hotmeals.services.payments.duplicates import void_duplicate_payments, void_duplicate_sale
from hotmeals.services.payments.reconciliation import (
    SESSION_WINDOW,
    Asked,
    ask_converge,
    reconcile_open_payments,
    reconcile_open_refunds,
    reconcile_payment,
    reconcile_refund,
    report_browser_failure,
)
from hotmeals.services.payments.records import (
    PaymentState,
    PaymentView,
    Purpose,
    RefundState,
    RefundView,
    get_payment_view,
    list_payments,
    list_refunds,
)
from hotmeals.services.payments.refund_retries import (
    FlaggedRefund,
    refunds_needing_attention,
    resend_failed_refunds,
    resolve_refund,
    retry_refund,
)
from hotmeals.services.payments.refunds import (
    PlannedRefund,
    RefundResult,
    execute_refund,
    refund,
    reserve_refund,
)
from hotmeals.services.payments.runtime import lightbox_script_url, run_sync

__all__ = [
    "Asked",
    "FlaggedRefund",
    "HostedSession",
    "SESSION_WINDOW",
    "PaymentState",
    "PaymentView",
    "PlannedRefund",
    "Purpose",
    "RefundResult",
    "RefundState",
    "RefundView",
    "SessionInputs",
    "ask_converge",
    "charge_begun_card",
    "charge_stored_card",
    "confirm_approval",
    "confirm_payment",
    "execute_refund",
    "get_payment_view",
    "lightbox_script_url",
    "list_payments",
    "list_refunds",
    "open_hosted_session",
    "open_payment_attempt",
    "reconcile_open_payments",
    "reconcile_open_refunds",
    "reconcile_payment",
    "reconcile_refund",
    "record_decline",
    "refund",
    "refunds_needing_attention",
    "report_browser_failure",
    "resend_failed_refunds",
    "reserve_payment",
    "reserve_refund",
    "resolve_refund",
    "retry_refund",
    "run_sync",
    "start_payment",
    "void_duplicate_payments",
    "void_duplicate_sale",
]
