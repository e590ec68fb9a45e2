"""Async client for Elavon Converge (North America, ``ssl_*`` fields) on httpx.

Two doors (see docs/converge.md):
- ``POST {base}/hosted-payments/transaction_token`` (form) -> a session token, plain text, for
  the browser's Lightbox. The PIN never leaves the server.
- ``POST {base}/VirtualMerchant[Demo]/processxml.do`` with ``xmldata=<txn>...</txn>``:
  sale by stored token, return, void, txnquery and the token calls.

Every XML call returns a typed outcome from ``gateway.py`` and never raises for a gateway or
network problem. Approval is ``ssl_result == "0"`` with no ``errorCode``; message text is never
matched. Time-outs, connection errors, HTTP 5xx, unreadable bodies and Converge's 4017 all
become ``UnknownOutcome`` because the charge may have gone through.

Secrets: ``ssl_pin``, ``ssl_card_number`` and ``ssl_cvv2cvc2`` (and the expiry) are scrubbed
from everything logged, and exception text that reaches an outcome is redacted too.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from datetime import date
from types import TracebackType
from typing import Any

import httpx

from hotmeals.converge.converge_wire import (
    CARD_FIELDS,
    SECRET_FIELDS,
    Parsed,
    build_txn_xml,
    parse_xml_body,
    read_gateway_error,
    read_sale,
    read_token,
    read_txnlist,
    redact_text,
    scrub_fields,
)
from hotmeals.converge.gateway import (
    Approved,
    Declined,
    GatewayError,
    QueryOutcome,
    SaleOutcome,
    SearchOutcome,
    SessionTokenError,
    TokenOutcome,
    TxnQueryResult,
    UnknownOutcome,
    cents_to_amount,
)
from hotmeals.converge.settings import ConvergeSettings

logger = logging.getLogger("hotmeals.converge.converge")

# Converge can take a while to hear back from the card network; a parent waits at most this.
DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=5.0)

MAX_INVOICE_LEN = 25
MAX_MERCHANT_TXN_ID_LEN = 39
SESSION_TRANSACTION_TYPES = frozenset({"ccsale", "ccauthonly", "ccverify", "ccgettoken"})


class ConvergeClient:
    """One per process; reuses its connection pool. ``async with`` or ``await aclose()``."""

    def __init__(
        self,
        settings: ConvergeSettings,
        *,
        timeout: httpx.Timeout = DEFAULT_TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if not isinstance(timeout, httpx.Timeout) or None in (
            timeout.connect,
            timeout.read,
            timeout.write,
            timeout.pool,
        ):
            # An unbounded wait on a payment call would hang a parent's checkout forever.
            raise ValueError("ConvergeClient needs an httpx.Timeout with every limit set")
        self.settings = settings
        self.timeout = timeout
        self._http = httpx.AsyncClient(
            timeout=timeout,
            transport=transport,
            follow_redirects=False,
            headers={"User-Agent": "hotmeals-converge/1"},
        )

    async def __aenter__(self) -> ConvergeClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    def __repr__(self) -> str:
        return f"ConvergeClient({self.settings!r})"

    # -- hosted payments ------------------------------------------------------------------

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
    ) -> str:
        """A Lightbox session token (valid about 15 minutes, for one payment attempt).

        Raises ``SessionTokenError`` with a ``GatewayError`` or ``UnknownOutcome`` inside.
        """
        if transaction_type not in SESSION_TRANSACTION_TYPES:
            raise ValueError(f"unsupported session transaction type {transaction_type!r}")
        fields = self._credentials(transaction_type)
        if transaction_type in ("ccsale", "ccauthonly"):
            if amount_cents <= 0:
                raise ValueError("a sale needs a positive amount")
            fields["ssl_amount"] = cents_to_amount(amount_cents)
        fields.update(self._references(invoice_number, merchant_txn_id))
        for key, value in (
            ("ssl_first_name", first_name),
            ("ssl_last_name", last_name),
            ("ssl_email", email),
        ):
            if value:
                fields[key] = value
        if save_card:
            fields["ssl_get_token"] = "Y"
            fields["ssl_add_token"] = "Y"

        started = time.monotonic()
        try:
            response = await self._http.post(self.settings.session_token_url, data=fields)
        except httpx.HTTPError as exc:
            outcome = UnknownOutcome(self._describe(exc))
            self._log("session_token", fields, outcome, started)
            raise SessionTokenError(outcome) from None
        body = response.text.strip()
        token_ok = (
            response.status_code == 200
            and 0 < len(body) <= 512
            and not body.startswith(("<", "{"))
            and not any(ch.isspace() for ch in body)
        )
        if token_ok:
            self._log("session_token", fields, "token", started)
            return body
        failure: GatewayError | UnknownOutcome
        parsed = parse_xml_body(body) if body.startswith("<") else None
        if parsed and parsed[0] == "txn" and "errorCode" in parsed[1][0]:
            failure = read_gateway_error(parsed[1][0])
        else:
            failure = UnknownOutcome(f"session token: HTTP {response.status_code}, no token")
        self._log("session_token", fields, failure, started)
        raise SessionTokenError(failure)

    # -- money ------------------------------------------------------------------------------

    async def sale_with_token(
        self,
        token: str,
        amount_cents: int,
        invoice_number: str,
        *,
        merchant_txn_id: str | None = None,
    ) -> SaleOutcome:
        """Charge a stored card. Use a new, unique ``invoice_number`` per charge attempt."""
        if amount_cents <= 0:
            raise ValueError("a sale needs a positive amount")
        fields = self._credentials("ccsale")
        fields["ssl_amount"] = cents_to_amount(amount_cents)
        fields["ssl_token"] = token
        fields.update(self._references(invoice_number, merchant_txn_id))
        return await self._money_call(fields)

    async def refund(self, txn_id: str, amount_cents: int) -> SaleOutcome:
        """ccreturn: partial or full; the running total may not exceed the sale (5091)."""
        if amount_cents <= 0:
            raise ValueError("a refund needs a positive amount")
        fields = self._credentials("ccreturn")
        fields["ssl_txn_id"] = txn_id
        fields["ssl_amount"] = cents_to_amount(amount_cents)
        return await self._money_call(fields)

    async def void(self, txn_id: str) -> SaleOutcome:
        """ccvoid: only before settlement. After settlement the simulator answers
        ``GatewayError("4018")``; fall back to ``refund`` for the remaining amount."""
        fields = self._credentials("ccvoid")
        fields["ssl_txn_id"] = txn_id
        return await self._money_call(fields, amount_required=False)

    async def get_token(
        self,
        card_number: str,
        exp_date: str,
        *,
        cvv: str | None = None,
        first_name: str = "",
        last_name: str = "",
        verify: bool = False,
    ) -> TokenOutcome:
        """ccgettoken with a card number. The app never does this (the Lightbox does); it
        exists for tests and tools. Card data is sent, never logged or kept."""
        fields = self._credentials("ccgettoken")
        fields["ssl_card_number"] = card_number
        fields["ssl_exp_date"] = exp_date
        if cvv:
            fields["ssl_cvv2cvc2"] = cvv
            fields["ssl_cvv2cvc2_indicator"] = "1"
        if first_name:
            fields["ssl_first_name"] = first_name
        if last_name:
            fields["ssl_last_name"] = last_name
        fields["ssl_verify"] = "Y" if verify else "N"
        fields["ssl_add_token"] = "Y"
        return await self._token_call(fields, card_failure_is_decline=True)

    async def update_token(
        self,
        token: str,
        *,
        exp_date: str | None = None,
        first_name: str | None = None,
        last_name: str | None = None,
    ) -> TokenOutcome:
        fields = self._credentials("ccupdatetoken")
        fields["ssl_token"] = token
        for key, value in (
            ("ssl_exp_date", exp_date),
            ("ssl_first_name", first_name),
            ("ssl_last_name", last_name),
        ):
            if value is not None:
                fields[key] = value
        return await self._token_call(fields)

    async def delete_token(self, token: str) -> TokenOutcome:
        fields = self._credentials("ccdeletetoken")
        fields["ssl_token"] = token
        return await self._token_call(fields)

    async def query_token(self, token: str) -> TokenOutcome:
        fields = self._credentials("ccquerytoken")
        fields["ssl_token"] = token
        return await self._token_call(fields)

    # -- looking things up --------------------------------------------------------------------

    async def txnquery(self, txn_id: str) -> QueryOutcome:
        fields = self._credentials("txnquery")
        fields["ssl_txn_id"] = txn_id
        found = await self._query_call(fields)
        if isinstance(found, list):
            for item in found:
                if item.txn_id == txn_id:
                    return item
            return TxnQueryResult(found=False, txn_id=txn_id)
        return found

    async def search(self, *, start: date, end: date) -> SearchOutcome:
        """Every transaction between ``start`` and ``end`` (inclusive), whatever its invoice:
        ``txnquery`` by date (documented; a server-side invoice filter is UNCONFIRMED)."""
        fields = self._credentials("txnquery")
        fields["ssl_search_start_date"] = start.strftime("%m/%d/%Y")
        fields["ssl_search_end_date"] = end.strftime("%m/%d/%Y")
        return await self._query_call(fields)

    async def find_by_invoice(
        self, invoice_number: str, *, start: date, end: date
    ) -> SearchOutcome:
        """Every transaction between ``start`` and ``end`` (inclusive) with this invoice number:
        the way to reconcile a charge whose answer was lost, since then we have no txn id.
        Searches by date and filters by invoice here (``search``)."""
        found = await self.search(start=start, end=end)
        if isinstance(found, list):
            return [item for item in found if item.invoice_number == invoice_number]
        return found

    # -- plumbing -------------------------------------------------------------------------------

    def _credentials(self, transaction_type: str) -> dict[str, str]:
        return {
            "ssl_merchant_id": self.settings.merchant_id,
            "ssl_user_id": self.settings.user_id,
            "ssl_pin": self.settings.pin,
            "ssl_transaction_type": transaction_type,
        }

    @staticmethod
    def _references(invoice_number: str, merchant_txn_id: str | None) -> dict[str, str]:
        if len(invoice_number) > MAX_INVOICE_LEN:
            raise ValueError(f"invoice number longer than {MAX_INVOICE_LEN} characters")
        refs = {"ssl_invoice_number": invoice_number} if invoice_number else {}
        if merchant_txn_id:
            if len(merchant_txn_id) > MAX_MERCHANT_TXN_ID_LEN:
                raise ValueError(f"merchant txn id longer than {MAX_MERCHANT_TXN_ID_LEN}")
            refs["ssl_merchant_txn_id"] = merchant_txn_id
        return refs

    async def _post_xml(self, fields: dict[str, str]) -> Parsed | UnknownOutcome:
        xml = build_txn_xml(fields)
        try:
            # data= form-encodes exactly once; encoding the XML ourselves as well gives 4005.
            response = await self._http.post(self.settings.xml_url, data={"xmldata": xml})
        except httpx.HTTPError as exc:
            return UnknownOutcome(self._describe(exc, fields))
        if response.status_code != 200:
            return UnknownOutcome(f"HTTP {response.status_code}")
        parsed = parse_xml_body(response.text)
        if parsed is None:
            return UnknownOutcome("unreadable answer")
        return parsed

    async def _money_call(
        self, fields: dict[str, str], *, amount_required: bool = True
    ) -> SaleOutcome:
        started = time.monotonic()
        outcome = read_sale(await self._post_xml(fields), amount_required=amount_required)
        self._log(fields["ssl_transaction_type"], fields, outcome, started)
        return outcome

    async def _token_call(
        self, fields: dict[str, str], *, card_failure_is_decline: bool = False
    ) -> TokenOutcome:
        started = time.monotonic()
        outcome = read_token(
            await self._post_xml(fields),
            token=fields.get("ssl_token", ""),
            card_failure_is_decline=card_failure_is_decline,
        )
        self._log(fields["ssl_transaction_type"], fields, outcome, started)
        return outcome

    async def _query_call(
        self, fields: dict[str, str]
    ) -> list[TxnQueryResult] | GatewayError | UnknownOutcome:
        started = time.monotonic()
        outcome = read_txnlist(await self._post_xml(fields))
        self._log("txnquery", fields, outcome, started)
        return outcome

    def _describe(self, exc: httpx.HTTPError, fields: Mapping[str, str] | None = None) -> str:
        kind = "time-out" if isinstance(exc, httpx.TimeoutException) else "connection error"
        secrets = [self.settings.pin]
        if fields:
            secrets += [fields.get(key, "") for key in SECRET_FIELDS | CARD_FIELDS]
        return redact_text(f"{kind}: {type(exc).__name__}: {exc}", secrets).rstrip(": ")

    def _log(self, call: str, fields: Mapping[str, str], outcome: object, started: float) -> None:
        elapsed_ms = (time.monotonic() - started) * 1000
        summary = type(outcome).__name__ if not isinstance(outcome, str) else outcome
        detail = ""
        if isinstance(outcome, list):
            summary = f"{len(outcome)} found"
        if isinstance(outcome, Approved | Declined):
            detail = f" txn={outcome.txn_id}"
        elif isinstance(outcome, GatewayError):
            detail = f" code={outcome.error_code}"
        elif isinstance(outcome, UnknownOutcome):
            detail = f" reason={outcome.reason}"
        level = logging.WARNING if isinstance(outcome, UnknownOutcome) else logging.INFO
        logger.log(
            level,
            "converge %s invoice=%s amount=%s -> %s%s (%.0f ms)",
            call,
            fields.get("ssl_invoice_number", "-"),
            fields.get("ssl_amount", "-"),
            summary,
            detail,
            elapsed_ms,
        )
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug("converge %s request %s", call, scrub_fields(fields))


class SharedSearches:
    """A reconciliation round's searches, shared: Converge's search by date lists every
    transaction of its days whatever the invoice, so a round that asks about N open attempts
    (or refunds) of the same days makes one search, not N, and picks each one's invoice out of
    it. A failed search is not kept (the next item asks again).

    Safe because the round fixes its ``now`` before its first search: an item is closed for
    "no sale" only when its session (window) ended before that ``now``, so any sale of it was
    made before the shared search was. A gateway without ``search`` (a test's fake) is asked
    per invoice, as before. Anything else goes to the wrapped gateway."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.searches = 0  # how many searches this round made (read by tests)
        self._found: dict[tuple[date, date], list[TxnQueryResult]] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def find_by_invoice(
        self, invoice_number: str, *, start: date, end: date
    ) -> SearchOutcome:
        if getattr(type(self.inner), "search", None) is None:
            return await self.inner.find_by_invoice(invoice_number, start=start, end=end)
        found = self._found.get((start, end))
        if found is None:
            self.searches += 1
            answer = await self.inner.search(start=start, end=end)
            if not isinstance(answer, list):
                return answer
            found = self._found[(start, end)] = answer
        return [item for item in found if item.invoice_number == invoice_number]
