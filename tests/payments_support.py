"""The Converge simulator as the tests drive it, and the payments' test helpers: test cards,
time-outs, a fake clock, a handle on the running simulator (``SimServer``; the fixtures
``sim_server`` and ``sim`` are in tests/conftest.py), what the stand-in Lightbox posts, service
calls run the way a second server would, and reading payments back from the database."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from sqlalchemy.engine import Engine
from sqlmodel import select
from starlette.applications import Starlette

from hotmeals.converge.converge import ConvergeClient
from hotmeals.converge.settings import ConvergeSettings
from hotmeals.db.engine import session_scope
from hotmeals.db.models import AuditEvent, Donation, Payment, Refund
from hotmeals.services.runtime import APP, Runtime

START = datetime(2025, 9, 2, 12, 0, tzinfo=UTC)
# Tests that assert a rule (sums of refunds, one charge per payment) must not depend on how
# fast the machine is: a call to a healthy simulator takes milliseconds, but on a busy machine
# a 3-second limit turned a stored-card charge into UNKNOWN. They get PATIENT.
# Only the tests about time-outs use SHORT, against a simulator told not to answer.
PATIENT = httpx.Timeout(30.0, connect=10.0)
SHORT = httpx.Timeout(0.4, connect=0.4)

VISA = "4000000000000002"
VISA_2 = "4124939999999990"
MASTERCARD = "5121212121212124"
AMEX = "370000000000002"
DISCOVER = "6011000000000004"
DECLINED_CARD = "4000000000000069"
NOT_LUHN = "4000000000000001"
EXP = "1230"
CVV = "123"


@dataclass
class FakeClock:
    now: datetime = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@dataclass
class SimServer:
    url: str
    app: Starlette
    clock: FakeClock
    http: httpx.Client = field(repr=False)

    def control(self, path: str, **params: Any) -> Any:
        response = self.http.post(f"{self.url}/_sim/{path}", params=params)
        response.raise_for_status()
        return response.json()

    def get(self, path: str) -> Any:
        response = self.http.get(f"{self.url}/_sim/{path}")
        response.raise_for_status()
        return response.json()

    @property
    def settings(self) -> ConvergeSettings:
        # The credentials this simulator was started with, whatever DATABASE_URL a test has
        # switched to since (the default demo PIN is kept per simulator store).
        merchant_id, user_id, pin = self.app.state.simulator.engine.credentials
        return ConvergeSettings(
            base_url=self.url.removesuffix("/converge-sim") + "/converge-sim",
            merchant_id=merchant_id,
            user_id=user_id,
            pin=pin,
            simulated=True,
        )


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
