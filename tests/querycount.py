"""Count the SQL statements an engine runs: the query budget of issue 11.

    with count_queries() as queries:
        client.get(...)
    assert queries.count <= 3, queries.report()

A ``before_cursor_execute`` listener on the engine sees every statement sent through it, from
any thread (API calls run on a worker thread, Reflex handlers through ``asyncio.to_thread``).
Connection set-up (SQLite PRAGMAs, PostgreSQL's pre-ping) runs on the raw DB-API connection and
is not counted: it is not part of any call's work.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from sqlalchemy import event
from sqlalchemy.engine import Engine

from hotmeals.db.engine import get_engine


@dataclass
class QueryLog:
    statements: list[str] = field(default_factory=list)
    parameters: list[object] = field(default_factory=list)  # as the DB-API driver got them
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


@contextmanager
def count_queries(engine: Engine | None = None) -> Iterator[QueryLog]:
    engine = engine or get_engine()
    log = QueryLog()

    def before(_conn, _cursor, statement, params, _context, _executemany) -> None:
        log.add(statement, params)

    event.listen(engine, "before_cursor_execute", before)
    try:
        yield log
    finally:
        event.remove(engine, "before_cursor_execute", before)
