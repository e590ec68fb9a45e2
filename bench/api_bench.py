"""Throughput and latency of the parent API's hot reads beside Reflex's no-op /ping, on one
prod server started here (fresh migrated and seeded SQLite database), in one run; and GetMenu
beside its floor.

    .venv/bin/python bench/api_bench.py [--seconds 4] [--concurrency 16] [--client wrk|httpx]

The load comes from ``wrk`` when it is installed (Debian's package; the issue's figures were
taken with it, and ``make bench`` installs it when it can), else from Python (httpx, asyncio),
which cannot saturate /ping: with it the req/s shares say little, the CPU shares still hold.

For each call: requests/s, p50 and p99 latency (ms), errors, and its throughput as a share of
/ping's (the goal: every authenticated read at 25 % or more). /ping is measured first
and last and the mean is the reference, so a machine that slows down during the run skews the
shares less. Beside them, the server's CPU time per request (its processes' user + system
time over the call's run, divided by the requests served) and /ping's CPU per request as a
share of it: on a machine busy with other work the req/s figures swing, the CPU per request
much less. Traffic goes to 127.0.0.1 only; each call is bounded in time and request count.
The build folder is ``REFLEX_WEB_WORKDIR`` (default ``.web-bench-api``), so a developer's
``make run`` or the e2e suite never races this one.

GetMenu (the default demo child, its first open day) is also loaded on its floor: the same call
written by hand (``bench/floor_app.py``: plain ASGI and SQLAlchemy Core, no framework, no cache),
served by granian with the app's worker count on the same database, in the same run, right after
the app's GetMenu. Its answer is checked equal to the app's first. The bench prints GetMenu's
req/s as a share of the floor's, and the goal: 75 % or more.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.server import free_port, start_app  # noqa: E402

MAX_REQUESTS = 200_000
DEMO_EMAIL, DEMO_PASSWORD = "parent@example.com", "Lunch@2026"


@dataclass(frozen=True)
class Call:
    label: str
    method: str
    path: str
    authenticated: bool = False
    api: bool = True  # answers the JSON envelope, checked once before timing
    body: bytes | None = None


CALLS = (
    Call("GetChilds", "GET", "/api/v1/Parent/user/GetChilds", authenticated=True),
    Call("GetUserDetails", "GET", "/api/v1/Parent/user/GetUserDetails", authenticated=True),
    Call("get_city", "POST", "/api/v1/Parent/user/get_city", body=b"{}"),
    Call("health", "GET", "/api/v1/health"),
)
PING = Call("/ping", "GET", "/ping", api=False)
# Its body (a demo child, an open day) is read from the app before timing (``menu_body``).
GET_MENU = Call("GetMenu", "POST", "/api/v1/Parent/menu/GetMenu", authenticated=True)
FLOOR_GOAL = 0.75  # GetMenu's req/s as a share of its floor's


@dataclass
class Result:
    call: Call
    seconds: float
    latencies: list[float]
    errors: int
    cpu_seconds: float = 0.0  # the server's processes, over the whole run of this call
    count: int | None = None  # from wrk: requests served (latencies then holds p50, p99 only)

    @property
    def rate(self) -> float:
        return self.served / self.seconds

    @property
    def served(self) -> int:
        return self.count if self.count is not None else len(self.latencies)

    @property
    def cpu_ms(self) -> float:
        """Server CPU per request: what the call costs, whatever else the machine runs."""
        return 1000 * self.cpu_seconds / max(1, self.served)


def server_cpu(pid: int) -> float:
    """User + system CPU seconds of the server and its workers so far."""
    total = 0.0
    root = psutil.Process(pid)
    for proc in [root, *root.children(recursive=True)]:
        try:
            times = proc.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def _headers(api_key: str, token: str | None) -> dict[str, str]:
    headers = {"api-key": api_key, "app": "P", "content-type": "text/plain"}
    if token:
        headers["token"] = token
    return headers


async def hammer(base: str, call: Call, headers: dict, seconds: float, concurrency: int) -> Result:
    latencies: list[float] = []
    errors = 0
    url = base + call.path
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(limits=limits, timeout=10, headers=headers) as client:
        deadline = time.perf_counter() + seconds
        started = time.perf_counter()

        async def worker() -> None:
            nonlocal errors
            while time.perf_counter() < deadline and len(latencies) < MAX_REQUESTS:
                t0 = time.perf_counter()
                try:
                    r = await client.request(call.method, url, content=call.body)
                    if r.status_code != 200:
                        errors += 1
                except httpx.HTTPError:
                    errors += 1
                latencies.append((time.perf_counter() - t0) * 1000)

        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    return Result(call, elapsed, latencies, errors)


_WRK_SCRIPT = """
wrk.method = "%s"
wrk.body = %s
"""
_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([0-9.]+)([a-z]+)", text).groups()  # type: ignore[union-attr]
    return float(number) * _UNITS[unit]


def hammer_wrk(base: str, call: Call, headers: dict, seconds: float, concurrency: int) -> Result:
    """The same load from wrk (two threads, ``concurrency`` connections)."""
    script = Path(tempfile.mkdtemp(prefix="hm-wrk-")) / "call.lua"
    body = json.dumps(call.body.decode()) if call.body is not None else "nil"
    script.write_text(_WRK_SCRIPT % (call.method, body))
    cmd = [
        "wrk",
        "-t2",
        f"-c{concurrency}",
        f"-d{max(1, round(seconds))}s",
        "--latency",
        "-s",
        str(script),
    ]
    for name, value in headers.items():
        cmd += ["-H", f"{name}: {value}"]
    out = subprocess.run(
        [*cmd, base + call.path], capture_output=True, text=True, check=True, timeout=seconds + 60
    ).stdout
    served = re.search(r"(\d+) requests in ([0-9.]+)(\w+)", out)
    if served is None:
        raise SystemExit(f"wrk said:\n{out}")
    elapsed = _ms(served.group(2) + served.group(3)) / 1000
    p50 = re.search(r"^\s+50%\s+(\S+)", out, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", out, re.M)
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    errors = (int(bad.group(1)) if bad else 0) + (
        sum(int(x) for x in socket.groups()) if socket else 0
    )
    latencies = [
        _ms(p50.group(1)) if p50 else float("nan"),
        _ms(p99.group(1)) if p99 else float("nan"),
    ]
    return Result(call, elapsed, latencies, errors, count=int(served.group(1)))


def latency(result: Result, p: int) -> float:
    """p50 or p99 in ms: wrk's own figures, or computed from every request's time."""
    if result.count is not None:
        return result.latencies[0 if p == 50 else 1]
    return pct(result.latencies, p)


def pct(values: list[float], p: float) -> float:
    if len(values) < 2:
        return float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[int(p) - 1]


def login(base: str, api_key: str) -> str:
    r = httpx.post(
        f"{base}/api/v1/Parent/auth/Login",
        content=json.dumps({"email": DEMO_EMAIL, "password": DEMO_PASSWORD}),
        headers=_headers(api_key, None),
        timeout=30,
    )
    body = r.json()
    if r.status_code != 200 or body.get("code") != 1:
        raise SystemExit(f"demo login failed: {r.status_code} {r.text[:300]}")
    return body["data"]["token"]


def check(base: str, call: Call, headers: dict) -> None:
    """One request before timing: a call that fails would otherwise be timed as fast."""
    r = httpx.request(call.method, base + call.path, content=call.body, headers=headers, timeout=30)
    if r.status_code != 200 or (call.api and r.json().get("code") != 1):
        raise SystemExit(f"{call.label} does not answer: {r.status_code} {r.text[:300]}")


def menu_body(base: str, api_key: str, token: str) -> bytes:
    """GetMenu's body: the default demo child on its first open day that has meals."""
    headers = _headers(api_key, token)
    children = httpx.get(
        f"{base}/api/v1/Parent/user/GetChilds", headers=headers, timeout=30
    ).json()["data"]
    child = next(c for c in children if c["is_default"])["id"]
    dates = httpx.post(
        f"{base}/api/v1/Parent/menu/GetDates",
        content=json.dumps({"child_id": child}),
        headers=headers,
        timeout=30,
    ).json()["data"]["days"]
    for day in (d["date"] for d in dates if d["is_open"]):
        body = json.dumps({"child_id": child, "date": day}).encode()
        r = httpx.post(base + GET_MENU.path, content=body, headers=headers, timeout=30)
        if r.status_code == 200 and r.json()["data"]["meals"]:
            return body
    raise SystemExit("no open day with meals for the demo child")


