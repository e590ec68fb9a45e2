"""Count the SQL statements an engine runs, for the query budget.

    with count_queries() as queries:
        client.get(...)
    assert queries.count <= 3, queries.report()

A ``before_cursor_execute`` listener on the engine sees every statement sent through it, from
any thread (API calls run on a worker thread, Reflex handlers through ``asyncio.to_thread``).
Connection set-up (SQLite PRAGMAs, PostgreSQL's pre-ping) runs on the raw DB-API connection and
is not counted: it is not part of any call's work. Nor is the mail sender's (its own thread,
``services/mail.py``), which works after the call's transaction commits and may or may not
be done when the call answers: its statements are kept apart (``QueryLog.mail``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import select

from hotmeals.db.engine import get_engine, session_scope
from hotmeals.db.models import School
from hotmeals.services import menu_cache
from hotmeals.services.mail import SENDER_THREAD


@dataclass
class QueryLog:
    statements: list[str] = field(default_factory=list)
    parameters: list[object] = field(default_factory=list)  # as the DB-API driver got them
    mail: list[str] = field(default_factory=list)  # the mail sender's, not counted
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def count(self) -> int:
        return len(self.statements)

    def add(self, statement: str, parameters: object = None) -> None:
        with self._lock:
            self.statements.append(statement)
            self.parameters.append(parameters)

    def report(self) -> str:
        """The statements, one a line (for assertion messages)."""
        return "\n".join(f"{i}: {' '.join(s.split())[:300]}" for i, s in enumerate(self.statements))


def warm_menu_cache(engine: Engine) -> None:
    """Read the menus' per-process copy (``services/menu_cache``) and every school's days, as
    a worker has them after its first calls: a budget counts a call in that steady state. The
    reads that fill the copy, once per process and menu version, are counted by the cache's
    own tests."""
    with session_scope(engine) as session:
        menus = menu_cache.catalog(session)
        for school_id in session.exec(select(School.id)).all():
            if school_id is not None:
                menus.school_days(session, school_id)


@contextmanager
def count_queries(engine: Engine | None = None, *, warm: bool = True) -> Iterator[QueryLog]:
    """The statements sent through ``engine`` (default the app's) inside the block; with
    ``warm``, the menus' copy is read first (``warm_menu_cache``)."""
    engine = engine or get_engine()
    if warm:
        warm_menu_cache(engine)
    log = QueryLog()

    def before(_conn, _cursor, statement, params, _context, _executemany) -> None:
        if threading.current_thread().name.startswith(SENDER_THREAD):
            log.mail.append(statement)
        else:
            log.add(statement, params)

    event.listen(engine, "before_cursor_execute", before)
    try:
        yield log
    finally:
        event.remove(engine, "before_cursor_execute", before)
