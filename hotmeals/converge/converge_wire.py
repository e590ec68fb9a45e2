"""Converge's wire format, without I/O: building ``<txn>`` requests, reading answers into the
typed outcomes of ``gateway.py``, and keeping secrets out of anything logged.

Reading rules: an ``errorCode`` is a ``GatewayError`` (4017, Converge's own time-out, is an
``UnknownOutcome``); ``ssl_result == "0"`` is approval; any other ``ssl_result`` is a decline;
anything else is an ``UnknownOutcome``. Message text is never matched.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from typing import Any
from xml.sax.saxutils import escape

from hotmeals.converge.gateway import (
    Approved,
    Declined,
    GatewayError,
    SaleOutcome,
    TokenOutcome,
    TokenResult,
    TxnQueryResult,
    UnknownOutcome,
    amount_to_cents,
    mask_card_number,
)

SECRET_FIELDS = frozenset({"ssl_pin", "ssl_cvv2cvc2", "ssl_exp_date"})
CARD_FIELDS = frozenset({"ssl_card_number"})
# A stored-card token can charge the parent again: logs keep its last four only.
TOKEN_FIELDS = frozenset({"ssl_token", "ssl_txn_auth_token"})
GATEWAY_TIMEOUT_CODE = "4017"

Parsed = tuple[str, list[dict[str, str]]]

_PAN_RUN = re.compile(r"\d(?:[ -]?\d){11,18}")
_XML_INVALID = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_FIELD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def scrub_fields(fields: Mapping[str, str]) -> dict[str, str]:
    """A copy safe to log or keep: no PIN, CVV or expiry; card numbers and tokens masked."""
    safe: dict[str, str] = {}
    for key, value in fields.items():
        if key in SECRET_FIELDS:
            safe[key] = "[redacted]"
        elif key in CARD_FIELDS:
            safe[key] = value if "*" in value else mask_card_number(value)
        elif key in TOKEN_FIELDS:
            safe[key] = "*" * max(len(value) - 4, 0) + value[-4:]
        else:
            safe[key] = value
    return safe


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    """Remove known secret values and anything that looks like a card number."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[redacted]")
    return _PAN_RUN.sub("[redacted-number]", text)


def build_txn_xml(fields: Mapping[str, str]) -> str:
    """``<txn><ssl_x>value</ssl_x>...</txn>`` with values XML-escaped. The caller form-encodes
    the result exactly once (``xmldata=``); encoding it twice earns error 4005."""
    parts = ["<txn>"]
    for key, value in fields.items():
        if not _FIELD_NAME.fullmatch(key):
            raise ValueError(f"bad field name {key!r}")
        clean = _XML_INVALID.sub("", str(value))
        parts.append(f"<{key}>{escape(clean)}</{key}>")
    parts.append("</txn>")
    return "".join(parts)


def parse_xml_body(body: str) -> Parsed | None:
    """``("txn", [fields])`` or ``("txnlist", [fields of each txn, ...])``; None if unreadable.

    A DOCTYPE is refused outright: Converge never sends one and entities are an attack surface.
    """
    if "<!DOCTYPE" in body.upper() or "<!ENTITY" in body.upper():
        return None
    try:
        root = ET.fromstring(body.strip())
    except ET.ParseError:
        return None

    def flat(node: ET.Element) -> dict[str, str]:
        return {child.tag: (child.text or "").strip() for child in node}

    if root.tag == "txn":
        return "txn", [flat(root)]
    if root.tag == "txnlist":
        count = (root.findtext("ssl_txn_count") or "").strip()
        txns = [flat(node) for node in root.findall("txn")]
        if count.isdigit() and int(count) != len(txns):
            return None
        return "txnlist", txns
    return None


def _fields(raw: Mapping[str, str], safe: Mapping[str, str], *names: str) -> dict[str, Any]:
    """An outcome's text fields ``names``, each as Converge sent ``ssl_<name>`` ('' when
    absent), and the card as every answer reports it: its masked number (from the scrubbed
    copy) and its brand."""
    return {
        **{name: raw.get(f"ssl_{name}", "") for name in names},
        "card_masked": safe.get("ssl_card_number", ""),
        "card_brand": raw.get("ssl_card_short_description", ""),
    }


