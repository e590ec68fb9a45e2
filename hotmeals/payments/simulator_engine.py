"""State and rules of the Converge simulator; no HTTP here (that is ``simulator.py``).

``SimulatorEngine.process_xml(fields)`` answers one processxml.do request with the fields of a
``<txn>`` (a dict) or of a ``<txnlist>`` (a list of dicts); it raises ``SimError`` for an
``errorCode`` answer and ``NoAnswer`` when the processor would never answer ($22.22).
The card rules live in ``simulator_cards.py``.
"""

from __future__ import annotations

import secrets
import threading
import uuid
from collections.abc import Callable, Mapping
from dataclasses import asdict
from datetime import UTC, datetime, timedelta

from hotmeals.payments.gateway import mask_card_number
from hotmeals.payments.settings import SIM_MERCHANT_ID, SIM_PIN, SIM_USER_ID
from hotmeals.payments.simulator_cards import (
    NO_ANSWER_CENTS,
    InvalidInput,
    SimError,
    card_brand,
    check_card_number,
    check_cvv,
    check_exp_date,
    decline_reason,
    parse_amount,
    parse_search_time,
    require,
)
from hotmeals.payments.simulator_records import (
    TIME_FORMAT,
    Session,
    StoredCard,
    Txn,
    invalid_token_answer,
    query_answer,
    token_answer,
    txn_answer,
)

Clock = Callable[[], datetime]

SESSION_TTL = timedelta(minutes=15)
SESSION_TYPES = frozenset({"ccsale", "ccverify", "ccgettoken"})
XML_TYPES = frozenset(
    {
        "ccsale",
        "ccreturn",
        "ccvoid",
        "ccgettoken",
        "ccupdatetoken",
        "ccdeletetoken",
        "ccquerytoken",
        "txnquery",
    }
)
CREDENTIAL_FIELDS = ("ssl_merchant_id", "ssl_user_id", "ssl_pin")


class NoAnswer(Exception):
    """The processor never answers (test amount $22.22)."""


