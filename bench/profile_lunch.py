"""The lunch rush's ordering calls profiled in one process: where a call's CPU goes.

    .venv/bin/python bench/profile_lunch.py [--rounds 20] [--top 30] [--backend sqlite|postgres]
                                            [--sort tottime|cumtime]

A fresh database with the demo data (as the API tests make it), one parent with a child at a
demo school, then ``--rounds`` orders of GetDates -> GetMenu -> MenuDetail -> AddToCart x5 ->
OrderSummary -> getConvergeSessionToken -> the Lightbox's session read and Pay -> AddOrder
through the real /api/v1 app (``create_api()``, over httpx's ASGI transport), as
``bench/lunch_rush.py`` places them. Converge is the simulator, in this process too (its own
Starlette app over an ASGI transport, for the app's Converge client and for the Lightbox's
two calls): the CPU it spends answering the app's own Converge calls is measured around each
of them and printed apart ("of which the simulator"), so a call's "app" figure is the app
alone. ``--no-pay`` stops each round after OrderSummary (the cart emptied, not measured).

Services run on the calling thread here (the worker-thread hop is replaced), so one cProfile
sees the whole call: the route, the dependencies, the service, SQLAlchemy, the JSON. Printed:
each call's process CPU time (mean of the rounds after a warm-up round), the statements each
call sent, and the profile's top functions. No server, no network: the figures are the app's
own cost, not granian's or the client's.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import pstats
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import delete
from sqlmodel import select

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from lunch_rush import LINES_PER_ORDER, order_lines  # noqa: E402

from hotmeals.api.app import create_api  # noqa: E402
from hotmeals.converge.configured import simulator_settings  # noqa: E402
from hotmeals.converge.converge import ConvergeClient  # noqa: E402
from hotmeals.converge.simulator import create_simulator_app  # noqa: E402
from hotmeals.db.engine import session_scope  # noqa: E402
from hotmeals.db.models import CartLine, CartLineAddOn, School  # noqa: E402
from hotmeals.services import runtime, transaction  # noqa: E402
from tests.databases import app_database  # noqa: E402
from tests.factories import DEFAULT_PASSWORD, make_child, make_parent  # noqa: E402
from tests.querycount import count_queries  # noqa: E402

API_KEY = "hotmeals-profile-key"
VISA = {"ssl_card_number": "4000000000000002", "ssl_exp_date": "1230", "ssl_cvv2cvc2": "123"}
SIM = "http://converge-sim"


class MeteredTransport(httpx.AsyncBaseTransport):
    """The simulator behind an ASGI transport, with the process CPU time of each request it
    answers added up (everything runs on one thread here: that time is the simulator's)."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.cpu = 0.0  # seconds

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        cpu0 = time.process_time()
        try:
            response = await self.inner.handle_async_request(request)
            await response.aread()
        finally:
            self.cpu += time.process_time() - cpu0
        return response


async def _inline(fn: Any, *args: Any, **kwargs: Any) -> Any:
    return fn(*args)


class Caller:
    def __init__(self, client: httpx.AsyncClient, sim: MeteredTransport) -> None:
        self.client = client
        self.sim = sim
        # the Lightbox
        self.browser = httpx.AsyncClient(transport=sim, base_url=SIM + "/converge-sim")
        self.token = ""
        self.cpu: dict[str, list[float]] = defaultdict(list)  # the app's, the simulator's apart
        self.sim_cpu: dict[str, list[float]] = defaultdict(list)  # the simulator's, within
        self.queries: dict[str, list[int]] = defaultdict(list)
        self.last: dict[str, str] = {}  # each call's statements, its last time
        self.calls: dict[str, list[int]] = defaultdict(list)  # Python function calls
        self.measure = False
        self.profile: pstats.Stats | None = None  # set: each call is profiled into it
        self.only: str | None = None  # set: only this call's profile is kept

    async def call(self, label: str, path: str, body: dict, *, once: bool = False) -> Any:
        headers = {"api-key": API_KEY, "app": "P", "content-type": "text/plain"}
        if self.token:
            headers["token"] = self.token
        if once:
            headers["Idempotency-Key"] = f"k{time.perf_counter_ns()}"
        r = await self._timed(
            label,
            self.client.post("/api/v1" + path, content=json.dumps(body), headers=headers),
        )
        answer = r.json()
        if answer.get("code") != 1:
            raise SystemExit(f"{label} refused: {r.text[:400]}")
        return answer["data"]

    async def lightbox(self, label: str, request: Any) -> Any:
        """One of the stand-in Lightbox's calls to the simulator (all of it the simulator's)."""
        r = await self._timed(label, request, lightbox=True)
        if r.status_code != 200:
            raise SystemExit(f"{label} refused: {r.text[:400]}")
        return r.json()

    async def _timed(self, label: str, request: Any, *, lightbox: bool = False) -> httpx.Response:
        profiler = cProfile.Profile(time.thread_time) if self.profile is not None else None
        with count_queries() as queries:
            cpu0, sim0 = time.process_time(), self.sim.cpu
            if profiler is not None:
                profiler.enable()
            r = await request
            if profiler is not None:
                profiler.disable()
            spent = time.process_time() - cpu0
            sim = spent if lightbox else self.sim.cpu - sim0
        if self.measure and profiler is not None and self.profile is not None:
            one = pstats.Stats(profiler)
            self.calls[label].append(one.total_calls)  # type: ignore[attr-defined]
            if self.only in (None, label):
                self.profile.add(one)
        if self.measure:
            self.cpu[label].append((spent - sim) * 1000)
            self.sim_cpu[label].append(sim * 1000)
            self.queries[label].append(queries.count)
            self.last[label] = queries.report()
        return r


async def one_round(caller: Caller, child: int, round_no: int, *, pay: bool) -> None:
    dates = await caller.call("GetDates", "/Parent/menu/GetDates", {"child_id": child})
    open_days = sorted({d["date"] for d in dates["days"] if d["is_open"]})
    day = open_days[round_no % len(open_days)]
    menu = await caller.call("GetMenu", "/Parent/menu/GetMenu", {"child_id": child, "date": day})
    meals = [m for m in menu["meals"] if m["is_open"] and m["allergy"]["verdict"] == "safe"]
    await caller.call(
        "MenuDetail", "/Parent/menu/MenuDetail", {"meal_id": meals[0]["meal_id"], "child_id": child}
    )
    for line in order_lines(child, meals):
        await caller.call("AddToCart", "/Parent/cart/AddToCart", line, once=True)
    summary = await caller.call("OrderSummary", "/Parent/cart/OrderSummary", {})
    if not pay:
        return
    session = await caller.call(
        "getConvergeSessionToken", "/Parent/order/getConvergeSessionToken", {"purpose": "order"}
    )
    if session["amount_cents"] != summary["charges"]["total_pay_cents"]:
        raise SystemExit(f"session amount {session['amount_cents']} != the summary's total")
    token = session["ssl_txn_auth_token"]
    await caller.lightbox(
        "Lightbox session (sim)",
        caller.browser.get("/hosted-payments/session", params={"ssl_txn_auth_token": token}),
    )
    paid = await caller.lightbox(
        "Lightbox Pay (sim)",
        caller.browser.post("/hosted-payments/process", data={"ssl_txn_auth_token": token, **VISA}),
    )
    if paid.get("outcome") != "approval":
        raise SystemExit(f"the simulator did not approve: {paid}")
    await caller.call(
        "AddOrder",
        "/Parent/order/AddOrder",
        {"payment_id": session["payment_id"], "ssl_txn_id": paid["response"]["ssl_txn_id"]},
        once=True,
    )


def _empty_cart() -> None:
    with session_scope() as session:
        session.execute(delete(CartLineAddOn))
        session.execute(delete(CartLine))


async def run(args: argparse.Namespace, *, profile: bool) -> Caller:
    with session_scope() as session:
        school = session.exec(select(School).where(School.is_active).order_by(School.id)).first()
        parent = make_parent(session, email="profile@example.com", phone="(613) 558-0001")
        child_id = int(make_child(session, parent, school=school, is_default=True).id or 0)
    transaction.to_thread.run_sync = _inline  # type: ignore[attr-defined]
    transport = httpx.ASGITransport(app=create_api())
    sim = MeteredTransport(create_simulator_app(base_path="/converge-sim", control=False))
    settings = simulator_settings(SIM)
    runtime._clients[asyncio.get_running_loop()] = ConvergeClient(settings, transport=sim)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        caller = Caller(client, sim)
        if profile:
            caller.profile = pstats.Stats()  # empty: each call's profile is added
            caller.only = args.call
        login = {"email": "profile@example.com", "password": DEFAULT_PASSWORD}
        caller.token = (await caller.call("Login", "/Parent/auth/Login", login))["token"]
        pay = not args.no_pay
        await one_round(caller, child_id, 0, pay=pay)  # warm-up: imports, caches, statements
        _empty_cart()
        caller.measure = True
        for round_no in range(1, args.rounds + 1):
            await one_round(caller, child_id, round_no, pay=pay)
            _empty_cart()
    return caller


PACKAGES = ("hotmeals", "sqlalchemy", "sqlmodel", "fastapi", "starlette", "pydantic", "httpx")


def by_package(stats: pstats.Stats) -> list[tuple[str, float]]:
    """Each package's share of the profile's own (``tottime``) time, largest first; the
    standard library and C built-ins together as "stdlib and built-ins"."""
    totals: dict[str, float] = defaultdict(float)
    for (filename, _, _), row in stats.stats.items():  # type: ignore[attr-defined]
        own = row[2]
        package = next((p for p in PACKAGES if f"/{p}/" in filename), "stdlib and built-ins")
        if package == "sqlmodel":
            package = "sqlalchemy"  # SQLModel's session is SQLAlchemy's
        if "/bench/" in filename:
            package = "this harness"
        if "/converge/simulator" in filename:
            package = "the Converge simulator"
        totals[package] += own
    whole = sum(totals.values()) or 1.0
    return sorted(((k, v / whole) for k, v in totals.items()), key=lambda kv: -kv[1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    ap.add_argument("--sort", choices=("tottime", "cumtime"), default="tottime")
    ap.add_argument("--statements", action="store_true", help="print each call's statements")
    ap.add_argument("--no-pay", action="store_true", help="rounds end after OrderSummary")
    ap.add_argument("--call", help="profile this call only (e.g. AddOrder); default all")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="hotmeals-profile-"))
    with app_database(args.backend, folder, HOTMEALS_API_KEY=API_KEY):
        # Without profiling first: cProfile's own overhead would inflate the CPU figures.
        caller = asyncio.run(run(args, profile=False))
    print(f"## In-process CPU per call, {args.backend}, {args.rounds} rounds (ms, mean)")
    print()
    print(
        "| call | app CPU ms (mean) | (median) | (min) | of which the simulator, ms (mean) "
        "| statements |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    per_round = sim_per_round = 0.0
    for label, values in caller.cpu.items():
        per_round += sum(values) / args.rounds
        sim_ms = statistics.fmean(caller.sim_cpu[label])
        sim_per_round += sim_ms * len(values) / args.rounds
        queries = statistics.fmean(caller.queries[label])
        print(
            f"| {label} | {statistics.fmean(values):.2f} | {statistics.median(values):.2f} "
            f"| {min(values):.2f} | {sim_ms:.2f} | {queries:.1f} |"
        )
    calls = LINES_PER_ORDER + (4 if args.no_pay else 6)
    print(
        f"| per round ({calls} app calls; the app alone) | {per_round:.1f} | | "
        f"| {sim_per_round:.1f} | |"
    )
    if args.statements:
        for label, report in caller.last.items():
            print(f"\n### {label}\n{report}")
    print()
    folder = Path(tempfile.mkdtemp(prefix="hotmeals-profile-"))
    with app_database(args.backend, folder, HOTMEALS_API_KEY=API_KEY):
        profiled = asyncio.run(run(args, profile=True))
    stats = profiled.profile
    assert stats is not None
    print("Python function calls per call (cProfile; the same on a busy machine):")
    print()
    print("| call | function calls (mean) |")
    print("|---|---:|")
    for label, counts in profiled.calls.items():
        print(f"| {label} | {statistics.fmean(counts):,.0f} |")
    print(f"| per round | {sum(sum(c) for c in profiled.calls.values()) / args.rounds:,.0f} |")
    print()
    print("Where the profiled time goes, by package (own time of its functions):")
    print()
    print("| package | share |")
    print("|---|---:|")
    for package, share in by_package(stats):
        print(f"| {package} | {share:.0%} |")
    print()
    out = io.StringIO()
    stats.stream = out  # type: ignore[attr-defined]
    stats.sort_stats(args.sort).print_stats(args.top)
    stats.sort_stats("cumtime").print_stats("hotmeals|fastapi/routing|starlette|pydantic", args.top)
    print(out.getvalue())


if __name__ == "__main__":
    main()
