"""Records the Converge simulator keeps, and the answer fields it renders from them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from hotmeals.converge.gateway import cents_to_amount
from hotmeals.converge.simulator_identity import SIM_USER_ID

TIME_FORMAT = "%m/%d/%Y %I:%M:%S %p"


@dataclass
class Session:
    token: str
    fields: dict[str, str]  # request fields without credentials
    created_at: datetime
    used: bool = False
    txn_id: str | None = None


@dataclass
class Txn:
    txn_id: str
    kind: str  # SALE, RETURN, VOID
    amount_cents: int
    invoice_number: str
    card_masked: str
    card_brand: str
    exp_date: str
    first_name: str
    last_name: str
    token: str | None
    approval_code: str
    created_at: datetime
    status: str = "OPN"  # OPN until the batch settles, then STL
    settled_at: datetime | None = None
    voided: bool = False
    refunded_cents: int = 0  # running total of returns against a SALE
    parent_id: str | None = None  # the SALE a RETURN/VOID applies to
    cvv_response: str = ""


@dataclass
class StoredCard:
    """A card stored by ``ccgettoken``. No card number: see ``simulator_store.py``."""

    token: str
    card_masked: str
    card_brand: str
    decline: str | None  # the standing answer of a decline test card, None for the others
    exp_date: str
    first_name: str
    last_name: str
    created_at: datetime


def txn_answer(txn: Txn, *, result_message: str) -> dict[str, str]:
    # Field order of converge.md §4.
    return {
        "ssl_result": "0" if result_message == "APPROVAL" else "1",
        "ssl_result_message": result_message,
        "ssl_txn_id": txn.txn_id,
        "ssl_approval_code": txn.approval_code,
        "ssl_amount": cents_to_amount(txn.amount_cents),
        "ssl_card_number": txn.card_masked,
        "ssl_card_short_description": txn.card_brand,
        "ssl_transaction_type": txn.kind,
        "ssl_txn_time": txn.created_at.strftime(TIME_FORMAT),
        "ssl_avs_response": "M" if txn.kind == "SALE" else "",
        "ssl_cvv2_response": txn.cvv_response,
        "ssl_invoice_number": txn.invoice_number,
    }


def query_answer(txn: Txn) -> dict[str, str]:
    answer = {
        "ssl_txn_id": txn.txn_id,
        "ssl_user_id": SIM_USER_ID,
        "ssl_trans_status": txn.status,
        "ssl_card_type": "CREDITCARD",
        "ssl_card_short_description": txn.card_brand,
        "ssl_transaction_type": txn.kind,
        "ssl_txn_time": txn.created_at.strftime(TIME_FORMAT),
        "ssl_first_name": txn.first_name,
        "ssl_last_name": txn.last_name,
        "ssl_card_number": txn.card_masked,
        "ssl_exp_date": txn.exp_date,
        "ssl_entry_mode": "K",
        "ssl_amount": cents_to_amount(txn.amount_cents),
        "ssl_invoice_number": txn.invoice_number,
        "ssl_result_message": "APPROVAL",
        "ssl_approval_code": txn.approval_code,
    }
    if txn.settled_at is not None:
        answer["ssl_settle_time"] = txn.settled_at.strftime(TIME_FORMAT)
    return answer


def invalid_token_answer(token: str) -> dict[str, str]:
    return {
        "ssl_result": "1",
        "ssl_result_message": "Invalid Token",
        "ssl_token": token,
        "ssl_token_response": "Invalid Token",
    }


def token_answer(stored: StoredCard) -> dict[str, str]:
    return {
        "ssl_token": stored.token,
        "ssl_token_response": "SUCCESS",
        "ssl_card_number": stored.card_masked,
        "ssl_card_short_description": stored.card_brand,
        "ssl_exp_date": stored.exp_date,
        "ssl_first_name": stored.first_name,
        "ssl_last_name": stored.last_name,
    }
