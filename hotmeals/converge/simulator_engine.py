"""Rules of the Converge simulator; no HTTP here (that is ``simulator.py``), no SQL either
(that is ``simulator_store.py``, where the ledger lives so that every worker and every restart
sees the same one).

``SimulatorEngine.process_xml(fields)`` answers one processxml.do request with the fields of a
``<txn>`` (a dict) or of a ``<txnlist>`` (a list of dicts); it raises ``SimError`` for an
``errorCode`` answer and ``NoAnswer`` when the processor would never answer ($22.22).
The card rules live in ``simulator_cards.py``; the test controls in ``simulator_controls.py``.

Every request is one database transaction (``SimulatorEngine.call``). The rules that must hold
when two workers answer at once (one use per hosted session, no return beyond the sale, no
double void) read the row they depend on with ``for_update=True`` before checking it.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy.engine import Connection

from hotmeals import clock as hotmeals_clock
from hotmeals.converge.gateway import mask_card_number
from hotmeals.converge.simulator_cards import (
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
    standing_decline,
)
from hotmeals.converge.simulator_records import (
    TIME_FORMAT,
    Session,
    StoredCard,
    Txn,
    invalid_token_answer,
    query_answer,
    token_answer,
    txn_answer,
)
from hotmeals.converge.simulator_store import SimulatorStore

Clock = Callable[[], datetime]
Credentials = tuple[str, str, str]  # merchant id, user id, PIN

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


@dataclass(frozen=True)
class Call:
    """One request's transaction, and the simulator's time and settings as it began."""

    conn: Connection
    now: datetime
    decline_by_cents: bool


class SimulatorEngine:
    def __init__(
        self,
        store: SimulatorStore,
        credentials: Credentials | None,
        clock: Clock | None = None,
        *,
        decline_by_cents: bool = True,
    ) -> None:
        self.store = store
        # None: the merchant kept in the store (its generated PIN), shared by every worker.
        self.credentials = credentials
        # The demo's simulated Converge lives in the app's time (hotmeals.clock): a demo or test run
        # with its clock set finds its transactions on the days its payments say.
        self._clock: Clock = clock or hotmeals_clock.now
        # The app's start-up setting; /_sim/config overrides it in the store until a reset.
        self.default_decline_by_cents = decline_by_cents

    @contextmanager
    def call(self) -> Iterator[Call]:
        with self.store.transaction() as conn:
            control = self.store.control(conn)
            now = self._clock() + timedelta(seconds=control["clock_offset_seconds"])
            chosen = control["decline_by_cents"]
            by_cents = self.default_decline_by_cents if chosen is None else bool(chosen)
            yield Call(conn, now, by_cents)

    def now(self) -> datetime:
        with self.call() as call:
            return call.now

    # -- credentials and dispatch -------------------------------------------------------------

    def check_credentials(self, fields: Mapping[str, str]) -> None:
        """Every merchant call (processxml.do, transaction_token) names the merchant, the user
        and the PIN; missing ones answer 4000/4019/4013, wrong ones 4025 (converge.md §5)."""
        require(fields, "ssl_merchant_id", code="4000", name="VID Not Supplied")
        require(fields, "ssl_user_id", code="4019", name="User ID Not Supplied")
        require(fields, "ssl_pin", code="4013", name="PIN Not Supplied")
        given = tuple(fields[key] for key in CREDENTIAL_FIELDS)
        expected = self.credentials or self.store.merchant_credentials()
        # Compare all three every time so the answer's timing says nothing about which was wrong.
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
        with self.call() as call:
            handler = getattr(self, f"_{kind}")
            result: dict[str, str] | list[dict[str, str]] = handler(call, fields)
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
        with self.call() as call:
            self.store.add_session(call.conn, Session(token, kept, call.now))
        return token

    def _open_session(self, call: Call, token: str, *, for_update: bool = False) -> Session:
        """The session for a Lightbox request, or SimError if unknown, used or expired."""
        session = self.store.get_session(call.conn, token, for_update=for_update)
        if session is None or session.used:
            raise SimError(
                "4004", "Invalid Session Token", "The session token is unknown or already used."
            )
        if call.now - session.created_at > SESSION_TTL:
            raise SimError("4017", "Session Timeout", "The payment session has expired.")
        return session

    def session_fields(self, token: str) -> dict[str, str]:
        """What the Lightbox shows (amount, invoice, ...) for a usable session."""
        with self.call() as call:
            return dict(self._open_session(call, token).fields)

    def process_hosted(self, token: str, card: Mapping[str, str]) -> tuple[str, dict[str, str]]:
        """One Lightbox submission -> ("approval" | "declined", response fields).

        Card-format problems raise SimError before the session is used, so the payer can fix a
        typo; anything that reached the processor uses the session up, even an error or a
        processor that never answers."""
        reached_processor: SimError | NoAnswer | None = None
        with self.call() as call:
            # Locked: a second submission of the same session (another tab, another worker)
            # waits here, then finds it used.
            session = self._open_session(call, token, for_update=True)
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
            kind = fields["ssl_transaction_type"]
            answer: dict[str, str] = {}
            try:
                if kind == "ccgettoken":
                    fields["ssl_verify"] = "Y"
                    answer = self._ccgettoken(call, fields)
                elif kind == "ccverify":
                    answer = self._verify(call, fields)
                else:
                    answer = self._ccsale(call, fields)
            except (SimError, NoAnswer) as error:
                reached_processor = error  # raised once the session's use is committed
            self.store.mark_session_used(call.conn, token, answer.get("ssl_txn_id") or None)
        if reached_processor is not None:
            raise reached_processor
        return ("approval" if answer.get("ssl_result") == "0" else "declined"), answer

    # -- money ----------------------------------------------------------------------------------

    def _ccsale(self, call: Call, fields: Mapping[str, str]) -> dict[str, str]:
        amount = parse_amount(fields)
        names = (fields.get("ssl_first_name", ""), fields.get("ssl_last_name", ""))
        token = fields.get("ssl_token", "")
        stored: StoredCard | None = None
        if token:
            stored = self.store.get_card(call.conn, token)
            if stored is None:
                raise SimError(
                    "5085", "Invalid Token", "The token supplied in the request is invalid."
                )
            number = ""
            masked, brand, standing = stored.card_masked, stored.card_brand, stored.decline
            exp_date = stored.exp_date
            names = (names[0] or stored.first_name, names[1] or stored.last_name)
        else:
            number = check_card_number(fields)
            exp_date = check_exp_date(fields)
            masked, brand = mask_card_number(number), card_brand(number)
            standing = standing_decline(number)
        cvv = check_cvv(fields)
        if amount == NO_ANSWER_CENTS:
            raise NoAnswer
        reason = decline_reason(
            standing,
            exp_date,
            call.now,
            cvv=cvv,
            cents=amount if call.decline_by_cents else None,
        )
        txn = Txn(
            txn_id=self._new_txn_id(call),
            kind="SALE",
            amount_cents=amount,
            invoice_number=fields.get("ssl_invoice_number", ""),
            card_masked=masked,
            card_brand=brand,
            exp_date=exp_date,
            first_name=names[0],
            last_name=names[1],
            token=token or None,
            approval_code="" if reason else f"{secrets.randbelow(10**6):06d}",
            created_at=call.now,
            cvv_response="M" if cvv else "",
        )
        answer = txn_answer(txn, result_message=reason or "APPROVAL")
        if reason is None and fields.get("ssl_get_token", "").upper() == "Y":
            if stored is None:
                stored = self._store_card(call, number, exp_date, *names)
            txn.token = stored.token
            answer.update(
                ssl_token=stored.token,
                ssl_token_response="SUCCESS",
                ssl_add_token_response="Card Added",
            )
        if reason is None:
            self.store.add_txn(call.conn, txn)  # declines are not listed by txnquery
        return answer

    def _ccreturn(self, call: Call, fields: Mapping[str, str]) -> dict[str, str]:
        sale = self._original(call, fields, kinds=("SALE",))
        remaining = sale.amount_cents - sale.refunded_cents
        amount = parse_amount(fields) if fields.get("ssl_amount") else remaining
        if amount > remaining or amount == 0:  # 0: nothing left to return
            raise SimError(
                "5091", "Invalid amount", "The amount exceeded the original transaction amount."
            )
        sale.refunded_cents += amount
        self.store.save_txn(call.conn, sale, "refunded_cents")
        refund = self._child(call, sale, "RETURN", amount)
        return txn_answer(refund, result_message="APPROVAL")

    def _ccvoid(self, call: Call, fields: Mapping[str, str]) -> dict[str, str]:
        named = self.store.get_txn(call.conn, require(fields, "ssl_txn_id"))
        if named is not None and named.kind == "RETURN" and named.parent_id:
            # Voiding a return changes its sale too: lock the sale first, the order a return
            # takes them in, so a void and a return of one sale never wait on each other.
            self.store.get_txn(call.conn, named.parent_id, for_update=True)
        original = self._original(call, fields, kinds=("SALE", "RETURN"))
        if original.status == "STL" or original.refunded_cents:
            # The simulator's choice (UNCONFIRMED for Converge): a settled sale, or one with
            # returns against it, cannot be voided; the caller falls back to ccreturn.
            raise SimError(
                "4018",
                "Void Failed",
                "The transaction is settled or has returns; issue a return instead.",
            )
        original.voided = True
        self.store.save_txn(call.conn, original, "voided")
        if original.kind == "RETURN" and original.parent_id:
            sale = self.store.get_txn(call.conn, original.parent_id, for_update=True)
            if sale is not None:
                sale.refunded_cents -= original.amount_cents
                self.store.save_txn(call.conn, sale, "refunded_cents")
        void = self._child(call, original, "VOID", original.amount_cents)
        return txn_answer(void, result_message="APPROVAL")

    def _verify(self, call: Call, fields: Mapping[str, str]) -> dict[str, str]:
        number = fields["ssl_card_number"]
        reason = decline_reason(
            standing_decline(number), fields["ssl_exp_date"], call.now, cvv=None, cents=None
        )
        return {
            "ssl_result": "1" if reason else "0",
            "ssl_result_message": reason or "APPROVAL",
            "ssl_txn_id": self._new_txn_id(call),
            "ssl_card_number": mask_card_number(number),
            "ssl_card_short_description": card_brand(number),
            "ssl_transaction_type": "CARDVERIFICATION",
            "ssl_txn_time": call.now.strftime(TIME_FORMAT),
        }

    # -- tokens ---------------------------------------------------------------------------------

    def _ccgettoken(self, call: Call, fields: Mapping[str, str]) -> dict[str, str]:
        number = check_card_number(fields)
        exp_date = check_exp_date(fields)
        check_cvv(fields)
        first, last = fields.get("ssl_first_name", ""), fields.get("ssl_last_name", "")
        if fields.get("ssl_verify", "").upper() == "Y":
            reason = decline_reason(
                standing_decline(number), exp_date, call.now, cvv=None, cents=None
            )
            if reason:
                return {
                    "ssl_result": "1",
                    "ssl_result_message": reason,
                    "ssl_token_response": "FAILURE",
                    "ssl_card_number": mask_card_number(number),
                    "ssl_card_short_description": card_brand(number),
                }
        stored = self._store_card(call, number, exp_date, first, last)
        answer = {"ssl_result": "0", "ssl_result_message": "APPROVAL"}
        answer.update(token_answer(stored))
        answer["ssl_add_token_response"] = "Card Added"
        return answer

    def _ccupdatetoken(self, call: Call, fields: Mapping[str, str]) -> dict[str, str]:
        stored = self.store.get_card(call.conn, require(fields, "ssl_token"), for_update=True)
        if stored is None:
            return invalid_token_answer(fields["ssl_token"])
        if fields.get("ssl_card_number"):
            number = check_card_number(fields)
            stored.card_masked, stored.card_brand = mask_card_number(number), card_brand(number)
            stored.decline = standing_decline(number)
        if fields.get("ssl_exp_date"):
            stored.exp_date = check_exp_date(fields)
        stored.first_name = fields.get("ssl_first_name", stored.first_name)
        stored.last_name = fields.get("ssl_last_name", stored.last_name)
        self.store.save_card(call.conn, stored)
        return {"ssl_result": "0", "ssl_result_message": "SUCCESS", **token_answer(stored)}

    def _ccdeletetoken(self, call: Call, fields: Mapping[str, str]) -> dict[str, str]:
        token = require(fields, "ssl_token")
        if not self.store.delete_card(call.conn, token):
            return invalid_token_answer(token)
        return {
            "ssl_result": "0",
            "ssl_result_message": "SUCCESS",
            "ssl_token": token,
            "ssl_token_response": "SUCCESS",
        }

    def _ccquerytoken(self, call: Call, fields: Mapping[str, str]) -> dict[str, str]:
        stored = self.store.get_card(call.conn, require(fields, "ssl_token"))
        if stored is None:
            return invalid_token_answer(fields["ssl_token"])
        return {"ssl_result": "0", "ssl_result_message": "SUCCESS", **token_answer(stored)}

    def _store_card(
        self, call: Call, number: str, exp_date: str, first: str, last: str
    ) -> StoredCard:
        while True:
            # 16 digits ending in the card's last four, like Converge's tokens. A clash with a
            # concurrent insert would fail on the primary key rather than overwrite a card.
            token = str(secrets.randbelow(9 * 10**11) + 10**11) + number[-4:]
            if self.store.get_card(call.conn, token) is None:
                break
        stored = StoredCard(
            token=token,
            card_masked=mask_card_number(number),
            card_brand=card_brand(number),
            decline=standing_decline(number),
            exp_date=exp_date,
            first_name=first,
            last_name=last,
            created_at=call.now,
        )
        self.store.add_card(call.conn, stored)
        return stored

    # -- queries and the batch ------------------------------------------------------------------

    def _txnquery(self, call: Call, fields: Mapping[str, str]) -> list[dict[str, str]]:
        if fields.get("ssl_txn_id"):
            txn = self.store.get_txn(call.conn, fields["ssl_txn_id"])
            found = [txn] if txn else []
        else:
            # Search bounds are the gateway's clock, UTC here.
            start = parse_search_time(require(fields, "ssl_search_start_date"), end=False)
            end_text = fields.get("ssl_search_end_date", "")
            end = parse_search_time(end_text, end=True) if end_text else None
            found = self.store.find_txns(
                call.conn,
                start=start.replace(tzinfo=UTC),
                end=end.replace(tzinfo=UTC) if end else None,
                invoice=fields.get("ssl_invoice_number") or None,
            )
        return [query_answer(txn) for txn in found]

    def settle(self) -> int:
        """Close the batch: every open, unvoided transaction becomes STL."""
        with self.call() as call:
            return self.store.settle(call.conn, call.now)

    def snapshot(self) -> dict[str, list[dict[str, object]]]:
        """State for /_sim/ (JSON-able; the store keeps no card numbers)."""
        with self.call() as call:
            conn = call.conn
            return {
                "transactions": [_jsonable(asdict(txn)) for txn in self.store.find_txns(conn)],
                "tokens": [
                    {
                        "token": card.token,
                        "card_masked": card.card_masked,
                        "exp_date": card.exp_date,
                        "first_name": card.first_name,
                        "last_name": card.last_name,
                    }
                    for card in self.store.cards(conn)
                ],
                "sessions": [
                    {
                        "token": s.token,
                        "used": s.used,
                        "txn_id": s.txn_id,
                        "created_at": s.created_at.isoformat(),
                        **{k: v for k, v in s.fields.items() if k.startswith("ssl_")},
                    }
                    for s in self.store.sessions(conn)
                ],
            }

    # -- helpers --------------------------------------------------------------------------------

    @staticmethod
    def _new_txn_id(call: Call) -> str:
        return f"{call.now:%d%m%y}AD3-{str(uuid.uuid4()).upper()}"

    def _original(self, call: Call, fields: Mapping[str, str], *, kinds: tuple[str, ...]) -> Txn:
        """The transaction a return or void names, locked until this request ends."""
        txn = self.store.get_txn(call.conn, require(fields, "ssl_txn_id"), for_update=True)
        if txn is None or txn.kind not in kinds or txn.voided:
            raise SimError(
                "5040",
                "Invalid Transaction ID",
                "The transaction ID is invalid for this transaction type.",
            )
        return txn

    def _child(self, call: Call, parent: Txn, kind: str, amount_cents: int) -> Txn:
        txn = Txn(
            txn_id=self._new_txn_id(call),
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
            created_at=call.now,
            parent_id=parent.txn_id,
        )
        self.store.add_txn(call.conn, txn)
        return txn


def _jsonable(data: dict[str, object]) -> dict[str, object]:
    return {k: v.isoformat() if isinstance(v, datetime) else v for k, v in data.items()}
