"""Fixtures and helpers for the payment *service* tests: a real migrated database per backend
(SQLite in a temporary file; PostgreSQL at 127.0.0.1:5432 in a database of its own, skipped
when the server is down unless ``REQUIRE_SERVICES=1``) next to the simulator served over HTTP
by ``conftest.py``'s ``sim`` fixture.

Test modules import the fixtures they use from here (``# noqa: F401``)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from sqlalchemy.engine import Engine
from sqlmodel import select

from hotmeals import clock
from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import get_engine, make_engine, session_scope
from hotmeals.db.models import AuditEvent, Donation, Payment, Refund
from hotmeals.services.runtime import APP, Runtime
from hotmeals.settings import get_settings
from tests.databases import BACKENDS, fresh_database
from tests.factories import make_child, make_parent
from tests.payments.support import CVV, EXP, PATIENT, VISA, SimServer


@pytest.fixture(scope="module", params=BACKENDS)
def pay_engine(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[Engine]:
    """A migrated database for this module, once per backend."""
    folder = tmp_path_factory.mktemp("paydb")
    with fresh_database(request.param, folder, "migrated", prefix="hm_pay") as url:
        engine = make_engine(url)
        try:
            yield engine
        finally:
            engine.dispose()


@contextmanager
def api_client(
    backend: str, folder: Path, sim_server: SimServer, *, api_key: str, db_prefix: str
) -> Iterator[Any]:
    """A TestClient on ``create_api()`` over a migrated database of its own (SQLite in
    ``folder``, or a PostgreSQL database ``<db_prefix>_<random>`` dropped afterwards), with
    ``api_key`` as the API key and Converge served by ``sim_server``: the body of the API
    test modules' module-scoped ``api`` fixtures."""
    from fastapi.testclient import TestClient

    from hotmeals.api.app import create_api
    from hotmeals.services import runtime as service_runtime

    with (
        fresh_database(backend, folder, "migrated", prefix=db_prefix, sqlite_name="api.db") as url,
        pytest.MonkeyPatch.context() as mp,
    ):
        mp.setenv("DATABASE_URL", url)
        mp.setenv("DATA_DIR", str(folder))
        mp.setenv("HOTMEALS_API_KEY", api_key)
        mp.setattr(service_runtime, "converge_settings", lambda: sim_server.settings)
        get_settings.cache_clear()
        get_engine.cache_clear()
        with TestClient(create_api()) as client:
            yield client
        get_engine().dispose()
        get_settings.cache_clear()
        get_engine.cache_clear()


@pytest.fixture
def live_sim(sim: SimServer) -> SimServer:
    """The simulator with its clock at the real time: reconciliation searches Converge by
    date around the payment's own (real) creation time."""
    sim.clock.now = clock.now()
    return sim


@pytest_asyncio.fixture
async def gateway(live_sim: SimServer):
    async with ConvergeClient(live_sim.settings, timeout=PATIENT) as client:
        yield client


@pytest.fixture
def family(pay_engine: Engine) -> dict[str, int]:
    """A parent with one child (so one school to donate to)."""
    with session_scope(pay_engine) as session:
        parent = make_parent(session)
        child = make_child(session, parent, is_default=True)
        return {"parent_id": parent.id, "school_id": child.school_id, "child_id": child.id}


# -- the browser's part, without a browser ---------------------------------------------------------


def lightbox_submit(
    sim: SimServer,
    token: str,
    *,
    number: str = VISA,
    exp: str = EXP,
    cvv: str = CVV,
) -> dict[str, Any]:
    """What the stand-in Lightbox posts when the payer clicks Pay: the card goes to Converge
    (the simulator), never to our server. Returns the simulator's JSON answer."""
    form = {
        "ssl_txn_auth_token": token,
        "ssl_card_number": number,
        "ssl_exp_date": exp,
        "ssl_cvv2cvc2": cvv,
    }
    response = sim.http.post(f"{sim.url}/hosted-payments/process", data=form)
    response.raise_for_status()
    return response.json()


def sim_txns(sim: SimServer, invoice: str | None = None, kind: str | None = None) -> list[dict]:
    txns = sim.get("transactions")
    return [
        t
        for t in txns
        if (invoice is None or t["invoice_number"] == invoice)
        and (kind is None or t["kind"] == kind)
    ]


# -- running service calls the way a second server would ------------------------------------------


def in_new_loop(
    sim: SimServer,
    fn: Callable[..., Any],
    /,
    timeout=PATIENT,
    *,
    runtime: Runtime = APP,
    **kwargs: Any,
) -> Any:
    """Run an async service function in a fresh event loop with its own Converge client (what
    a thread, another worker or another server does): ``fn(runtime=..., **kwargs)`` on
    ``runtime`` with that client. Exceptions are returned, not raised."""

    async def main() -> Any:
        async with ConvergeClient(sim.settings, timeout=timeout) as client:
            return await fn(runtime=replace(runtime, gateway=client), **kwargs)

    try:
        return asyncio.run(main())
    except Exception as exc:  # noqa: BLE001 - the caller inspects what each thread got
        return exc


def all_at_once(count: int, target: Callable[[], Any]) -> list[Any]:
    """``target()`` in ``count`` threads released together by a barrier."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        barrier.wait()
        results[i] = target()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


# -- reading the database ----------------------------------------------------------------------


def reserve_donation_payment(db, *, parent_id: int, amount_cents: int) -> Payment:
    """A PENDING donation and its CREATED payment, in the caller's transaction: the plainest
    thing a payment can pay for (every payment pays for something its handler acts on)."""
    from hotmeals.services import payments

    donation = Donation(parent_id=parent_id, amount_cents=amount_cents)
    db.add(donation)
    db.flush()
    return payments.reserve_payment(
        db,
        parent_id=parent_id,
        purpose="DONATION",
        amount_cents=amount_cents,
        donation_id=donation.id,
    )


def payment_row(engine: Engine, payment_id: int) -> Payment:
    with session_scope(engine) as session:
        return session.get(Payment, payment_id)


def refund_rows(engine: Engine, payment_id: int) -> list[Refund]:
    with session_scope(engine) as session:
        return list(session.exec(select(Refund).where(Refund.payment_id == payment_id)).all())


def audit_kinds(engine: Engine, entity: str, entity_id: int) -> list[str]:
    with session_scope(engine) as session:
        rows = session.exec(
            select(AuditEvent)
            .where(AuditEvent.entity == entity, AuditEvent.entity_id == str(entity_id))
            .order_by(AuditEvent.id)
        ).all()
        return [r.kind for r in rows]


__all__ = [
    "BACKENDS",
    "all_at_once",
    "audit_kinds",
    "family",
    "gateway",
    "in_new_loop",
    "lightbox_submit",
    "live_sim",
    "pay_engine",
    "payment_row",
    "refund_rows",
    "sim_txns",
]
