"""What a card gateway answers, as types, and the protocol the payment service depends on.

Every call to the gateway ends in exactly one of these outcomes; none of them is an exception,
so a caller must decide what each one means for the payment row it is working on:

- ``Approved``: money moved (or a void/return was accepted). Keep ``txn_id``.
- ``Declined``: the card issuer said no. Nothing moved.
- ``GatewayError``: Converge refused the request itself (``errorCode``); nothing moved.
- ``UnknownOutcome``: we never got a readable answer (time-out, connection reset, HTTP 5xx,
  garbage, or Converge's own 4017 time-out). The charge **may** have happened: reconcile with
  ``txnquery`` / ``find_by_invoice`` before trying again, never charge twice.

Money is integer cents. ``cents_to_amount`` / ``amount_to_cents`` are the only place where the
wire format ``"12.50"`` is produced or read (integer arithmetic only, no float, no Decimal).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Protocol

# -- money on the wire ------------------------------------------------------------------------

_AMOUNT_RE = re.compile(r"^(\d{0,9})(?:\.(\d{1,2}))?$")
MAX_CENTS = 10**11 - 1  # $999,999,999.99: far beyond any meal order, and what the parser reads


def cents_to_amount(cents: int) -> str:
    """``1250 -> "12.50"``. Negative amounts never go to Converge."""
    if isinstance(cents, bool) or not isinstance(cents, int):
        raise TypeError("amount must be integer cents")
    if not 0 <= cents <= MAX_CENTS:
        raise ValueError("amount out of range")
    return f"{cents // 100}.{cents % 100:02d}"


def amount_to_cents(text: str) -> int:
    """``"12.50" -> 1250``; also ``"12"``, ``"12.5"`` and ``".37"`` (txnquery writes those)."""
    match = _AMOUNT_RE.match(text.strip()) if isinstance(text, str) else None
    if match is None or (match.group(1) == "" and match.group(2) is None):
        raise ValueError(f"not an amount: {text!r}")
    dollars = int(match.group(1) or "0")
    fraction = (match.group(2) or "0").ljust(2, "0")
    return dollars * 100 + int(fraction)


# -- card display helpers (no full number ever leaves these) ----------------------------------


def mask_card_number(number: str) -> str:
    """Converge's mask: first two and last four digits, ``41**********9990``."""
    digits = "".join(ch for ch in number if ch.isdigit())
    if len(digits) < 8:
        return "*" * len(digits)
    return digits[:2] + "*" * (len(digits) - 6) + digits[-4:]


# -- outcomes ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Approved:
    """``ssl_result == "0"`` and no ``errorCode``. For a void or a return, ``txn_id`` is the id
    of the new VOID/RETURN transaction, not of the sale."""

    txn_id: str
    approval_code: str
    amount_cents: int
    card_masked: str
    card_brand: str
    token: str | None
    invoice_number: str
    transaction_type: str = ""  # SALE, RETURN, VOID as Converge spells it
    raw: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class Declined:
    """The issuer refused. ``result_message`` is for people and logs, never for ``if``."""

    result_message: str
    txn_id: str | None = None
    result: str = ""
    raw: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class GatewayError:
    """Converge rejected the request (``errorCode``); nothing was charged or refunded."""

    error_code: str
    error_name: str
    error_message: str


@dataclass(frozen=True, slots=True)
class UnknownOutcome:
    """No trustworthy answer. The operation may or may not have happened."""

    reason: str


