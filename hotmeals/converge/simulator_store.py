"""Where the Converge simulator keeps its ledger: one database every worker and every restart
sees, like the one ledger Elavon keeps whichever of its servers answers.

Why a database of its own and not memory, nor the app's tables:
- With several backend workers (``GRANIAN_WORKERS``) each request may land on another process,
  and ``make run`` is restarted: a sale must still be found by ``txnquery``, a stored card still
  charged, a return still find its sale. Memory is per process and forgets.
- The simulator stands in for a payment host the app reaches only over HTTP/XML. Its records
  are in its own ``MetaData`` (not ``SQLModel.metadata``): Alembic never sees them, the app's
  migrations and ``alembic check`` are unaffected, and no app module can query them by accident.
- Where: ``CONVERGE_SIM_DATABASE_URL`` when set; else, when the app runs on SQLite, a SQLite
  file beside the app's (``<name>.converge-sim.db``: its write lock never delays the app's
  writes); when the app runs on PostgreSQL, the same database in the schema ``converge_sim``
  (out of Alembic's sight, which only compares the default schema, and no second server to run).
- Tables are created on first use by each process, idempotently, under a lock (an advisory lock
  on PostgreSQL, the database write lock on SQLite), so ``make run``, ``make test`` and two
  workers starting at once need no extra step.

Locking: every operation is one transaction. On PostgreSQL the rows a rule depends on are read
``FOR UPDATE`` (a hosted session before it is used, a sale before a return or void), so two
workers serialize on that row; on SQLite every transaction starts with ``BEGIN IMMEDIATE``,
which takes the database's write lock before the first read.

The merchant's credentials live here too (``sim_merchant``): merchant ``000000``, user
``hotmeals`` and a PIN generated when the store is created (``secrets``, 64 hex characters, never
in the source, the README or a log). Every worker of every host that shares the store checks
calls against the same PIN, and the app's Converge client reads it from here in demo mode
(``configured.simulator_credentials``), the way an operator copies the PIN from the gateway's
back office: the only thing of the simulator's the app reads. ``CONVERGE_SIM_PIN`` set in the
environment overrides it on both sides.

Card numbers are not kept at all: a stored card is its token, masked number, brand, expiry,
names and the issuer's standing answer for a decline test card. The demo approves any
Luhn-valid number, so someone may type a real one; a file of plaintext card numbers would be a
liability that buys nothing (charging by token needs none of it).
"""

from __future__ import annotations

import json
import os
import secrets
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    text,
)
from sqlalchemy.engine import Connection, Engine, RowMapping

from hotmeals.converge.simulator_identity import SIM_MERCHANT_ID, SIM_USER_ID
from hotmeals.converge.simulator_records import Session, StoredCard, Txn
from hotmeals.settings import get_settings

PG_SCHEMA = "converge_sim"
URL_VAR = "CONVERGE_SIM_DATABASE_URL"
# Any constant both workers agree on: the key of the advisory lock taken while creating tables.
_DDL_LOCK_KEY = 0x636F6E76  # "conv"

metadata = MetaData()

control_table = Table(
    "sim_control",
    metadata,
    Column("id", Integer, primary_key=True),  # one row, id 1
    Column("clock_offset_seconds", Float, nullable=False, default=0.0),
    Column("decline_by_cents", Boolean, nullable=True),  # None: the app's start-up setting
    Column("fault_kind", String(40), nullable=True),
    Column("fault_remaining", Integer, nullable=False, default=0),
    Column("fault_scope", String(16), nullable=False, default="any"),
    Column("generation", Integer, nullable=False, default=0),  # bumped by reset
)

hang_table = Table(
    "sim_hang",  # one row per request the simulator is holding open, in any worker
    metadata,
    Column("id", String(32), primary_key=True),
    Column("started_at", DateTime(timezone=True), nullable=False),
)

session_table = Table(
    "sim_session",
    metadata,
    Column("token", String(64), primary_key=True),
    Column("fields", Text, nullable=False),  # JSON of the request fields, credentials removed
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("used", Boolean, nullable=False, default=False),
    Column("txn_id", String(64), nullable=True),
)

