"""Throughput and latency of GET /api/v1/health (touches the database) beside Reflex's no-op
GET /ping, on one prod server started here, in one run.

    .venv/bin/python bench/health_bench.py [--seconds 5] [--concurrency 16]

Prints one line per route: requests/s, p50 and p99 latency in milliseconds. Traffic goes to
127.0.0.1 only, and each run is bounded in time and request count.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.server import start_app  # noqa: E402

MAX_REQUESTS = 200_000


async def hammer(url: str, seconds: float, concurrency: int) -> tuple[int, list[float], int]:
    latencies: list[float] = []
    errors = 0
    deadline = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(limits=limits, timeout=10) as client:

        async def worker() -> None:
            nonlocal errors
            while time.perf_counter() < deadline and len(latencies) < MAX_REQUESTS:
                t0 = time.perf_counter()
                try:
                    r = await client.get(url)
                    if r.status_code != 200:
                        errors += 1
                except httpx.HTTPError:
                    errors += 1
                latencies.append((time.perf_counter() - t0) * 1000)

        await asyncio.gather(*(worker() for _ in range(concurrency)))
    return len(latencies), latencies, errors


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[int(p) - 1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--concurrency", type=int, default=16)
    a = ap.parse_args()
    server = start_app(Path(tempfile.mkdtemp(prefix="hotmeals-bench-")))
    try:
        routes = {"/api/v1/health": "health (DB)", "/ping": "no-op /ping"}
        for path in routes:  # warm up
            httpx.get(server.base_url + path, timeout=10)
        print(f"server {server.base_url}, {a.concurrency} concurrent clients, {a.seconds}s each")
        for path, label in routes.items():
            n, lat, errors = asyncio.run(hammer(server.base_url + path, a.seconds, a.concurrency))
            print(
                f"{label:<14} {n / a.seconds:9.1f} req/s   p50 {pct(lat, 50):7.2f} ms   "
                f"p99 {pct(lat, 99):7.2f} ms   errors {errors}"
            )
    finally:
        server.stop()


if __name__ == "__main__":
    main()
