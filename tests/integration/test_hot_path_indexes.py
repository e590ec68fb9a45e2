"""Every WHERE and JOIN of the hot paths finds an index in the migrated schema:
the session token, a parent's children and their allergies, a parent's settings, e-mails,
cards and donations, the menu of a school by date.

The statements are the ones the services really send (captured while they run), explained
with their own parameters: ``EXPLAIN QUERY PLAN`` on SQLite, ``EXPLAIN`` on PostgreSQL with
sequential scans discouraged (tiny test tables would otherwise be scanned whatever the
indexes), so a full scan of the table means that no index serves the query.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlmodel import select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import Donation, MenuDay, Parent, Payment, StoredCard
from hotmeals.services import accounts, children, notifications, parents
from tests.databases import SEED_TODAY
from tests.querycount import count_queries


def _plan(engine: Engine, statement: str, parameters) -> str:
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            rows = conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters).all()
            return "\n".join(str(row[-1]) for row in rows)
        conn.execute(text("SET enable_seqscan = off"))
        rows = conn.exec_driver_sql("EXPLAIN " + statement, parameters).all()
        return "\n".join(str(row[0]) for row in rows)


def _full_scans(engine: Engine, plan: str, table: str) -> bool:
    if engine.dialect.name == "sqlite":
        # "SCAN child" is a full scan; "SEARCH child USING INDEX ..." is not.
        return any(
            line.strip().startswith(f"SCAN {table}") and "USING" not in line
            for line in plan.splitlines()
        )
    return f"Seq Scan on {table} " in plan + " " or f'Seq Scan on "{table}"' in plan


def _hot_statements(engine: Engine) -> list[tuple[str, str, object]]:
    """(table that must be searched by index, statement, parameters) of each hot read."""
    with session_scope(engine) as session:
        parent = session.exec(select(Parent).where(Parent.email == "parent@example.com")).one()
        menu = session.exec(select(MenuDay).order_by(MenuDay.id)).first()
        parent_id, school_id = parent.id, menu.school_id
    calls = [
        ("sessiontoken", lambda s: _unauthorized(s)),
        ("child", lambda s: children.list_children(session=s, parent_id=parent_id)),
        (
            "notificationpreference",
            lambda s: notifications.get_preferences(session=s, parent_id=parent_id),
        ),
        ("parentaltemail", lambda s: parents.alt_emails_of(s, parent_id)),
        # Listing queries of the payment screens, as services/cards.py and donations.py
        # write them.
        (
            "storedcard",
            lambda s: s.exec(
                select(StoredCard)
                .where(StoredCard.parent_id == parent_id, StoredCard.deleted_at.is_(None))
                .order_by(StoredCard.id)
            ).all(),
        ),
        (
            "donation",
            lambda s: s.exec(
                select(Donation)
                .where(Donation.parent_id == parent_id, Donation.status.in_(("PAID", "REFUNDED")))
                .order_by(Donation.created_at.desc())
            ).all(),
        ),
        (
            "payment",
            lambda s: s.exec(
                select(Payment).where(Payment.donation_id == 1, Payment.state == "APPROVED")
            ).all(),
        ),
        # The menu screens read a school's meal days over a range of dates.
        (
            "menuday",
            lambda s: s.exec(
                select(MenuDay)
                .where(MenuDay.school_id == school_id)
                .where(MenuDay.meal_date.between(SEED_TODAY, SEED_TODAY + timedelta(days=14)))
                .order_by(MenuDay.meal_date)
            ).all(),
        ),
    ]
    found = []
    for table, call in calls:
        with session_scope(engine) as session, count_queries(engine) as queries:
            call(session)
        for statement, parameters in zip(queries.statements, queries.parameters, strict=True):
            if f"FROM {table}" in statement or f"JOIN {table}" in statement:
                found.append((table, statement, parameters))
    return found


def _unauthorized(session) -> None:
    try:
        accounts.authenticate(session=session, token="no-such-token")
    except accounts.Unauthorized:
        pass


def test_every_hot_query_is_served_by_an_index(seeded_engine: Engine):
    statements = _hot_statements(seeded_engine)
    tables = {table for table, _, _ in statements}
    assert tables >= {
        "sessiontoken",
        "child",
        "notificationpreference",
        "parentaltemail",
        "storedcard",
        "donation",
        "payment",
        "menuday",
    }
    for table, statement, parameters in statements:
        plan = _plan(seeded_engine, statement, parameters)
        assert not _full_scans(seeded_engine, plan, table), f"{table}:\n{statement}\n{plan}"


def test_the_allergies_of_listed_children_are_found_by_index(seeded_engine: Engine):
    with session_scope(seeded_engine) as session:
        parent = session.exec(select(Parent).where(Parent.email == "parent@example.com")).one()
        with count_queries(seeded_engine) as queries:
            kids = children.list_children(session=session, parent_id=parent.id)
    assert any(kid.allergies for kid in kids)
    allergy = [
        (s, p)
        for s, p in zip(queries.statements, queries.parameters, strict=True)
        if "FROM childallergy" in s
    ]
    assert len(allergy) == 1
    plan = _plan(seeded_engine, *allergy[0])
    assert not _full_scans(seeded_engine, plan, "childallergy"), plan
