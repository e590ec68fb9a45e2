"""Family credit: the ledger (rules in ``domain/credit.py``, rows in ``db/models/credit.py``).

Every movement is a row; the balance is their sum. Each write first locks the parent's row
(``services.parents.hold_parent``: ``SELECT … FOR UPDATE`` on PostgreSQL, the database's write
lock on SQLite), so two tabs spending the same credit, or a refund landing while a checkout
spends, run one after the other: the balance a spend checks is the balance it leaves behind,
and it never goes below zero. Every movement has a ``key``: written again (a retried request,
a second worker), it returns the row already there instead of moving the balance twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlmodel import Session, col, select

from hotmeals.db.models import CreditEntry, FamilyChoice, Order, utcnow
from hotmeals.domain.credit import CreditKind, RefundDestination, signed_amount
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t
from hotmeals.services.parents import hold_parent

HISTORY_LIMIT = 50
# The adjustment reasons the screens say in the parent's language (``credit.reason.<code>``);
# any other reason is shown as the operator wrote it.
ADJUST_REASONS = ("demo", "goodwill", "correction")


@dataclass(frozen=True)
class CreditMove:
    id: int
    kind: CreditKind
    amount_cents: int  # signed
    key: str
    order_id: int | None
    reason: str | None
    created_at: datetime
    order_number: str | None = None  # the order it moved for (history only)


def _move(row: CreditEntry, order_number: str | None = None) -> CreditMove:
    assert row.id is not None
    return CreditMove(
        id=row.id,
        kind=CreditKind(row.kind),
        amount_cents=row.amount_cents,
        key=row.key,
        order_id=row.order_id,
        reason=row.reason,
        created_at=row.created_at,
        order_number=order_number,
    )


def balance(session: Session, parent_id: int) -> int:
    """The family's credit in cents: the sum of its rows (one statement)."""
    total = session.exec(
        select(func.coalesce(func.sum(CreditEntry.amount_cents), 0)).where(
            col(CreditEntry.parent_id) == parent_id
        )
    ).one()
    return int(total)


def history(session: Session, parent_id: int, limit: int = HISTORY_LIMIT) -> list[CreditMove]:
    """The newest movements first, each with its order's number (one statement)."""
    rows = session.exec(
        select(CreditEntry, col(Order.number))
        .outerjoin(Order, col(Order.id) == CreditEntry.order_id)
        .where(col(CreditEntry.parent_id) == parent_id)
        .order_by(col(CreditEntry.created_at).desc(), col(CreditEntry.id).desc())
        .limit(limit)
    ).all()
    return [_move(row, number) for row, number in rows]


def reason_text(reason: str | None, lang: str) -> str:
    """An adjustment's reason as the parent reads it: one of the known reasons
    (``ADJUST_REASONS``: said in the parent's language) or the operator's own words."""
    if not reason:
        return ""
    return t(f"credit.reason.{reason}", lang) if reason in ADJUST_REASONS else reason


def about_text(move: CreditMove, lang: str) -> str:
    """What a movement was for, as the parent reads it: its order, or an adjustment's reason."""
    if move.order_number:
        return t("credit.about_order", lang, number=move.order_number)
    return reason_text(move.reason, lang)


def _existing(session: Session, parent_id: int, key: str) -> CreditEntry | None:
    return session.exec(
        select(CreditEntry).where(
            col(CreditEntry.parent_id) == parent_id, col(CreditEntry.key) == key
        )
    ).first()


def record(
    session: Session,
    parent_id: int,
    kind: CreditKind,
    amount_cents: int,
    *,
    key: str,
    order_id: int | None = None,
    reason: str | None = None,
) -> CreditMove:
    """Write one movement, once per ``key``: the parent's row is locked first, a spend (or a
    negative adjustment) is refused when the balance does not cover it, and a key written before
    returns its row unchanged (the same answer the second time)."""
    amount = signed_amount(kind, amount_cents)
    if not key or len(key) > 80:
        raise ValueError("a credit movement needs a key of 1-80 characters")
    if kind is CreditKind.ADJUST and not (reason or "").strip():
        raise DomainError("credit_reason_required", field="reason")
    hold_parent(session, parent_id)
    done = _existing(session, parent_id, key)
    if done is not None:
        if done.kind != kind or done.amount_cents != amount:
            raise ValueError(f"credit key {key!r} was used for another movement")
        return _move(done)
    if amount < 0:
        have = balance(session, parent_id)
        if have + amount < 0:
            raise DomainError("credit_insufficient", balance_cents=have, amount_cents=-amount)
    row = CreditEntry(
        parent_id=parent_id,
        kind=kind.value,
        amount_cents=amount,
        key=key,
        order_id=order_id,
        reason=(reason or "").strip() or None,
    )
    session.add(row)
    session.flush()
    return _move(row)


def _choice(session: Session, parent_id: int) -> FamilyChoice | None:
    return session.exec(
        select(FamilyChoice).where(col(FamilyChoice.parent_id) == parent_id)
    ).first()


def refund_to(session: Session, parent_id: int) -> RefundDestination:
    """The family's standing choice for refunds (the card unless they chose credit)."""
    choice = _choice(session, parent_id)
    try:
        return RefundDestination(choice.refund_to) if choice else RefundDestination.CARD
    except ValueError:
        return RefundDestination.CARD


def set_refund_to(session: Session, parent_id: int, destination: str) -> RefundDestination:
    try:
        wanted = RefundDestination(destination)
    except ValueError:
        raise DomainError("refund_destination_invalid", field="refund_to") from None
    hold_parent(session, parent_id)
    choice = _choice(session, parent_id) or FamilyChoice(parent_id=parent_id)
    choice.refund_to = wanted.value
    choice.updated_at = utcnow()
    session.add(choice)
    return wanted


@dataclass(frozen=True)
class FamilyCredit:
    balance_cents: int
    refund_to: RefundDestination  # the standing choice
    history: list[CreditMove]  # the newest first


def family_credit(*, session: Session, parent_id: int, limit: int = HISTORY_LIMIT) -> FamilyCredit:
    """What the account page and ``GET /Parent/user/FamilyCredit`` show: the balance, the
    newest movements and the standing refund choice (three statements)."""
    have = balance(session, parent_id)
    moves = history(session, parent_id, limit)
    return FamilyCredit(balance_cents=have, refund_to=refund_to(session, parent_id), history=moves)


def choose_refund_to(*, session: Session, parent_id: int, refund_to: str) -> RefundDestination:
    """``POST /Parent/user/RefundChoice``: where refunds go unless said otherwise."""
    return set_refund_to(session, parent_id, refund_to)
