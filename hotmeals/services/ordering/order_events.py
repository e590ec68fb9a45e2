"""The audit event of something that happened to an order (placed, changed, cancelled,
dropped...), the way ``payments.records.audit_payment`` records a payment's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlmodel import Session

from hotmeals.db.models import Order
from hotmeals.services.payments.records import audit


def audit_order(
    session: Session,
    order: Order,
    *,
    kind: str,
    data: Mapping[str, Any],
    actor: str = "system",
) -> None:
    """One ``AuditEvent`` for ``order`` (by ``actor``: the parent, or the system)."""
    audit(session, actor=actor, kind=kind, entity="order", entity_id=order.id or 0, data=data)