class SimulatorEngine:
    def __init__(self, clock: Clock | None = None, *, decline_by_cents: bool = True) -> None:
        self._clock: Clock = clock or (lambda: datetime.now(UTC))
        self.decline_by_cents = decline_by_cents
        self.lock = threading.RLock()
        self.clock_offset = timedelta(0)
        self.sessions: dict[str, Session] = {}
        self.txns: dict[str, Txn] = {}
        self.cards: dict[str, StoredCard] = {}

    def now(self) -> datetime:
        return self._clock() + self.clock_offset

    def reset(self) -> None:
        with self.lock:
            self.sessions.clear()
            self.txns.clear()
            self.cards.clear()
            self.clock_offset = timedelta(0)

    # -- credentials and dispatch -------------------------------------------------------------

    @staticmethod
    def check_credentials(fields: Mapping[str, str]) -> None:
        require(fields, "ssl_merchant_id", code="4000", name="VID Not Supplied")
        require(fields, "ssl_user_id", code="4019", name="User ID Not Supplied")
        require(fields, "ssl_pin", code="4013", name="PIN Not Supplied")
        given = tuple(fields[key] for key in CREDENTIAL_FIELDS)
        # Compare all three every time so the answer's timing says nothing about which was wrong.
        expected = (SIM_MERCHANT_ID, SIM_USER_ID, SIM_PIN)
        matches = [
            secrets.compare_digest(a.encode(), b.encode())
            for a, b in zip(given, expected, strict=True)
        ]
        if not all(matches):
            raise SimError(
                "4025",
                "Invalid Credentials",
                "The credentials supplied in the authorization request are invalid.",
            )

    def process_xml(self, fields: Mapping[str, str]) -> dict[str, str] | list[dict[str, str]]:
        self.check_credentials(fields)
        kind = require(fields, "ssl_transaction_type").lower()
        if kind not in XML_TYPES:
            raise SimError(
                "4010", "Invalid Transaction Type", "The transaction type sent is not valid."
            )
        with self.lock:
            handler = getattr(self, f"_{kind}")
            result: dict[str, str] | list[dict[str, str]] = handler(fields)
            return result

    # -- hosted payments ------------------------------------------------------------------------

    def create_session(self, fields: Mapping[str, str]) -> str:
        self.check_credentials(fields)
        kind = require(fields, "ssl_transaction_type").lower()
        if kind not in SESSION_TYPES:
            raise SimError(
                "4010", "Invalid Transaction Type", "The transaction type sent is not valid."
            )
        if kind == "ccsale":
            parse_amount(fields)
        token = secrets.token_urlsafe(32)
        kept = {k: v for k, v in fields.items() if k not in CREDENTIAL_FIELDS}
        kept["ssl_transaction_type"] = kind
        with self.lock:
            self.sessions[token] = Session(token, kept, self.now())
        return token

    def open_session(self, token: str) -> Session:
        """The session for a Lightbox request, or SimError if unknown, used or expired."""
        session = self.sessions.get(token)
        if session is None or session.used:
            raise SimError(
                "4004", "Invalid Session Token", "The session token is unknown or already used."
            )
        if self.now() - session.created_at > SESSION_TTL:
            raise SimError("4017", "Session Timeout", "The payment session has expired.")
        return session

    def process_hosted(
        self, token: str, card: Mapping[str, str], *, save_card: bool | None
    ) -> tuple[str, dict[str, str]]:
        """One Lightbox submission -> ("approval" | "declined", response fields).

        Card-format problems raise SimError before the session is used, so the payer can fix a
        typo; anything that reached the processor uses the session up."""
        with self.lock:
            session = self.open_session(token)
            fields = dict(session.fields)
            try:
                number = check_card_number(card)
                exp_date = check_exp_date(card)
                check_cvv(card)
            except SimError as error:
                raise InvalidInput(error.code, error.name, error.message) from None
            fields.update(
                ssl_card_number=number,
                ssl_exp_date=exp_date,
                ssl_cvv2cvc2=card.get("ssl_cvv2cvc2", ""),
            )
            if save_card:
                fields.update(ssl_get_token="Y", ssl_add_token="Y")
            elif save_card is not None:
                fields.pop("ssl_get_token", None)
                fields.pop("ssl_add_token", None)
            session.used = True
            kind = fields["ssl_transaction_type"]
            if kind == "ccgettoken":
                fields["ssl_verify"] = "Y"
                answer = self._ccgettoken(fields)
            elif kind == "ccverify":
                answer = self._verify(fields)
            else:
                answer = self._ccsale(fields)
            session.txn_id = answer.get("ssl_txn_id") or None
            return ("approval" if answer.get("ssl_result") == "0" else "declined"), answer

    # -- money ----------------------------------------------------------------------------------

    def _ccsale(self, fields: Mapping[str, str]) -> dict[str, str]:
        amount = parse_amount(fields)
        names = (fields.get("ssl_first_name", ""), fields.get("ssl_last_name", ""))
        token = fields.get("ssl_token", "")
        if token:
            stored = self.cards.get(token)
            if stored is None:
                raise SimError(
                    "5085", "Invalid Token", "The token supplied in the request is invalid."
                )
            number, exp_date = stored.card_number, stored.exp_date
            names = (names[0] or stored.first_name, names[1] or stored.last_name)
        else:
            number = check_card_number(fields)
            exp_date = check_exp_date(fields)
        cvv = check_cvv(fields)
        if amount == NO_ANSWER_CENTS:
            raise NoAnswer
        reason = decline_reason(
            number, exp_date, self.now(), cvv=cvv, cents=amount if self.decline_by_cents else None
        )
        txn = Txn(
            txn_id=self._new_txn_id(),
            kind="SALE",
            amount_cents=amount,
            invoice_number=fields.get("ssl_invoice_number", ""),
            card_masked=mask_card_number(number),
            card_brand=card_brand(number),
            exp_date=exp_date,
            first_name=names[0],
            last_name=names[1],
            token=token or None,
            approval_code="" if reason else f"{secrets.randbelow(10**6):06d}",
            created_at=self.now(),
            cvv_response="M" if cvv else "",
        )
        if reason is None:
            self.txns[txn.txn_id] = txn  # declines are not listed by txnquery
        answer = txn_answer(txn, result_message=reason or "APPROVAL")
        if reason is None and fields.get("ssl_get_token", "").upper() == "Y":
            stored = self._store_card(number, exp_date, *names) if not token else self.cards[token]
            txn.token = stored.token
            answer.update(
                ssl_token=stored.token,
                ssl_token_response="SUCCESS",
                ssl_add_token_response="Card Added",
            )
        return answer

    def _ccreturn(self, fields: Mapping[str, str]) -> dict[str, str]:
        sale = self._original(fields, kinds=("SALE",))
        remaining = sale.amount_cents - sale.refunded_cents
        amount = parse_amount(fields) if fields.get("ssl_amount") else remaining
        if amount > remaining or amount == 0:  # 0: nothing left to return
            raise SimError(
                "5091", "Invalid amount", "The amount exceeded the original transaction amount."
            )
        sale.refunded_cents += amount
        refund = self._child(sale, "RETURN", amount)
        return txn_answer(refund, result_message="APPROVAL")

    def _ccvoid(self, fields: Mapping[str, str]) -> dict[str, str]:
        original = self._original(fields, kinds=("SALE", "RETURN"))
        if original.status == "STL" or original.refunded_cents:
            # The simulator's choice (UNCONFIRMED for Converge): a settled sale, or one with
            # returns against it, cannot be voided; the caller falls back to ccreturn.
            raise SimError(
                "4018",
                "Void Failed",
                "The transaction is settled or has returns; issue a return instead.",
            )
        original.voided = True
        if original.kind == "RETURN" and original.parent_id:
            self.txns[original.parent_id].refunded_cents -= original.amount_cents
        void = self._child(original, "VOID", original.amount_cents)
        return txn_answer(void, result_message="APPROVAL")

    def _verify(self, fields: Mapping[str, str]) -> dict[str, str]:
        number = fields["ssl_card_number"]
        reason = decline_reason(number, fields["ssl_exp_date"], self.now(), cvv=None, cents=None)
        return {
            "ssl_result": "1" if reason else "0",
            "ssl_result_message": reason or "APPROVAL",
            "ssl_txn_id": self._new_txn_id(),
            "ssl_card_number": mask_card_number(number),
            "ssl_card_short_description": card_brand(number),
            "ssl_transaction_type": "CARDVERIFICATION",
            "ssl_txn_time": self.now().strftime(TIME_FORMAT),
        }

    # -- tokens ---------------------------------------------------------------------------------

    def _ccgettoken(self, fields: Mapping[str, str]) -> dict[str, str]:
        number = check_card_number(fields)
        exp_date = check_exp_date(fields)
        check_cvv(fields)
        first, last = fields.get("ssl_first_name", ""), fields.get("ssl_last_name", "")
        if fields.get("ssl_verify", "").upper() == "Y":
            reason = decline_reason(number, exp_date, self.now(), cvv=None, cents=None)
            if reason:
                return {
                    "ssl_result": "1",
                    "ssl_result_message": reason,
                    "ssl_token_response": "FAILURE",
                    "ssl_card_number": mask_card_number(number),
                    "ssl_card_short_description": card_brand(number),
                }
        stored = self._store_card(number, exp_date, first, last)
        answer = {"ssl_result": "0", "ssl_result_message": "APPROVAL"}
        answer.update(token_answer(stored))
        answer["ssl_add_token_response"] = "Card Added"
        return answer

    def _ccupdatetoken(self, fields: Mapping[str, str]) -> dict[str, str]:
        stored = self.cards.get(require(fields, "ssl_token"))
        if stored is None:
            return invalid_token_answer(fields["ssl_token"])
        if fields.get("ssl_card_number"):
            stored.card_number = check_card_number(fields)
        if fields.get("ssl_exp_date"):
            stored.exp_date = check_exp_date(fields)
        stored.first_name = fields.get("ssl_first_name", stored.first_name)
        stored.last_name = fields.get("ssl_last_name", stored.last_name)
        return {"ssl_result": "0", "ssl_result_message": "SUCCESS", **token_answer(stored)}

    def _ccdeletetoken(self, fields: Mapping[str, str]) -> dict[str, str]:
        token = require(fields, "ssl_token")
        if self.cards.pop(token, None) is None:
            return invalid_token_answer(token)
        return {
            "ssl_result": "0",
            "ssl_result_message": "SUCCESS",
            "ssl_token": token,
            "ssl_token_response": "SUCCESS",
        }

    def _ccquerytoken(self, fields: Mapping[str, str]) -> dict[str, str]:
        stored = self.cards.get(require(fields, "ssl_token"))
        if stored is None:
            return invalid_token_answer(fields["ssl_token"])
        return {"ssl_result": "0", "ssl_result_message": "SUCCESS", **token_answer(stored)}

    def _store_card(self, number: str, exp_date: str, first: str, last: str) -> StoredCard:
        while True:
            # 16 digits ending in the card's last four, like Converge's tokens.
            token = str(secrets.randbelow(9 * 10**11) + 10**11) + number[-4:]
            if token not in self.cards:
                break
        stored = StoredCard(token, number, exp_date, first, last, self.now())
        self.cards[token] = stored
        return stored

    # -- queries and the batch ------------------------------------------------------------------

    def _txnquery(self, fields: Mapping[str, str]) -> list[dict[str, str]]:
        if fields.get("ssl_txn_id"):
            txn = self.txns.get(fields["ssl_txn_id"])
            found = [txn] if txn else []
        else:
            start = parse_search_time(require(fields, "ssl_search_start_date"), end=False)
            end_text = fields.get("ssl_search_end_date", "")
            end = parse_search_time(end_text, end=True) if end_text else None
            invoice = fields.get("ssl_invoice_number")
            found = [
                txn
                for txn in self.txns.values()
                if start <= txn.created_at.replace(tzinfo=None)
                and (end is None or txn.created_at.replace(tzinfo=None) <= end)
                and (not invoice or txn.invoice_number == invoice)
            ]
        return [query_answer(txn) for txn in found]

    def settle(self) -> int:
        """Close the batch: every open, unvoided transaction becomes STL."""
        with self.lock:
            count = 0
            for txn in self.txns.values():
                if txn.status == "OPN" and not txn.voided:
                    txn.status, txn.settled_at = "STL", self.now()
                    count += 1
            return count

    def snapshot(self) -> dict[str, list[dict[str, object]]]:
        """State for /_sim/ (JSON-able; stored card numbers are masked)."""
        with self.lock:
            return {
                "transactions": [_jsonable(asdict(txn)) for txn in self.txns.values()],
                "tokens": [
                    {
                        "token": card.token,
                        "card_masked": card.masked,
                        "exp_date": card.exp_date,
                        "first_name": card.first_name,
                        "last_name": card.last_name,
                    }
                    for card in self.cards.values()
                ],
                "sessions": [
                    {
                        "token": s.token,
                        "used": s.used,
                        "txn_id": s.txn_id,
                        "created_at": s.created_at.isoformat(),
                        **{k: v for k, v in s.fields.items() if k.startswith("ssl_")},
                    }
                    for s in self.sessions.values()
                ],
            }

    # -- helpers --------------------------------------------------------------------------------

    def _new_txn_id(self) -> str:
        return f"{self.now():%d%m%y}AD3-{str(uuid.uuid4()).upper()}"

    def _original(self, fields: Mapping[str, str], *, kinds: tuple[str, ...]) -> Txn:
        txn = self.txns.get(require(fields, "ssl_txn_id"))
        if txn is None or txn.kind not in kinds or txn.voided:
            raise SimError(
                "5040",
                "Invalid Transaction ID",
                "The transaction ID is invalid for this transaction type.",
            )
        return txn

    def _child(self, parent: Txn, kind: str, amount_cents: int) -> Txn:
        txn = Txn(
            txn_id=self._new_txn_id(),
            kind=kind,
            amount_cents=amount_cents,
            invoice_number=parent.invoice_number,
            card_masked=parent.card_masked,
            card_brand=parent.card_brand,
            exp_date=parent.exp_date,
            first_name=parent.first_name,
            last_name=parent.last_name,
            token=parent.token,
            approval_code=f"{secrets.randbelow(10**6):06d}",
            created_at=self.now(),
            parent_id=parent.txn_id,
        )
        self.txns[txn.txn_id] = txn
        return txn


def _jsonable(data: dict[str, object]) -> dict[str, object]:
    return {k: v.isoformat() if isinstance(v, datetime) else v for k, v in data.items()}
