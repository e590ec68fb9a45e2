"""The lunch rush's two payment calls profiled in one process: where their CPU goes.

    .venv/bin/python bench/profile_pay.py [--rounds 20] [--top 30] [--sort tottime|cumtime]
                                          [--statements] [--dump FILE]

As ``bench/profile_lunch.py``, with the payment: each round books five lines of an open day
and asks OrderSummary (not measured), then getConvergeSessionToken (purpose "order"), the
Lightbox's session read and Pay (the simulator's own calls, measured apart) and AddOrder
(an Idempotency-Key). The server's Converge client reaches the simulator the app mounts at
/converge-sim over httpx's ASGI transport, in this process, so each payment call's figure
includes the simulator's handling of the server's own Converge calls (split out by module in
the profile). Printed: each call's process CPU (mean, median, min of the rounds after a
warm-up round), its statements (the app's database), its Python function calls, and the
profile's top functions.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import dataclasses
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
from sqlmodel import select

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from lunch_rush import VISA, order_lines  # noqa: E402

from hotmeals.api.app import create_api  # noqa: E402
from hotmeals.converge.converge import ConvergeClient  # noqa: E402
from hotmeals.db.engine import session_scope  # noqa: E402
from hotmeals.db.models import School  # noqa: E402
from hotmeals.services import runtime as service_runtime  # noqa: E402
from hotmeals.services import transaction  # noqa: E402
from tests.databases import app_database  # noqa: E402
from tests.factories import DEFAULT_PASSWORD, make_child, make_parent  # noqa: E402
from tests.querycount import count_queries  # noqa: E402

API_KEY = "hotmeals-profile-key"
MEASURED = ("getConvergeSessionToken", "Lightbox session (sim)", "Lightbox Pay (sim)", "AddOrder")


async def _inline(fn: Any, *args: Any, **kwargs: Any) -> Any:
    return fn(*args)


class Caller:
    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client
        self.token = ""
        self.cpu: dict[str, list[float]] = defaultdict(list)
        self.queries: dict[str, list[int]] = defaultdict(list)
        self.last: dict[str, str] = {}
        self.calls: dict[str, list[int]] = defaultdict(list)
        self.measure = False
        self.profile: pstats.Stats | None = None
        self.per_label: dict[str, pstats.Stats] = {}

    async def request(self, label: str, method: str, path: str, **kw: Any) -> httpx.Response:
        measured = self.measure and label in MEASURED
        profiler = cProfile.Profile(time.thread_time) if self.profile is not None else None
        with count_queries() as queries:
            cpu0 = time.process_time()
            if profiler is not None and measured:
                profiler.enable()
            r = await self.client.request(method, path, **kw)
            if profiler is not None and measured:
                profiler.disable()
            spent = time.process_time() - cpu0
        if measured:
            if profiler is not None and self.profile is not None:
                one = pstats.Stats(profiler)
                self.calls[label].append(one.total_calls)  # type: ignore[attr-defined]
                self.profile.add(one)
                if label in self.per_label:
                    self.per_label[label].add(one)
                else:
                    self.per_label[label] = one
            self.cpu[label].append(spent * 1000)
            self.queries[label].append(queries.count)
            self.last[label] = queries.report()
        return r

    async def call(self, label: str, path: str, body: dict, *, once: bool = False) -> Any:
        headers = {"api-key": API_KEY, "app": "P", "content-type": "text/plain"}
        if self.token:
            headers["token"] = self.token
        if once:
            headers["Idempotency-Key"] = f"k{time.perf_counter_ns()}"
        r = await self.request(
            label, "POST", "/api/v1" + path, content=json.dumps(body), headers=headers
        )
        answer = r.json()
        if answer.get("code") != 1:
            raise SystemExit(f"{label} refused: {r.text[:400]}")
        return answer["data"]


async def one_round(caller: Caller, child: int, round_no: int) -> None:
    dates = await caller.call("GetDates", "/Parent/menu/GetDates", {"child_id": child})
    open_days = sorted({d["date"] for d in dates["days"] if d["is_open"]})
    day = open_days[round_no % len(open_days)]
    menu = await caller.call("GetMenu", "/Parent/menu/GetMenu", {"child_id": child, "date": day})
    meals = [m for m in menu["meals"] if m["is_open"] and m["allergy"]["verdict"] == "safe"]
    for line in order_lines(child, meals):
        await caller.call("AddToCart", "/Parent/cart/AddToCart", line, once=True)
    summary = await caller.call("OrderSummary", "/Parent/cart/OrderSummary", {})
    session = await caller.call(
        "getConvergeSessionToken", "/Parent/order/getConvergeSessionToken", {"purpose": "order"}
    )
    assert session["amount_cents"] == summary["charges"]["total_pay_cents"], session
    sim_token = session["ssl_txn_auth_token"]
    r = await caller.request(
        "Lightbox session (sim)",
        "GET",
        "/converge-sim/hosted-payments/session",
        params={"ssl_txn_auth_token": sim_token},
    )
    assert r.status_code == 200 and r.json().get("ok"), r.text
    r = await caller.request(
        "Lightbox Pay (sim)",
        "POST",
        "/converge-sim/hosted-payments/process",
        data={"ssl_txn_auth_token": sim_token, **VISA},
    )
    paid = r.json()
    assert paid.get("outcome") == "approval", r.text
    body = {"payment_id": session["payment_id"], "ssl_txn_id": paid["response"]["ssl_txn_id"]}
    added = await caller.call("AddOrder", "/Parent/order/AddOrder", body, once=True)
    assert added["status"] == "placed", added


async def run(args: argparse.Namespace, *, profile: bool) -> Caller:
    with session_scope() as session:
        school = session.exec(select(School).where(School.is_active).order_by(School.id)).first()
        parent = make_parent(session, email="profile@example.com", phone="(613) 558-0001")
        child_id = int(make_child(session, parent, school=school, is_default=True).id or 0)
    transaction.to_thread.run_sync = _inline  # type: ignore[attr-defined]
    app = create_api()
    transport = httpx.ASGITransport(app=app)
    settings = service_runtime.converge_settings()
    path = httpx.URL(settings.base_url).path
    settings = dataclasses.replace(settings, base_url="http://bench" + path)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        loop = asyncio.get_running_loop()
        service_runtime._clients[loop] = ConvergeClient(settings, transport=transport)
        caller = Caller(client)
        if profile:
            caller.profile = pstats.Stats()
        login = {"email": "profile@example.com", "password": DEFAULT_PASSWORD}
        caller.token = (await caller.call("Login", "/Parent/auth/Login", login))["token"]
        await one_round(caller, child_id, 0)  # warm-up
        caller.measure = True
        for round_no in range(1, args.rounds + 1):
            await one_round(caller, child_id, round_no)
    return caller


PACKAGES = (
    "hotmeals/converge/simulator",
    "hotmeals",
    "sqlalchemy",
    "sqlmodel",
    "fastapi",
    "starlette",
    "pydantic",
    "httpx",
    "httpcore",
)


def by_package(stats: pstats.Stats) -> list[tuple[str, float]]:
    totals: dict[str, float] = defaultdict(float)
    for (filename, _, _), row in stats.stats.items():  # type: ignore[attr-defined]
        package = next((p for p in PACKAGES if f"/{p}" in filename), "stdlib and built-ins")
        if package == "sqlmodel":
            package = "sqlalchemy"
        if "/bench/" in filename:
            package = "this harness"
        totals[package] += row[2]
    whole = sum(totals.values()) or 1.0
    return sorted(((k, v / whole) for k, v in totals.items()), key=lambda kv: -kv[1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--sort", choices=("tottime", "cumtime"), default="tottime")
    ap.add_argument("--statements", action="store_true")
    ap.add_argument("--no-profile", action="store_true")
    ap.add_argument("--dump", help="write each call's profile to FILE.<call>.prof")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="hotmeals-profile-"))
    with app_database("sqlite", folder, HOTMEALS_API_KEY=API_KEY):
        caller = asyncio.run(run(args, profile=False))
    print(f"## In-process CPU per call, sqlite, {args.rounds} rounds (ms)")
    print()
    print("| call | CPU ms (mean) | CPU ms (median) | CPU ms (min) | statements |")
    print("|---|---:|---:|---:|---:|")
    for label in MEASURED:
        values = caller.cpu[label]
        queries = statistics.fmean(caller.queries[label])
        print(
            f"| {label} | {statistics.fmean(values):.2f} | {statistics.median(values):.2f} "
            f"| {min(values):.2f} | {queries:.1f} |"
        )
    if args.statements:
        for label, report in caller.last.items():
            print(f"\n### {label}\n{report}")
    if args.no_profile:
        return
    folder = Path(tempfile.mkdtemp(prefix="hotmeals-profile-"))
    with app_database("sqlite", folder, HOTMEALS_API_KEY=API_KEY):
        profiled = asyncio.run(run(args, profile=True))
    print()
    print("| call | function calls (mean) |")
    print("|---|---:|")
    for label in MEASURED:
        print(f"| {label} | {statistics.fmean(profiled.calls[label]):,.0f} |")
    for label, stats in profiled.per_label.items():
        if args.dump:
            stats.dump_stats(f"{args.dump}.{label.split()[0]}.prof")
        print(f"\n### {label}: by package (own time)\n")
        for package, share in by_package(stats):
            print(f"| {package} | {share:.0%} |")
        out = io.StringIO()
        stats.stream = out  # type: ignore[attr-defined]
        stats.sort_stats(args.sort).print_stats(args.top)
        stats.sort_stats("cumtime").print_stats("hotmeals", args.top)
        print(out.getvalue())


if __name__ == "__main__":
    main()