@dataclass
class Floor:
    process: subprocess.Popen
    base_url: str
    log: Path

    def stop(self) -> None:
        """Stop granian and its worker (their own process group)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


def start_floor(env: dict[str, str], data_dir: Path) -> Floor:
    """``bench/floor_app.py`` under granian: the app's environment (its database), the app's
    worker count, a free port."""
    port = free_port()
    log = data_dir / "floor.log"
    command = [
        str(Path(sys.executable).parent / "granian"),
        "--interface",
        "asgi",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        env.get("GRANIAN_WORKERS", "1"),
        "bench.floor_app:app",
    ]
    with open(log, "wb") as out:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**env, "PYTHONPATH": str(ROOT)},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    floor = Floor(process, f"http://127.0.0.1:{port}", log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the floor exited early:\n{log.read_text()[-4000:]}")
        try:
            httpx.get(floor.base_url + "/", timeout=2)  # any answer (404): it serves
            return floor
        except httpx.HTTPError:
            time.sleep(0.5)
    floor.stop()
    raise SystemExit(f"the floor did not start:\n{log.read_text()[-4000:]}")


def same_answer(base: str, floor: str, call: Call, headers: dict) -> None:
    """The floor answers the benched request as the app does (the same status and JSON)."""
    real, own = (
        httpx.request(call.method, url + call.path, content=call.body, headers=headers, timeout=30)
        for url in (base, floor)
    )
    if real.status_code != own.status_code or real.json() != own.json():
        raise SystemExit(
            f"the floor answers otherwise:\napp   {real.text[:500]}\nfloor {own.text[:500]}"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--client", choices=("wrk", "httpx"), default=None)
    args = ap.parse_args()
    client = args.client or ("wrk" if shutil.which("wrk") else "httpx")
    workdir = os.environ.get("REFLEX_WEB_WORKDIR") or str(ROOT / ".web-bench-api")
    data_dir = Path(tempfile.mkdtemp(prefix="hotmeals-api-bench-"))
    server = start_app(data_dir, {"REFLEX_WEB_WORKDIR": workdir})
    floor: Floor | None = None
    try:
        base = server.base_url.replace("localhost", "127.0.0.1")
        api_key = server.env.get("HOTMEALS_API_KEY", "hotmeals-dev-key")
        token = login(base, api_key)
        get_menu = replace(GET_MENU, body=menu_body(base, api_key, token))
        floor = start_floor(server.env, data_dir)
        floor_menu = replace(get_menu, label="GetMenu floor")
        plan = [PING, *CALLS, get_menu, floor_menu, PING]
        for call in plan:
            url = floor.base_url if call is floor_menu else base
            check(url, call, _headers(api_key, token if call.authenticated else None))
        same_answer(base, floor.base_url, get_menu, _headers(api_key, token))
        how = "wrk, 2 threads" if client == "wrk" else "httpx, asyncio"
        print(
            f"server {base}, {args.concurrency} concurrent clients ({how}), "
            f"{args.seconds:g} s per call, demo parent with 2 children"
        )
        results = []
        for call in plan:
            url, pid = (
                (floor.base_url, floor.process.pid)
                if call is floor_menu
                else (base, server.process.pid)
            )
            cpu_before = server_cpu(pid)
            call_headers = _headers(api_key, token if call.authenticated else None)
            if client == "wrk":
                result = hammer_wrk(url, call, call_headers, args.seconds, args.concurrency)
            else:
                result = asyncio.run(
                    hammer(url, call, call_headers, args.seconds, args.concurrency)
                )
            result.cpu_seconds = server_cpu(pid) - cpu_before
            results.append(result)
    finally:
        if floor is not None:
            floor.stop()
        server.stop()
    menu = next(r for r in results if r.call is get_menu)
    on_floor = next(r for r in results if r.call is floor_menu)
    results.remove(on_floor)
    pings = [r for r in results if r.call is PING]
    ping_rate = statistics.fmean(r.rate for r in pings)
    ping_cpu = sum(r.cpu_seconds for r in pings) / max(1, sum(r.served for r in pings))
    ping_cpu_ms = 1000 * ping_cpu
    if client == "wrk":  # wrk gives each run's percentiles: mean of the p50s, worst p99
        ping = Result(
            PING,
            sum(r.seconds for r in pings),
            [statistics.fmean(r.latencies[0] for r in pings), max(r.latencies[1] for r in pings)],
            sum(r.errors for r in pings),
            sum(r.cpu_seconds for r in pings),
            count=sum(r.served for r in pings),
        )
    else:
        ping = Result(
            PING,
            sum(r.seconds for r in pings),
            [x for r in pings for x in r.latencies],
            sum(r.errors for r in pings),
            sum(r.cpu_seconds for r in pings),
        )
    print()
    print(
        "| call | req/s | p50 ms | p99 ms | errors | share of /ping | server CPU ms/req "
        "| CPU share of /ping |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in [*(r for r in results if r.call is not PING), ping]:
        rate = ping_rate if r.call is PING else r.rate
        print(
            f"| {r.call.label} | {rate:,.0f} | {latency(r, 50):.1f} | "
            f"{latency(r, 99):.1f} | {r.errors} | {100 * rate / ping_rate:.0f} % "
            f"| {r.cpu_ms:.2f} | {100 * ping_cpu_ms / max(r.cpu_ms, 1e-9):.0f} % |"
        )
    print()
    print(f"/ping first {pings[0].rate:,.0f} req/s, last {pings[-1].rate:,.0f} req/s")
    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    below = [r.call.label for r in results if r.call.authenticated and r.rate < 0.25 * ping_rate]
    if below:
        print(f"below 25 % of /ping's req/s: {', '.join(below)}")
    print()
    print(
        f"GetMenu floor (bench/floor_app.py: plain ASGI + SQLAlchemy Core, granian, same "
        f"database): {on_floor.rate:,.0f} req/s, p50 {latency(on_floor, 50):.1f} ms, "
        f"p99 {latency(on_floor, 99):.1f} ms, {on_floor.errors} errors, "
        f"server CPU {on_floor.cpu_ms:.2f} ms/req"
    )
    share = menu.rate / on_floor.rate
    verdict = "meets" if share >= FLOOR_GOAL else "below"
    print(
        f"GetMenu: {menu.rate:,.0f} req/s = {100 * share:.0f} % of its floor's "
        f"({verdict} the goal of {100 * FLOOR_GOAL:.0f} %); server CPU per request "
        f"{menu.cpu_ms / max(on_floor.cpu_ms, 1e-9):.1f}x the floor's"
    )


if __name__ == "__main__":
    main()
