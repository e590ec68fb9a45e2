"""A backend worker killed mid-rush: the scale-out profile (2 workers, PostgreSQL,
Redis) keeps serving, the dead worker is replaced, every parent's retried order is placed once,
the money matches the simulator's ledger and each confirmation e-mail arrives once.

HTTP only: parents are API clients that retry a call whose connection broke, with the same
Idempotency-Key (what the app and its clients promise each other). The local Converge
simulator is served by the app's own workers here; the real one is not, so when the kill cuts
the Lightbox's own POST, the "Lightbox" reads its answer from the simulator's ledger, as the
real Lightbox would have had it from Converge.
"""

from __future__ import annotations

import json
import os
import re
import signal
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import psycopg
import pytest
from sqlmodel import select

from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.models import Order, School
from tests.databases import PG_ADMIN_DSN
from tests.e2e.server import AppServer, start_app
from tests.e2e.smtp import SmtpServer
from tests.e2e.test_simulator_ledger import _need, _pg_answers, _redis_answers
from tests.factories import DEFAULT_PASSWORD, make_child, make_parent

# Starts servers of its own: make test runs it after the browser tests, one module at a time.
pytestmark = pytest.mark.servers

PARENTS = 8
LINES = 2
API_HEADERS = {"api-key": "hotmeals-dev-key", "app": "P", "content-type": "text/plain"}
VISA = {"ssl_card_number": "4000000000000002", "ssl_exp_date": "1230", "ssl_cvv2cvc2": "123"}
REDIS_DB = 8  # not test_simulator_ledger's 7: the two may run at once on two xdist workers
SPAWNED = re.compile(r"Spawning worker-(\d+) with pid: (\d+)", re.IGNORECASE)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, smtp: SmtpServer) -> Iterator[AppServer]:
    _need("Redis on 127.0.0.1:6379", _redis_answers())
    _need(f"PostgreSQL at {PG_ADMIN_DSN!r}", _pg_answers())
    name = f"hm_e2e_kill_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    env = {
        **smtp.env,
        "DATABASE_URL": f"postgresql://postgres@127.0.0.1:5432/{name}",
        "REDIS_URL": f"redis://127.0.0.1:6379/{REDIS_DB}",
        "GRANIAN_WORKERS": "2",
        "GRANIAN_LOG_LEVEL": "info",  # "Spawning worker-N with pid: P" lines name the workers
        "CONVERGE_SIM_CONTROL": "1",  # /_sim/state: the Lightbox's answer when the kill cut it
    }
    try:
        server = start_app(tmp_path_factory.mktemp("e2e-kill"), env)
        try:
            yield server
        finally:
            server.stop()
    finally:
        with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _workers(app: AppServer) -> dict[int, int]:
    """worker number -> its latest pid, from the server's log."""
    found: dict[int, int] = {}
    for number, pid in SPAWNED.findall(app.log_path.read_text(errors="replace")):
        found[int(number)] = int(pid)
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class Parent:
    def __init__(self, app: AppServer, email: str, child_id: int) -> None:
        self.app, self.email, self.child_id = app, email, child_id
        self.token = ""
        self.retries = 0
        self.booking = threading.Event()  # set once its first meal is in the cart

    def call(self, path: str, body: dict, *, key: str | None = None) -> dict:
        """One API call, retried (same key) while the connection breaks or a worker is gone;
        a refusal (code 0) is an answer, returned as it is."""
        headers = {**API_HEADERS, **({"token": self.token} if self.token else {})}
        if key:
            headers["Idempotency-Key"] = key
        for _attempt in range(60):
            try:
                response = httpx.post(
                    f"{self.app.base_url}/api/v1{path}",
                    content=json.dumps(body),
                    headers=headers,
                    timeout=60,
                )
                if response.status_code < 500:
                    answer: dict = response.json()
                    return answer
            except httpx.HTTPError:
                pass
            self.retries += 1
            time.sleep(0.5)  # a client's back-off before it tries again
        raise AssertionError(f"{path} never answered")

    def lightbox_pay(self, session_token: str) -> str:
        """The card posted once; when the answer is lost, the ledger says what happened."""
        try:
            paid = httpx.post(
                f"{self.app.base_url}/converge-sim/hosted-payments/process",
                data={"ssl_txn_auth_token": session_token, **VISA},
                timeout=60,
            )
            if paid.status_code == 200:
                answer = paid.json()
                assert answer["outcome"] == "approval", answer
                return str(answer["response"]["ssl_txn_id"])
        except httpx.HTTPError:
            pass
        self.retries += 1
        for _attempt in range(60):
            try:
                state = httpx.get(f"{self.app.base_url}/converge-sim/_sim/state", timeout=60)
                sessions = {s["token"]: s for s in state.json()["sessions"]}
                found = sessions.get(session_token)
                if found and found["used"] and found["txn_id"]:
                    return str(found["txn_id"])
                if found and not found["used"]:
                    return self.lightbox_pay(session_token)  # it never reached the ledger
            except (httpx.HTTPError, ValueError, KeyError):
                pass
            time.sleep(0.5)
        raise AssertionError("the Lightbox never learnt its answer")

    def order(self) -> None:
        login = self.call("/Parent/auth/Login", {"email": self.email, "password": DEFAULT_PASSWORD})
        assert login["code"] == 1, login
        self.token = login["data"]["token"]
        dates = self.call("/Parent/menu/GetDates", {"child_id": self.child_id})["data"]
        day = sorted(d["date"] for d in dates["days"] if d["is_open"])[0]
        menu = self.call("/Parent/menu/GetMenu", {"child_id": self.child_id, "date": day})["data"]
        meals = [m for m in menu["meals"] if m["is_open"] and m["allergy"]["verdict"] == "safe"]
        for i in range(LINES):
            meal = meals[i % len(meals)]
            line = {
                "child_id": self.child_id,
                "meal_id": meal["meal_id"],
                "menu_day_id": meal["menu_day_id"],
                "size": "small",
                "quantity": 1,
            }
            added = self.call("/Parent/cart/AddToCart", line, key=uuid.uuid4().hex)
            assert added["code"] == 1, added
            self.booking.set()
        session = self.call(
            "/Parent/order/getConvergeSessionToken", {"purpose": "order"}, key=uuid.uuid4().hex
        )
        assert session["code"] == 1, session
        txn_id = self.lightbox_pay(session["data"]["ssl_txn_auth_token"])
        placed = self.call(
            "/Parent/order/AddOrder",
            {"payment_id": session["data"]["payment_id"], "ssl_txn_id": txn_id},
            key=uuid.uuid4().hex,
        )
        assert placed["code"] == 1, placed


