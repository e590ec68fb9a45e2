"""Lighthouse (mobile, simulated mid-range phone) performance of the screens a parent opens first,
on a prod server started here. Prints one line per page: score, FCP, LCP, TBT, CLS, bytes.

    make bench-lighthouse        # or: .venv/bin/python bench/lighthouse_bench.py / /sign-in

Needs `npm ci` in bench/ (the Makefile target does it) and Debian's Chromium.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.server import start_app  # noqa: E402

LIGHTHOUSE = ROOT / "bench" / "node_modules" / ".bin" / "lighthouse"
FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-background-networking"


def audit(url: str) -> dict:
    out = Path(tempfile.mkdtemp()) / "report.json"
    env = {**os.environ, "CHROME_PATH": "/usr/bin/chromium"}
    subprocess.run(
        [
            str(LIGHTHOUSE),
            url,
            "--only-categories=performance",
            f"--chrome-flags={FLAGS}",
            "--output=json",
            f"--output-path={out}",
            "--quiet",
        ],
        check=True,
        env=env,
        timeout=300,
    )
    report = json.loads(out.read_text())
    audits = report["audits"]
    return {
        "score": round(report["categories"]["performance"]["score"] * 100),
        "fcp": audits["first-contentful-paint"]["displayValue"],
        "lcp": audits["largest-contentful-paint"]["displayValue"],
        "tbt": audits["total-blocking-time"]["displayValue"],
        "cls": audits["cumulative-layout-shift"]["displayValue"],
        "bytes": audits["total-byte-weight"]["numericValue"] / 1024,
    }


def main() -> None:
    paths = sys.argv[1:] or ["/", "/sign-in", "/sign-up"]
    workdir = os.environ.get("REFLEX_WEB_WORKDIR") or str(ROOT / ".web-bench")
    server = start_app(
        Path(tempfile.mkdtemp(prefix="hotmeals-lh-")), {"REFLEX_WEB_WORKDIR": workdir}
    )
    try:
        for path in paths:
            r = audit(server.url(path))
            print(
                f"{path:<12} performance {r['score']:>3}   FCP {r['fcp']:>6}   LCP {r['lcp']:>6}"
                f"   TBT {r['tbt']:>7}   CLS {r['cls']:>5}   {r['bytes']:.0f} KiB"
            )
    finally:
        server.stop()


if __name__ == "__main__":
    main()
