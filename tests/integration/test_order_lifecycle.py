"""An order's status moves only through services/ordering/lifecycle.py, on SQLite and
PostgreSQL: each move is checked against the transition table, is a conditional UPDATE that a
second writer holding a stale copy cannot undo, and leaves an audit event of where it went."""

from __future__ import annotations

import ast
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import AuditEvent, Order
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import OrderStatus
from hotmeals.services.ordering import lifecycle
from tests.factories import make_parent

NOW = datetime(2027, 1, 11, 12, 0, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[2] / "hotmeals"


def _order(engine: Engine) -> int:
    with session_scope(engine) as session:
        parent = make_parent(session)
        session.flush()
        order = Order(
            number=f"HM-L{parent.id}",
            parent_id=parent.id or 0,
            tax_bps=1300,
            processing_fee_bps=0,
            processing_fee_fixed_cents=0,
            total_pay_cents=700,
            created_at=NOW,
            updated_at=NOW,
        )
        session.add(order)
        session.flush()
        return order.id or 0


def _events(session: Session, order_id: int) -> list[tuple[str, dict]]:
    rows = session.exec(
        select(AuditEvent)
        .where(AuditEvent.entity == "order", AuditEvent.entity_id == str(order_id))
        .order_by(AuditEvent.id)  # type: ignore[arg-type]
    ).all()
    return [(row.kind, json.loads(row.data)) for row in rows]


def test_a_payment_that_fails_then_succeeds_moves_the_order_and_each_move_is_audited(
    engine: Engine,
) -> None:
    order_id = _order(engine)
    with session_scope(engine) as session:
        order = session.get(Order, order_id)
        assert order is not None
        assert lifecycle.fail_payment(session, order, now=NOW, payment_id=5)
        assert not lifecycle.fail_payment(session, order, now=NOW, payment_id=5)  # already
        assert lifecycle.retry_payment(session, order, now=NOW, payment_id=6, why="card")
        assert not lifecycle.retry_payment(session, order, now=NOW, payment_id=6, why="card")
        lifecycle.place(session, order, now=NOW, data={"payment_id": 6})
    with session_scope(engine) as session:
        order = session.get(Order, order_id)
        assert order is not None
        assert order.status == OrderStatus.PLACED
        assert order.placed_at is not None
        assert _events(session, order_id) == [
            (
                "order.payment_failed",
                {"payment_id": 5, "from": "pending_payment", "to": "payment_failed"},
            ),
            (
                "order.payment_retried",
                {"payment_id": 6, "why": "card", "from": "payment_failed", "to": "pending_payment"},
            ),
            ("order.placed", {"payment_id": 6, "from": "pending_payment", "to": "placed"}),
        ]


def test_a_move_the_table_refuses_changes_nothing(engine: Engine) -> None:
    order_id = _order(engine)
    with session_scope(engine) as session:
        order = session.get(Order, order_id)
        assert order is not None
        lifecycle.place(session, order, now=NOW, data={})
    with session_scope(engine) as session:
        order = session.get(Order, order_id)
        assert order is not None
        with pytest.raises(DomainError) as info:
            lifecycle.drop_unpaid(session, order, now=NOW, kind="order.abandoned", data={})
        assert info.value.code == "invalid_order_transition"
        assert not lifecycle.fail_payment(session, order, now=NOW, payment_id=1)
    with session_scope(engine) as session:
        order = session.get(Order, order_id)
        assert order is not None and order.status == OrderStatus.PLACED
        assert [kind for kind, _ in _events(session, order_id)] == ["order.placed"]


def test_a_writer_with_a_stale_copy_cannot_undo_another_writers_move(engine: Engine) -> None:
    order_id = _order(engine)
    with session_scope(engine) as stale_session:
        stale = stale_session.get(Order, order_id)
        assert stale is not None and stale.status == OrderStatus.PENDING_PAYMENT
        stale_session.commit()  # its copy stays, its read transaction ends
        with session_scope(engine) as session:
            order = session.get(Order, order_id)
            assert order is not None
            lifecycle.place(session, order, now=NOW, data={})
        with pytest.raises(DomainError) as info:
            lifecycle.drop_unpaid(stale_session, stale, now=NOW, kind="order.abandoned", data={})
        assert info.value.code == "invalid_order_transition"
        stale_session.rollback()
    with session_scope(engine) as session:
        order = session.get(Order, order_id)
        assert order is not None and order.status == OrderStatus.PLACED
        assert [kind for kind, _ in _events(session, order_id)] == ["order.placed"]


def test_a_placed_order_is_delivered_once_and_then_nothing_moves_it(engine: Engine) -> None:
    order_id = _order(engine)
    with session_scope(engine) as session:
        order = session.get(Order, order_id)
        assert order is not None
        with pytest.raises(DomainError):  # not paid: nothing to deliver
            lifecycle.deliver(session, [order], now=NOW, actor="school", data={})
        lifecycle.place(session, order, now=NOW, data={})
        lifecycle.deliver(session, [order], now=NOW, actor="school", data={"day": "2027-01-11"})
        with pytest.raises(DomainError):
            lifecycle.deliver(session, [order], now=NOW, actor="school", data={})
    with session_scope(engine) as session:
        order = session.get(Order, order_id)
        assert order is not None and order.status == OrderStatus.DELIVERED
        assert _events(session, order_id)[-1] == (
            "order.delivered",
            {"day": "2027-01-11", "from": "placed", "to": "delivered"},
        )


def _status_writes(path: Path) -> list[str]:
    """``x.status = ...`` for an order or a line (named so, or set to an Order/Line status)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        value = ast.unparse(node.value) if node.value is not None else ""
        for target in targets:
            if not (isinstance(target, ast.Attribute) and target.attr == "status"):
                continue
            owner = ast.unparse(target.value)
            if "order" in owner.lower() or "line" in owner.lower() or "Status" in value:
                found.append(f"{path.relative_to(ROOT.parent)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_code_but_the_lifecycle_writes_an_orders_or_a_lines_status() -> None:
    writes = [
        write
        for path in sorted(ROOT.rglob("*.py"))
        if path.name != "lifecycle.py"
        for write in _status_writes(path)
    ]
    assert writes == []
    # the check sees the lifecycle's own write of a line's status
    assert _status_writes(ROOT / "services" / "ordering" / "lifecycle.py")
