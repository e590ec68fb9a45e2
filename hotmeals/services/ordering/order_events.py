"""The audit event of something that happened to an order (placed, changed, cancelled,
dropped...), the way ``payments.records.audit_payment`` records a payment's."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import insert
from sqlmodel import Session

from hotmeals.clock import now as utcnow
from hotmeals.db.models import AuditEvent, Order
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


def audit_orders(
    session: Session,
    events: Sequence[tuple[Order, Mapping[str, Any]]],
    *,
    kind: str,
    actor: str,
) -> None:
    """``audit_order`` for a batch move: one event per order (with its data), written in one
    statement whatever the number of orders."""
    if not events:
        return
    at = utcnow()
    session.execute(
        insert(AuditEvent),
        [
            {
                "actor": actor[:40],
                "kind": kind[:48],
                "entity": "order",
                "entity_id": str(order.id or 0),
                "data": json.dumps(dict(data), sort_keys=True, default=str),
                "created_at": at,
            }
            for order, data in events
        ],
    )
