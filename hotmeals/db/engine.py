"""The engine and sessions. Services open ``session_scope()``; nothing else talks SQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine

from hotmeals.settings import get_settings


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        if ":///" in url and not url.endswith(":memory:"):
            from pathlib import Path

            Path(url.split(":///", 1)[1]).parent.mkdir(parents=True, exist_ok=True)
        # Connections stay open for the next request: SQLAlchemy's default pool keeps 5, and
        # each request over that opened a file and ran the pragmas below, then closed it again
        # (under 16 concurrent requests, most of them). 20 cover the busy evenings.
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            pool_size=20,
            max_overflow=20,
        )

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    # A request that cannot get a connection within 10 s gets a 503 (api/deps.py), not a
    # 30 s wait that ends in the same refusal.
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10, pool_timeout=10)


@lru_cache(maxsize=4)
def get_engine(url: str | None = None) -> Engine:
    return make_engine(url or get_settings().database_url)


@contextmanager
def session_scope(engine: Engine | None = None) -> Iterator[Session]:
    """One transaction: commit on success, roll back on any error."""
    session = Session(engine or get_engine(), expire_on_commit=False)
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


def release_connection(session: Session) -> None:
    """End ``session``'s read-only transaction so that its pooled connection goes back before
    slow work (a password hash): a request waiting on the CPU must not hold a connection that
    others, or its own next step, wait for. Only for a session that has written nothing yet;
    it is used again afterwards as usual (a new transaction on a fresh connection).

    A session bound to a single connection (tests) keeps it: there is no pool to starve.
    """
    if session.new or session.dirty or session.deleted:
        raise RuntimeError("release_connection() after writes would commit them early")
    if isinstance(session.get_bind(), Engine) and session.in_transaction():
        session.commit()
