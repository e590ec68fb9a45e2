"""The test databases, made in one place.

Every fixture that needs a database of its own asks ``fresh_database(backend, folder, kind)``:

- ``backend``: ``"sqlite"`` (a file in ``folder``) or ``"postgres"`` (a database on 127.0.0.1:5432,
  user postgres, trust auth, created through the ``test`` database and dropped afterwards). When
  PostgreSQL does not answer, a PostgreSQL run is skipped, unless ``REQUIRE_SERVICES=1`` (CI),
  which makes that a failure.
- ``kind``: what is in it. ``"empty"`` (no tables), ``"migrated"`` (``alembic upgrade head``),
  ``"created"`` (``SQLModel.metadata.create_all``: the models' tables, without the job queue's
  PostgreSQL functions), each optionally with the demo data: ``"migrated+demo"``,
  ``"created+demo"`` (for today), ``"migrated+demo@2026-03-04"`` (for that day).

Each kind but ``"empty"`` is built once per test process and backend, then copied: PostgreSQL
clones a template database (``CREATE DATABASE … TEMPLATE``, a file copy on the server), SQLite
copies a prepared file (the backup API, so a half-written WAL is never copied). Migrating and
seeding cost about a second per database; a test run makes a few hundred.

``app_database(...)`` also points the app at it (``DATABASE_URL``, ``DATA_DIR``, settings and
engine caches) for the tests that go through ``get_engine()``: the API, UI state and service
tests.
"""

from __future__ import annotations

import atexit
import os
import sqlite3
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path

import psycopg
import pytest

PG_ADMIN_DSN = os.environ.get(
    "TEST_PG_ADMIN_DSN", "host=127.0.0.1 port=5432 user=postgres dbname=test"
)
# synchronous_commit=off: a commit does not wait for its WAL flush to disk. The test databases
# are thrown away, so durability buys nothing, and the wait was ~7 ms per commit here: most of
# a PostgreSQL test's time. Locking, isolation and constraints are unchanged.
PG_URL = os.environ.get(
    "TEST_PG_URL",
    "postgresql+psycopg://postgres@127.0.0.1:5432/{name}?options=-csynchronous_commit%3Doff",
)
# A Wednesday: the window is Wed-Fri of this week plus six full weeks.
SEED_TODAY = date(2026, 3, 4)

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]


def require_services() -> bool:
    return os.environ.get("REQUIRE_SERVICES") == "1"


def pg_admin() -> str:
    """The admin DSN once the server has answered; otherwise skip the test (or fail it)."""
    try:
        with psycopg.connect(PG_ADMIN_DSN, connect_timeout=3, autocommit=True) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        message = f"PostgreSQL not available at {PG_ADMIN_DSN!r}: {exc}"
        if require_services():
            pytest.fail(message)
        pytest.skip(message)
    return PG_ADMIN_DSN


def _admin(sql: str) -> None:
    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(sql)


def migrate(url: str) -> None:
    from alembic.command import upgrade

    from hotmeals.db.migrations import alembic_config

    config = alembic_config(url)
    config.attributes["configure_logger"] = False  # leave pytest's logging alone
    upgrade(config, "head")


def _build(url: str, kind: str) -> None:
    """Make ``kind`` in the empty database at ``url``."""
    from sqlmodel import SQLModel

    import hotmeals.db.models  # noqa: F401 - registers the tables
    from hotmeals.db.engine import make_engine, session_scope
    from hotmeals.demo.seed import load_demo_data

    schema, _, demo = kind.partition("+")
    if schema == "migrated":
        migrate(url)
    engine = make_engine(url)
    try:
        if schema == "created":
            SQLModel.metadata.create_all(engine)
        elif schema != "migrated":
            raise ValueError(f"unknown database kind {kind!r}")
        if demo:
            _, _, day = demo.partition("@")
            with session_scope(engine) as session:
                load_demo_data(session, today=date.fromisoformat(day) if day else None)
    finally:
        engine.dispose()


_TEMPLATE_DIR = Path(tempfile.mkdtemp(prefix="hotmeals-templates-"))
_templates: dict[tuple[str, str], str] = {}  # (backend, kind) -> SQLite path or database name


def _template(backend: str, kind: str) -> str:
    key = (backend, kind)
    if key not in _templates:
        slug = "".join(c if c.isalnum() else "_" for c in kind)
        if backend == "sqlite":
            path = _TEMPLATE_DIR / f"{slug}.db"
            _build(f"sqlite:///{path}", kind)
            _templates[key] = str(path)
        else:
            name = f"hm_tpl_{slug}_{uuid.uuid4().hex[:8]}"[:63]
            _admin(f'CREATE DATABASE "{name}"')
            atexit.register(_admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            _build(PG_URL.format(name=name), kind)
            _templates[key] = name
    return _templates[key]


@contextmanager
def fresh_database(
    backend: str,
    folder: Path,
    kind: str = "migrated",
    *,
    prefix: str = "hm_test",
    sqlite_name: str | None = None,
) -> Iterator[str]:
    """The URL of a new database of ``kind``: SQLite in ``folder`` (``sqlite_name``, or
    ``<prefix>_<random>.db``), PostgreSQL ``<prefix>_<random>``, dropped afterwards."""
    if backend == "sqlite":
        path = Path(folder) / (sqlite_name or f"{prefix}_{uuid.uuid4().hex[:6]}.db")
        if kind != "empty":
            with sqlite3.connect(_template(backend, kind)) as src, sqlite3.connect(path) as dst:
                src.backup(dst)
            src.close()
            dst.close()
        yield f"sqlite:///{path}"
        return
    pg_admin()
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    template = "" if kind == "empty" else f' TEMPLATE "{_template(backend, kind)}"'
    _admin(f'CREATE DATABASE "{name}"{template}')
    try:
        yield PG_URL.format(name=name)
    finally:
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def app_pointed_at(url: str, folder: Path, **env: str) -> Iterator[None]:
    """``DATABASE_URL``/``DATA_DIR`` (and ``env``) set, no SMTP server (mail is logged in the
    outbox), the settings and engine caches cleared before and after."""
    from hotmeals.db.engine import get_engine
    from hotmeals.services import mail
    from hotmeals.settings import get_settings

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DATABASE_URL", url)
        mp.setenv("DATA_DIR", str(folder))
        mp.delenv("SMTP_HOST", raising=False)
        for name, value in env.items():
            mp.setenv(name, value)
        get_settings.cache_clear()
        get_engine.cache_clear()
        try:
            yield
        finally:
            mail.drain()
            get_engine().dispose()
            get_settings.cache_clear()
            get_engine.cache_clear()


@contextmanager
def app_database(
    backend: str,
    folder: Path,
    kind: str = "created+demo",
    *,
    prefix: str = "hm_test",
    sqlite_name: str | None = None,
    **env: str,
) -> Iterator[Path]:
    """A fresh database of ``kind`` that the app's ``get_engine()`` uses; yields ``folder``."""
    with fresh_database(backend, folder, kind, prefix=prefix, sqlite_name=sqlite_name) as url:
        with app_pointed_at(url, folder, **env):
            yield Path(folder)
