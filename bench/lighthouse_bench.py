"""Lighthouse (mobile, simulated mid-range phone) performance of the screens a parent opens first,
on a prod server started here. Prints one line per page: score, FCP, LCP, TBT, CLS, bytes, and
the accessibility and best-practices scores.

    make bench-lighthouse        # or: .venv/bin/python bench/lighthouse_bench.py / /sign-in

``--runs N`` audits each page N times and adds a line with the median of each figure (the
Total Blocking Time, and so the score, moves with whatever else the machine's cores are doing).

Needs `npm ci` in bench/ (the Makefile target does it) and Debian's Chromium.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.server import start_app  # noqa: E402

LIGHTHOUSE = ROOT / "bench" / "node_modules" / ".bin" / "lighthouse"
FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-background-networking"


def audit(url: str, tasks: bool = False) -> dict:
    out = Path(tempfile.mkdtemp()) / "report.json"
    env = {**os.environ, "CHROME_PATH": "/usr/bin/chromium"}
    for attempt in range(3):
        # Lighthouse now and then fails to record the trace (NO_NAVSTART): audit again.
        done = subprocess.run(
            [
                str(LIGHTHOUSE),
                url,
                "--only-categories=performance,accessibility,best-practices",
                f"--chrome-flags={FLAGS}",
                "--output=json",
                f"--output-path={out}",
                "--quiet",
            ],
            env=env,
            timeout=300,
        )
        if done.returncode == 0:
            break
        print(f"    (Lighthouse failed, attempt {attempt + 1} of 3)", flush=True)
    else:
        raise SystemExit(f"Lighthouse could not audit {url}")
    report = json.loads(out.read_text())
    audits = report["audits"]
    if tasks:
        print_tasks(audits)
    return {
        "score": round(report["categories"]["performance"]["score"] * 100),
        "a11y": round(report["categories"]["accessibility"]["score"] * 100),
        "bp": round(report["categories"]["best-practices"]["score"] * 100),
        "fcp": audits["first-contentful-paint"]["numericValue"] / 1000,
        "lcp": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "tbt": audits["total-blocking-time"]["numericValue"],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "bytes": audits["total-byte-weight"]["numericValue"] / 1024,
    }


def print_tasks(audits: dict) -> None:
    """Where the main thread went: the long tasks (simulated, ms) and each script's time."""
    for item in (audits.get("long-tasks", {}).get("details") or {}).get("items", []):
        print(
            f"    long task {item['duration']:>6.0f} ms at {item['startTime']:>6.0f}  {item['url']}"
        )
    for item in (audits.get("bootup-time", {}).get("details") or {}).get("items", []):
        print(
            f"    script {item['scripting']:>6.0f} ms (parse {item['scriptParseCompile']:>4.0f})"
            f"  {item['url']}"
        )


def line(label: str, r: dict) -> str:
    return (
        f"{label:<12} performance {r['score']:>3.0f}   FCP {r['fcp']:>4.1f} s"
        f"   LCP {r['lcp']:>4.1f} s   TBT {r['tbt']:>5.0f} ms"
        f"   CLS {r['cls']:>5.3f}   {r['bytes']:.0f} KiB"
        f"   accessibility {r['a11y']:>3.0f}   best practices {r['bp']:>3.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", default=["/", "/sign-in", "/sign-up"])
    parser.add_argument("--runs", type=int, default=1, help="audits per page (median line)")
    parser.add_argument("--tasks", action="store_true", help="print long tasks and script times")
    args = parser.parse_args()
    workdir = os.environ.get("REFLEX_WEB_WORKDIR") or str(ROOT / ".web-bench")
    server = start_app(
        Path(tempfile.mkdtemp(prefix="hotmeals-lh-")), {"REFLEX_WEB_WORKDIR": workdir}
    )
    try:
        for path in args.paths:
            runs = []
            for _ in range(max(1, args.runs)):
                runs.append(audit(server.url(path), args.tasks))
                print(line(path, runs[-1]), flush=True)
            if len(runs) > 1:
                median = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
                print(line(f"  median of {len(runs)}", median), flush=True)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