def _parents(app: AppServer) -> list[Parent]:
    tag = uuid.uuid4().hex[:6]
    engine = make_engine(app.env["DATABASE_URL"])
    made = []
    try:
        with session_scope(engine) as session:
            schools = list(session.exec(select(School).order_by(School.id)).all())
            for i in range(PARENTS):
                parent = make_parent(
                    session,
                    email=f"kill-{tag}-{i}@example.com",
                    phone=f"(613) 559-{i:04d}",
                    first_name="Kim",
                    last_name=f"Parent{i}",
                )
                child = make_child(session, parent, school=schools[i % len(schools)])
                made.append((parent.email, int(child.id or 0)))
    finally:
        engine.dispose()
    return [Parent(app, email, child_id) for email, child_id in made]


def _health_answers(app: AppServer) -> int:
    for _attempt in range(10):
        try:
            return httpx.get(f"{app.base_url}/api/v1/health", timeout=60).status_code
        except httpx.TransportError:
            continue  # reset by the killed worker: it held this connection
    raise AssertionError("no worker answered /api/v1/health after the kill")


def test_a_worker_killed_mid_rush_is_replaced_and_no_order_is_lost_or_doubled(
    cluster: AppServer, smtp: SmtpServer
) -> None:
    before = _workers(cluster)
    assert sorted(before) == [1, 2] and all(_alive(p) for p in before.values()), before
    parents = _parents(cluster)
    started = threading.Barrier(PARENTS + 1)
    errors: list[BaseException] = []

    def rush(parent: Parent) -> None:
        started.wait()
        try:
            parent.order()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    with ThreadPoolExecutor(max_workers=PARENTS) as pool:
        futures = [pool.submit(rush, p) for p in parents]
        started.wait()
        # Mid-rush: parents are booking and paying; one worker dies without a word.
        assert parents[0].booking.wait(timeout=600)
        os.kill(before[2], signal.SIGKILL)
        # The other worker answers at once. A connection the dying worker had already accepted
        # is reset with it (a client retries it, like the parents above): a few tries at once,
        # each a new connection, with no pause that would wait for the replacement.
        assert _health_answers(cluster) == 200
        for future in futures:
            future.result(timeout=600)
    assert errors == []

    # The dead worker was replaced: a new pid for worker 2, alive; worker 1 untouched.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and _workers(cluster).get(2) == before[2]:
        time.sleep(0.2)
    after = _workers(cluster)
    assert after[1] == before[1] and after[2] != before[2] and _alive(after[2]), after
    assert cluster.process.poll() is None
    assert httpx.get(f"{cluster.base_url}/api/v1/ready", timeout=60).status_code == 200

    # Both workers, the replacement included, run the job queue (procrastinate on PostgreSQL):
    # two live heartbeats; the dead worker's stops and the stalled-job sweep prunes it.
    conninfo = cluster.env["DATABASE_URL"]
    deadline = time.monotonic() + 180
    live = 0
    while time.monotonic() < deadline:
        with psycopg.connect(conninfo) as conn:
            live = conn.execute(
                "SELECT count(*) FROM procrastinate_workers "
                "WHERE last_heartbeat > now() - interval '30 seconds'"
            ).fetchone()[0]
        if live == 2:
            break
        time.sleep(0.5)
    assert live == 2

    # Every parent's order placed once, paid once, and the ledger agrees to the cent.
    engine = make_engine(cluster.env["DATABASE_URL"])
    try:
        with session_scope(engine) as session:
            orders = {
                p.email: list(
                    session.exec(
                        select(Order).where(Order.parent_id == _parent_id(session, p.email))
                    ).all()
                )
                for p in parents
            }
    finally:
        engine.dispose()
    for email, rows in orders.items():
        assert [o.status for o in rows] == ["placed"], (email, [(o.id, o.status) for o in rows])
    ledger = httpx.get(f"{cluster.base_url}/converge-sim/_sim/transactions", timeout=60).json()
    kept = sum(
        t["amount_cents"]
        for t in ledger
        if t["kind"] == "SALE" and t["approval_code"] and not t["voided"]
    )
    returned = sum(t["amount_cents"] for t in ledger if t["kind"] == "RETURN")
    assert kept - returned == sum(rows[0].total_pay_cents for rows in orders.values())
    # One confirmation each (the mail job may not send any more: they were all SENT).
    for parent in parents:
        # A mail whose handover the kill cut is sent by the mail job (within about 2 minutes).
        smtp.inbox.wait_for_mail(parent.email, timeout=400)
    for parent in parents:
        confirmations = [
            m for m in smtp.inbox.mails_to(parent.email) if "order" in m.subject.lower()
        ]
        assert len(confirmations) == 1, (parent.email, [m.subject for m in confirmations])
    print(f"calls retried after the kill: {sum(p.retries for p in parents)}")


def _parent_id(session, email: str) -> int:
    from hotmeals.db.models import Parent as ParentRow

    row = session.exec(select(ParentRow).where(ParentRow.email == email)).one()
    return int(row.id)