txn_table = Table(
    "sim_txn",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),  # listing order
    Column("txn_id", String(64), nullable=False, unique=True),
    Column("kind", String(16), nullable=False),
    Column("amount_cents", Integer, nullable=False),
    Column("invoice_number", String(64), nullable=False, index=True),
    Column("card_masked", String(32), nullable=False),
    Column("card_brand", String(16), nullable=False),
    Column("exp_date", String(4), nullable=False),
    Column("first_name", String(100), nullable=False),
    Column("last_name", String(100), nullable=False),
    Column("token", String(32), nullable=True),
    Column("approval_code", String(16), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False, index=True),
    Column("status", String(8), nullable=False),
    Column("settled_at", DateTime(timezone=True), nullable=True),
    Column("voided", Boolean, nullable=False, default=False),
    Column("refunded_cents", Integer, nullable=False, default=0),
    Column("parent_id", String(64), nullable=True),
    Column("cvv_response", String(4), nullable=False, default=""),
)

card_table = Table(
    "sim_card",
    metadata,
    Column("token", String(32), primary_key=True),
    Column("card_masked", String(32), nullable=False),
    Column("card_brand", String(16), nullable=False),
    Column("decline", String(40), nullable=True),  # a decline test card's standing answer
    Column("exp_date", String(4), nullable=False),
    Column("first_name", String(100), nullable=False),
    Column("last_name", String(100), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


merchant_table = Table(
    "sim_merchant",  # one row: the merchant the simulator accepts (see module doc)
    metadata,
    Column("merchant_id", String(16), primary_key=True),
    Column("user_id", String(64), nullable=False),
    Column("pin", String(128), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


def _normalize(url: str) -> str:
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def store_url_for(
    app_database_url: str, data_dir: Path, environ: Mapping[str, str] | None = None
) -> str:
    """The simulator's database URL for an app on ``app_database_url`` (see module doc)."""
    env = os.environ if environ is None else environ
    explicit = env.get(URL_VAR, "").strip()
    if explicit:
        return _normalize(explicit)
    url = _normalize(app_database_url)
    if url.startswith("sqlite"):
        path = url.split(":///", 1)[1] if ":///" in url else ""
        if not path or path == ":memory:" or path.startswith("file:"):
            return f"sqlite:///{data_dir / 'converge-sim.db'}"
        app_db = Path(path)
        return f"sqlite:///{app_db.with_name(app_db.stem + '.converge-sim.db')}"
    return url


def _aware(moment: datetime | None) -> datetime | None:
    # SQLite hands datetimes back without a zone; everything stored is UTC.
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def _row(conn: Connection, key: Column, value: str, *, for_update: bool) -> RowMapping | None:
    """The row of ``key``'s table whose ``key`` is ``value`` (locked with ``for_update``)."""
    query = key.table.select().where(key == value)
    if for_update:
        query = query.with_for_update()
    return conn.execute(query).mappings().first()


class SimulatorStore:
    """The simulator's database. One instance per app; each process opens its own engine."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self._engine: Engine | None = None
        self._pid = 0
        self._setup_lock = threading.Lock()
        self._merchant: tuple[str, str, str] | None = None

    # -- connection -----------------------------------------------------------------------------

    def _make_engine(self) -> Engine:
        if self.is_sqlite:
            path = self.url.split(":///", 1)[1] if ":///" in self.url else ""
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(
                self.url, connect_args={"check_same_thread": False, "timeout": 30}
            )

            @event.listens_for(engine, "connect")
            def _connect(dbapi_conn: Any, _record: Any) -> None:
                # Let SQLAlchemy's "begin" below open transactions (pysqlite's own would be
                # DEFERRED, and two deferred readers that both write deadlock).
                dbapi_conn.isolation_level = None
                cursor = dbapi_conn.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA busy_timeout=30000")
                cursor.close()

            @event.listens_for(engine, "begin")
            def _begin(conn: Connection) -> None:
                conn.exec_driver_sql("BEGIN IMMEDIATE")

            return engine
        engine = create_engine(self.url, pool_pre_ping=True, pool_size=5, max_overflow=10)
        return engine.execution_options(schema_translate_map={None: PG_SCHEMA})

    def _ready_engine(self) -> Engine:
        # A worker forked after the parent opened the engine must not share its connections.
        if self._engine is not None and self._pid == os.getpid():
            return self._engine
        with self._setup_lock:
            if self._engine is None or self._pid != os.getpid():
                engine = self._make_engine()
                self._create_tables(engine)
                self._engine, self._pid = engine, os.getpid()
        return self._engine

    def _create_tables(self, engine: Engine) -> None:
        with engine.begin() as conn:
            if not self.is_sqlite:
                # Two workers starting at once would both see "no table" and both CREATE.
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _DDL_LOCK_KEY})
                conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{PG_SCHEMA}"'))
            metadata.create_all(conn, checkfirst=True)
            if conn.execute(control_table.select()).first() is None:
                conn.execute(control_table.insert().values(id=1))
            # Under the same lock: two workers starting at once agree on one PIN.
            if conn.execute(merchant_table.select()).first() is None:
                conn.execute(
                    merchant_table.insert().values(
                        merchant_id=SIM_MERCHANT_ID,
                        user_id=SIM_USER_ID,
                        pin=secrets.token_hex(32),  # 64 characters, like a real Converge PIN
                        created_at=datetime.now(UTC),
                    )
                )

    def merchant_credentials(self) -> tuple[str, str, str]:
        """(merchant id, user id, PIN) of the merchant this store's simulator accepts. The row
        is written once, when the store is created, and never changed, so it is read once per
        process."""
        if self._merchant is None:
            with self.transaction() as conn:
                row = conn.execute(merchant_table.select()).mappings().one()
            self._merchant = (row["merchant_id"], row["user_id"], row["pin"])
        return self._merchant

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        with self._ready_engine().begin() as conn:
            yield conn

    def dispose(self) -> None:
        if self._engine is not None and self._pid == os.getpid():
            self._engine.dispose()
        self._engine = None

    # -- control row ----------------------------------------------------------------------------

    @staticmethod
    def control(conn: Connection, *, for_update: bool = False) -> RowMapping:
        query = control_table.select().where(control_table.c.id == 1)
        if for_update:
            query = query.with_for_update()
        return conn.execute(query).mappings().one()

    @staticmethod
    def update_control(conn: Connection, **values: Any) -> None:
        conn.execute(control_table.update().where(control_table.c.id == 1).values(**values))

    # -- sessions -------------------------------------------------------------------------------

    @staticmethod
    def add_session(conn: Connection, session: Session) -> None:
        conn.execute(
            session_table.insert().values(
                token=session.token,
                fields=json.dumps(session.fields),
                created_at=session.created_at,
                used=session.used,
                txn_id=session.txn_id,
            )
        )

    @staticmethod
    def get_session(conn: Connection, token: str, *, for_update: bool = False) -> Session | None:
        query = session_table.select().where(session_table.c.token == token)
        if for_update:
            query = query.with_for_update()
        row = conn.execute(query).mappings().first()
        if row is None:
            return None
        return Session(
            token=row["token"],
            fields=json.loads(row["fields"]),
            created_at=_utc(row["created_at"]),
            used=row["used"],
            txn_id=row["txn_id"],
        )

    @staticmethod
    def mark_session_used(conn: Connection, token: str, txn_id: str | None) -> None:
        conn.execute(
            session_table.update()
            .where(session_table.c.token == token)
            .values(used=True, txn_id=txn_id)
        )

    @staticmethod
    def sessions(conn: Connection) -> list[Session]:
        rows = conn.execute(session_table.select().order_by(session_table.c.created_at))
        return [
            Session(
                r["token"], json.loads(r["fields"]), _utc(r["created_at"]), r["used"], r["txn_id"]
            )
            for r in rows.mappings()
        ]

    # -- transactions ---------------------------------------------------------------------------

    @staticmethod
    def add_txn(conn: Connection, txn: Txn) -> None:
        conn.execute(txn_table.insert().values(**txn_values(txn)))

    @staticmethod
    def get_txn(conn: Connection, txn_id: str, *, for_update: bool = False) -> Txn | None:
        row = _row(conn, txn_table.c.txn_id, txn_id, for_update=for_update)
        return None if row is None else txn_from_row(row)

    @staticmethod
    def save_txn(conn: Connection, txn: Txn, *names: str) -> None:
        """Write the named attributes of ``txn`` back to its row."""
        values = {name: getattr(txn, name) for name in names}
        conn.execute(txn_table.update().where(txn_table.c.txn_id == txn.txn_id).values(**values))

    @staticmethod
    def find_txns(
        conn: Connection,
        *,
        start: datetime | None = None,
        end: datetime | None = None,
        invoice: str | None = None,
    ) -> list[Txn]:
        query = txn_table.select().order_by(txn_table.c.seq)
        if start is not None:
            query = query.where(txn_table.c.created_at >= start)
        if end is not None:
            query = query.where(txn_table.c.created_at <= end)
        if invoice:
            query = query.where(txn_table.c.invoice_number == invoice)
        return [txn_from_row(row) for row in conn.execute(query).mappings()]

    @staticmethod
    def settle(conn: Connection, now: datetime) -> int:
        # One UPDATE: a void holding the row's lock finishes first, and the row is re-checked.
        result = conn.execute(
            txn_table.update()
            .where(txn_table.c.status == "OPN", txn_table.c.voided.is_(False))
            .values(status="STL", settled_at=now)
        )
        return int(result.rowcount or 0)

    # -- stored cards ---------------------------------------------------------------------------

    @staticmethod
    def add_card(conn: Connection, card: StoredCard) -> None:
        conn.execute(card_table.insert().values(**vars(card)))

    @staticmethod
    def get_card(conn: Connection, token: str, *, for_update: bool = False) -> StoredCard | None:
        row = _row(conn, card_table.c.token, token, for_update=for_update)
        return None if row is None else card_from_row(row)

    @staticmethod
    def save_card(conn: Connection, card: StoredCard) -> None:
        values = {k: v for k, v in vars(card).items() if k != "token"}
        conn.execute(card_table.update().where(card_table.c.token == card.token).values(**values))

    @staticmethod
    def delete_card(conn: Connection, token: str) -> bool:
        result = conn.execute(card_table.delete().where(card_table.c.token == token))
        return bool(result.rowcount)

    @staticmethod
    def cards(conn: Connection) -> list[StoredCard]:
        rows = conn.execute(card_table.select().order_by(card_table.c.created_at))
        return [card_from_row(row) for row in rows.mappings()]

    # -- hung requests and reset ----------------------------------------------------------------

    @staticmethod
    def add_hang(conn: Connection, hang_id: str, now: datetime) -> None:
        conn.execute(hang_table.insert().values(id=hang_id, started_at=now))

    @staticmethod
    def remove_hang(conn: Connection, hang_id: str) -> None:
        conn.execute(hang_table.delete().where(hang_table.c.id == hang_id))

    @staticmethod
    def count_hangs(conn: Connection, since: datetime) -> int:
        # A worker killed mid-hang leaves its row; rows older than the longest hang are stale.
        rows = conn.execute(hang_table.select().where(hang_table.c.started_at >= since))
        return len(rows.all())

    @staticmethod
    def forget_everything(conn: Connection) -> None:
        for table in (session_table, txn_table, card_table):
            conn.execute(table.delete())


_stores: dict[str, SimulatorStore] = {}
_stores_lock = threading.Lock()


def store_for(url: str) -> SimulatorStore:
    """One ``SimulatorStore`` (one connection pool) per URL in this process: the mounted
    simulator and the app's lookup of the demo PIN share it. Only connections are kept in
    this dict; every record is in the database."""
    with _stores_lock:
        store = _stores.get(url)
        if store is None:
            store = _stores[url] = SimulatorStore(url)
        return store


def default_store() -> SimulatorStore:
    """The store of the simulator the app mounts, for the app's current settings."""
    settings = get_settings()
    return store_for(store_url_for(settings.database_url, settings.data_dir))


def txn_values(txn: Txn) -> dict[str, Any]:
    return dict(vars(txn))


def txn_from_row(row: RowMapping) -> Txn:
    values = {k: v for k, v in row.items() if k != "seq"}
    values["created_at"] = _aware(values["created_at"])
    values["settled_at"] = _aware(values["settled_at"])
    return Txn(**values)


def card_from_row(row: RowMapping) -> StoredCard:
    values = dict(row)
    values["created_at"] = _aware(values["created_at"])
    return StoredCard(**values)


if __name__ == "__main__":
    # `python -m hotmeals.converge.simulator_store`: the demo merchant's credentials, for a
    # developer who wants to call the simulator's XML API by hand (like reading them from
    # Converge's back office). Nothing else prints the PIN.
    print("merchant {} user {} PIN {}".format(*default_store().merchant_credentials()))
