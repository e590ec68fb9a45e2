"""The family credit ledger (hotmeals/services/credit.py) on SQLite and PostgreSQL: the balance
is the sum of the rows, a key writes once, and spends racing in separate processes (what two
server workers are) never take the balance below zero."""

from __future__ import annotations

import multiprocessing
from typing import Any

import pytest
from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.models import CreditEntry
from hotmeals.domain.credit import CreditKind, RefundDestination
from hotmeals.domain.errors import DomainError
from hotmeals.services import credit
from tests.factories import make_parent


def _parent(engine: Engine) -> int:
    with session_scope(engine) as session:
        parent = make_parent(session)
        session.flush()
        assert parent.id is not None
        return parent.id


def _rows_sum(engine: Engine, parent_id: int) -> int:
    with session_scope(engine) as session:
        total = session.exec(
            select(func.coalesce(func.sum(CreditEntry.amount_cents), 0)).where(
                col(CreditEntry.parent_id) == parent_id
            )
        ).one()
        return int(total)


def _record(engine: Engine, parent_id: int, kind: CreditKind, cents: int, key: str, **kw: Any):
    with session_scope(engine) as session:
        return credit.record(session, parent_id, kind, cents, key=key, **kw)


def _balance(engine: Engine, parent_id: int) -> int:
    with session_scope(engine) as session:
        return credit.balance(session, parent_id)


def test_the_balance_is_the_sum_of_the_rows_and_a_key_writes_once(engine: Engine):
    parent = _parent(engine)
    assert _balance(engine, parent) == 0
    first = _record(engine, parent, CreditKind.REFUND, 1_250, "refund:cancel:1")
    again = _record(engine, parent, CreditKind.REFUND, 1_250, "refund:cancel:1")
    assert again == first  # the same answer the second time, no second row
    _record(engine, parent, CreditKind.SPEND, 500, "spend:order:1")
    _record(engine, parent, CreditKind.RESTORE, 200, "restore:cancel:2")
    _record(engine, parent, CreditKind.ADJUST, -100, "adjust:1", reason="duplicate refund")
    assert _balance(engine, parent) == _rows_sum(engine, parent) == 850
    with session_scope(engine) as session:
        kinds = [move.kind for move in credit.history(session, parent)]
    assert sorted(kinds) == sorted(
        [CreditKind.REFUND, CreditKind.SPEND, CreditKind.RESTORE, CreditKind.ADJUST]
    )


def test_a_spend_the_balance_does_not_cover_is_refused_and_writes_nothing(engine: Engine):
    parent = _parent(engine)
    _record(engine, parent, CreditKind.REFUND, 300, "refund:a")
    with pytest.raises(DomainError) as err:
        _record(engine, parent, CreditKind.SPEND, 301, "spend:a")
    assert err.value.code == "credit_insufficient"
    with pytest.raises(DomainError) as err:
        _record(engine, parent, CreditKind.ADJUST, -400, "adjust:a", reason="typo")
    assert err.value.code == "credit_insufficient"
    with pytest.raises(DomainError) as err:
        _record(engine, parent, CreditKind.ADJUST, 400, "adjust:b", reason="  ")
    assert err.value.code == "credit_reason_required"
    assert _balance(engine, parent) == _rows_sum(engine, parent) == 300


def test_a_key_reused_for_another_movement_is_a_bug_not_a_silent_answer(engine: Engine):
    parent = _parent(engine)
    _record(engine, parent, CreditKind.REFUND, 300, "refund:x")
    with pytest.raises(ValueError):
        _record(engine, parent, CreditKind.REFUND, 301, "refund:x")


def test_the_refund_choice_is_a_setting_with_the_card_by_default(engine: Engine):
    parent = _parent(engine)
    with session_scope(engine) as session:
        assert credit.refund_to(session, parent) is RefundDestination.CARD
        credit.set_refund_to(session, parent, "credit")
    with session_scope(engine) as session:
        assert credit.refund_to(session, parent) is RefundDestination.CREDIT
        with pytest.raises(DomainError) as err:
            credit.set_refund_to(session, parent, "cash")
    assert err.value.code == "refund_destination_invalid"


def _spender(url: str, parent_id: int, key: str, barrier: Any, out: Any) -> None:
    engine = make_engine(url)
    try:
        barrier.wait(timeout=60)
        with session_scope(engine) as session:
            credit.record(session, parent_id, CreditKind.SPEND, 300, key=key)
        out.put("ok")
    except DomainError as exc:
        out.put(exc.code)
    except Exception as exc:  # noqa: BLE001 - the test reads what each process got
        out.put(repr(exc))
    finally:
        engine.dispose()


def _race(engine: Engine, parent_id: int, keys: list[str]) -> list[str]:
    url = engine.url.render_as_string(hide_password=False)
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(len(keys))
    out = context.Queue()
    engine.dispose()  # no pooled connection crosses the fork
    processes = [
        context.Process(target=_spender, args=(url, parent_id, key, barrier, out)) for key in keys
    ]
    for process in processes:
        process.start()
    results = [out.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(timeout=60)
    return sorted(results)


def test_spends_racing_in_processes_never_take_the_balance_below_zero(engine: Engine):
    parent = _parent(engine)
    _record(engine, parent, CreditKind.REFUND, 1_000, "refund:race")
    results = _race(engine, parent, [f"spend:tab:{i}" for i in range(5)])
    assert results == ["credit_insufficient"] * 2 + ["ok"] * 3, results
    assert _balance(engine, parent) == _rows_sum(engine, parent) == 100


def test_one_spend_sent_by_several_processes_at_once_is_written_once(engine: Engine):
    parent = _parent(engine)
    _record(engine, parent, CreditKind.REFUND, 1_000, "refund:twice")
    results = _race(engine, parent, ["spend:same"] * 4)
    assert results == ["ok"] * 4, results  # each gets the same answer
    assert _balance(engine, parent) == 700


@pytest.mark.parametrize("moves", [1, 12])
def test_the_family_credit_read_is_three_statements_whatever_its_length(engine: Engine, moves):
    from tests.querycount import count_queries

    parent = _parent(engine)
    for n in range(moves):
        _record(engine, parent, CreditKind.REFUND, 100 + n, f"refund:{n}")
    with session_scope(engine) as session, count_queries(engine) as queries:
        data = credit.family_credit(session=session, parent_id=parent)
    assert len(data.history) == moves
    assert data.balance_cents == sum(100 + n for n in range(moves))
    assert queries.count == 3, queries.report()


def test_the_demo_parent_has_some_credit_written_once(seeded_engine: Engine):
    from hotmeals.db.models import Parent
    from hotmeals.demo.seed import DEMO_CREDIT_CENTS, load_demo_data

    with session_scope(seeded_engine) as session:
        parent = session.exec(select(Parent).where(Parent.email == "parent@example.com")).one()
        assert parent.id is not None
        assert credit.balance(session, parent.id) == DEMO_CREDIT_CENTS
        (move,) = credit.history(session, parent.id)
        assert move.kind is CreditKind.ADJUST and move.reason == "demo"
        assert credit.reason_text(move.reason, "fr") == "Crédit de démonstration"
        load_demo_data(session)  # seeding again adds nothing
        assert credit.balance(session, parent.id) == DEMO_CREDIT_CENTS
        session.rollback()  # the module's seeded database is read-only for the other tests