@dataclass(frozen=True, slots=True)
class TxnQueryResult:
    """One transaction as ``txnquery`` reports it (``found=False``: Converge has no such id).

    ``status`` is ``ssl_trans_status``: PEN (pended), OPN (open, unsettled), REV (review),
    STL (settled), PST / FPR / PRE (failed a rule). txnquery carries no ``ssl_result``; the
    only result indicator it has is ``ssl_result_message``, hence ``approved`` below.
    """

    found: bool
    txn_id: str
    status: str = ""
    transaction_type: str = ""
    amount_cents: int = 0
    invoice_number: str = ""
    result_message: str = ""
    approval_code: str = ""
    card_masked: str = ""
    card_brand: str = ""
    txn_time: str = ""
    settle_time: str = ""
    raw: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)

    @property
    def approved(self) -> bool:
        # UNCONFIRMED whether declines are listed at all; if they are, their message differs.
        return self.found and self.result_message.upper() in APPROVAL_MESSAGES

    @property
    def settled(self) -> bool:
        return self.status == "STL"

    def confirms_sale(self, *, amount_cents: int, invoice_number: str) -> bool:
        """The server-side check after the browser reports ``onApproval``: the sale exists,
        is approved, is for exactly this amount and invoice, and has not failed a rule."""
        return self._approved_sale(amount_cents, invoice_number, CONFIRMED_STATUSES)

    def holds_sale(self, *, amount_cents: int, invoice_number: str) -> bool:
        """An approved sale of exactly this amount and invoice, held for review (PEN, REV):
        not paid yet, and not a forgery (look again later)."""
        return self._approved_sale(amount_cents, invoice_number, HELD_STATUSES)

    def _approved_sale(
        self, amount_cents: int, invoice_number: str, statuses: frozenset[str]
    ) -> bool:
        return (
            self.approved
            and self.transaction_type.upper() == "SALE"
            and self.status in statuses
            and self.amount_cents == amount_cents
            and self.invoice_number == invoice_number
        )


APPROVAL_MESSAGES = frozenset({"APPROVAL", "APPROVED"})
# PEN (pended for review) and REV are approved authorisations that have not been released;
# treat them as "not yet" and look again later rather than as paid.
CONFIRMED_STATUSES = frozenset({"OPN", "STL"})
HELD_STATUSES = frozenset({"PEN", "REV"})


@dataclass(frozen=True, slots=True)
class TokenResult:
    """Answer of ccgettoken / ccupdatetoken / ccdeletetoken / ccquerytoken.

    ``ok`` is ``ssl_result == "0"`` and ``ssl_token_response == "SUCCESS"``; otherwise
    ``token_response`` says why (FAILURE, Invalid Token)."""

    ok: bool
    token: str
    token_response: str
    card_masked: str = ""
    card_brand: str = ""
    exp_date: str = ""
    first_name: str = ""
    last_name: str = ""
    result_message: str = ""
    raw: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)


SaleOutcome = Approved | Declined | GatewayError | UnknownOutcome
QueryOutcome = TxnQueryResult | GatewayError | UnknownOutcome
SearchOutcome = list[TxnQueryResult] | GatewayError | UnknownOutcome
TokenOutcome = TokenResult | Declined | GatewayError | UnknownOutcome


class SessionTokenError(Exception):
    """``create_session_token`` could not get a token; ``outcome`` says why. Nothing is charged
    by a session token, so this is always safe to retry."""

    def __init__(self, outcome: GatewayError | UnknownOutcome) -> None:
        self.outcome = outcome
        if isinstance(outcome, GatewayError):
            text = f"Converge session token refused: {outcome.error_code} {outcome.error_name}"
        else:
            text = f"Converge session token unavailable: {outcome.reason}"
        super().__init__(text)


class PaymentGateway(Protocol):
    """What the payment service needs from a card gateway (``ConvergeClient`` implements it;
    tests may use a fake). Card numbers never pass through it: the browser sends them to the
    gateway's Lightbox, and the server only ever sees tokens and transaction ids (PCI SAQ-A)."""

    async def create_session_token(
        self,
        amount_cents: int,
        invoice_number: str,
        *,
        transaction_type: str = "ccsale",
        first_name: str = "",
        last_name: str = "",
        email: str = "",
        save_card: bool = False,
        merchant_txn_id: str | None = None,
    ) -> str: ...

    async def sale_with_token(
        self,
        token: str,
        amount_cents: int,
        invoice_number: str,
        *,
        merchant_txn_id: str | None = None,
    ) -> SaleOutcome: ...

    async def refund(self, txn_id: str, amount_cents: int) -> SaleOutcome: ...

    async def void(self, txn_id: str) -> SaleOutcome: ...

    async def txnquery(self, txn_id: str) -> QueryOutcome: ...

    async def find_by_invoice(
        self, invoice_number: str, *, start: date, end: date
    ) -> SearchOutcome: ...

    async def query_token(self, token: str) -> TokenOutcome: ...

    async def update_token(
        self,
        token: str,
        *,
        exp_date: str | None = None,
        first_name: str | None = None,
        last_name: str | None = None,
    ) -> TokenOutcome: ...

    async def delete_token(self, token: str) -> TokenOutcome: ...
