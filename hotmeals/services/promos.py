"""Promo codes: which codes a parent may use, and checking one against the cart.

A code is usable by a parent when it is active, open to every parent or given to this one,
within its validity dates (Toronto calendar days, both ends included) and not used up: its
uses are counted on paid orders only (placed, partially cancelled, delivered), so an abandoned
or failed payment does not use it. The minimum order is checked against the cart's meal net by
``domain.charges.check_promo``; the discount itself is ``domain.charges.Promo``.
Another parent's code answers exactly like an unknown one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import func
from sqlmodel import Session, col, or_, select

from hotmeals import clock
from hotmeals.db.models import Order, PromoCode
from hotmeals.domain.charges import Promo
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import ORDERED_STATUSES

CODE_MAX = 32
USED_STATUSES = [str(s) for s in ORDERED_STATUSES]


def normalize_code(value: str) -> str:
    text = "".join(value.split()).upper()
    if not text:
        raise DomainError("promo_required", field="promo_code")
    if len(text) > CODE_MAX:
        raise DomainError("promo_not_found", field="promo_code")
    return text


def to_promo(row: PromoCode) -> Promo:
    if row.percent_bps:
        return Promo.percent(row.percent_bps, min_order_cents=row.min_order_cents, code=row.code)
    return Promo.fixed(row.amount_off_cents, min_order_cents=row.min_order_cents, code=row.code)


def _uses(session: Session, promo_ids: list[int]) -> dict[int, int]:
    if not promo_ids:
        return {}
    rows = session.exec(
        select(Order.promo_code_id, func.count())
        .where(col(Order.promo_code_id).in_(promo_ids), col(Order.status).in_(USED_STATUSES))
        .group_by(col(Order.promo_code_id))
    ).all()
    return {promo_id: count for promo_id, count in rows if promo_id is not None}


def usable_promo(*, session: Session, parent_id: int, code: str, now: datetime) -> PromoCode:
    """The row of a code this parent may use on ``now``'s day (the pricing call's one
    instant), else a refusal saying why."""
    key = normalize_code(code)
    row = session.exec(select(PromoCode).where(PromoCode.code == key)).first()
    if row is None or not row.is_active or row.parent_id not in (None, parent_id):
        raise DomainError("promo_not_found", field="promo_code")
    today = clock.today(now)
    if row.valid_from and today < row.valid_from:
        raise DomainError("promo_not_started", field="promo_code", date=row.valid_from.isoformat())
    if row.valid_until and today > row.valid_until:
        raise DomainError("promo_expired", field="promo_code", date=row.valid_until.isoformat())
    if (
        row.max_uses is not None
        and _uses(session, [row.id or 0]).get(row.id or 0, 0) >= row.max_uses
    ):
        raise DomainError("promo_used_up", field="promo_code")
    return row


@dataclass(frozen=True)
class UsablePromo:
    """A code the parent can use today, with what it takes off and its conditions."""

    code: str
    description_en: str
    description_fr: str
    percent_bps: int  # 1000 = 10 %
    amount_off_cents: int
    min_order_cents: int
    valid_until: date | None
    personal: bool  # the parent's own code (not one open to all)

    @property
    def kind(self) -> str:
        return "percent" if self.percent_bps else "fixed"


def list_for_parent(*, session: Session, parent_id: int) -> list[UsablePromo]:
    """The codes this parent can use today (open to all or their own), in two statements."""
    today: date = clock.today()
    rows = session.exec(
        select(PromoCode)
        .where(
            PromoCode.is_active,
            or_(col(PromoCode.parent_id).is_(None), col(PromoCode.parent_id) == parent_id),
            or_(col(PromoCode.valid_from).is_(None), col(PromoCode.valid_from) <= today),
            or_(col(PromoCode.valid_until).is_(None), col(PromoCode.valid_until) >= today),
        )
        .order_by(PromoCode.code)
    ).all()
    uses = _uses(session, [r.id for r in rows if r.max_uses is not None and r.id is not None])
    return [
        UsablePromo(
            code=r.code,
            description_en=r.description_en,
            description_fr=r.description_fr,
            percent_bps=r.percent_bps,
            amount_off_cents=r.amount_off_cents,
            min_order_cents=r.min_order_cents,
            valid_until=r.valid_until,
            personal=r.parent_id is not None,
        )
        for r in rows
        if r.max_uses is None or uses.get(r.id or 0, 0) < r.max_uses
    ]