def read_gateway_error(raw: Mapping[str, str]) -> GatewayError:
    return GatewayError(
        raw.get("errorCode", ""),
        redact_text(raw.get("errorName", "")),
        redact_text(raw.get("errorMessage", "")),
    )


def _one_txn(parsed: Parsed | UnknownOutcome) -> dict[str, str] | UnknownOutcome:
    """The fields of the answer's one transaction (an unknown outcome stays one; a list of
    transactions where one was asked is one)."""
    if isinstance(parsed, UnknownOutcome):
        return parsed
    if parsed[0] != "txn":
        return UnknownOutcome("unexpected txnlist")
    return parsed[1][0]


def read_sale(parsed: Parsed | UnknownOutcome, *, amount_required: bool = True) -> SaleOutcome:
    """The outcome of ccsale / ccreturn / ccvoid."""
    raw = _one_txn(parsed)
    if isinstance(raw, UnknownOutcome):
        return raw
    if "errorCode" in raw:
        error = read_gateway_error(raw)
        if error.error_code == GATEWAY_TIMEOUT_CODE:
            return UnknownOutcome(f"gateway time-out ({GATEWAY_TIMEOUT_CODE})")
        return error
    result = raw.get("ssl_result")
    safe = scrub_fields(raw)
    if result is None:
        return UnknownOutcome("answer without ssl_result")
    if result != "0":
        message = raw.get("ssl_result_message", "")
        return Declined(message, raw.get("ssl_txn_id") or None, result, safe)
    txn_id, amount = raw.get("ssl_txn_id", ""), raw.get("ssl_amount", "")
    if not txn_id or (amount_required and not amount):
        return UnknownOutcome("approval without transaction id or amount")
    try:
        amount_cents = amount_to_cents(amount) if amount else 0
    except ValueError:
        return UnknownOutcome("approval with unreadable amount")
    return Approved(
        txn_id=txn_id,
        amount_cents=amount_cents,
        token=raw.get("ssl_token") or None,
        **_fields(raw, safe, "approval_code", "invoice_number", "transaction_type"),
        raw=safe,
    )


def read_token(
    parsed: Parsed | UnknownOutcome, *, token: str = "", card_failure_is_decline: bool = False
) -> TokenOutcome:
    """The outcome of the token calls. With ``card_failure_is_decline`` (ccgettoken with a
    card), a failed verification is a ``Declined``; otherwise a ``TokenResult(ok=False)``."""
    raw = _one_txn(parsed)
    if isinstance(raw, UnknownOutcome):
        return raw
    if "errorCode" in raw:
        return read_gateway_error(raw)
    if "ssl_result" not in raw and "ssl_token_response" not in raw:
        return UnknownOutcome("unrecognised answer")
    safe = scrub_fields(raw)
    result = raw.get("ssl_result", "0")
    ok = result == "0" and raw.get("ssl_token_response") == "SUCCESS"
    if not ok and card_failure_is_decline and result != "0":
        message = raw.get("ssl_result_message", "")
        return Declined(message, raw.get("ssl_txn_id") or None, result, safe)
    return TokenResult(
        ok=ok,
        token=raw.get("ssl_token", token),
        **_fields(
            raw, safe, "token_response", "exp_date", "first_name", "last_name", "result_message"
        ),
        raw=safe,
    )


def read_txnlist(
    parsed: Parsed | UnknownOutcome,
) -> list[TxnQueryResult] | GatewayError | UnknownOutcome:
    """The transactions of a txnquery answer (an empty list when none matched)."""
    if isinstance(parsed, UnknownOutcome):
        return parsed
    if parsed[0] == "txn":
        raw = parsed[1][0]
        return read_gateway_error(raw) if "errorCode" in raw else UnknownOutcome("no txnlist")
    try:
        return [_query_result(raw) for raw in parsed[1]]
    except ValueError:
        return UnknownOutcome("unreadable amount in txnlist")


def _query_result(raw: Mapping[str, str]) -> TxnQueryResult:
    safe = scrub_fields(raw)
    amount = raw.get("ssl_amount", "")
    return TxnQueryResult(
        found=True,
        status=raw.get("ssl_trans_status", ""),
        amount_cents=amount_to_cents(amount) if amount else 0,
        **_fields(
            raw,
            safe,
            "txn_id",
            "transaction_type",
            "invoice_number",
            "result_message",
            "approval_code",
            "txn_time",
            "settle_time",
        ),
        raw=safe,
    )
