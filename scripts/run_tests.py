"""`make test`: the non-browser tests (tests/unit, tests/integration, tests/api, tests/bench) on
two pytest-xdist workers (one per core; a module stays on one worker, so its module-scoped
databases are made once), then the browser tests (tests/e2e, the stand-in Lightbox's included)
on two xdist workers too: the frontend is built once first (tests/e2e/server.py prebuild, passed
on as E2E_PREBUILT), then each worker serves that build from its own app server, database and
Chromium; a module stays on one worker (--dist loadfile), so a module's fixtures are made once.
The e2e modules marked ``servers`` (they start clusters of their own) run last, one at a time.

Arguments are pytest's (PYTEST_ARGS). When one of them names a test path
(``make test PYTEST_ARGS="tests/unit/test_domain_money.py -k french"``), a single pytest runs
it. ``TEST_WORKERS`` sets the number of xdist workers (default 2; 0 or 1: no xdist).

The last line is both parts' counts ("N passed, N failed, N skipped"); the exit status is
non-zero when either part fails.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTEST = [sys.executable, "-m", "pytest"]
NO_TESTS = 5  # pytest's exit status when nothing was selected
SLOWEST = ["--durations=15"]  # each part names its slowest tests: where the 15 minutes go
COUNTS = re.compile(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed)")


def _names_a_path(arg: str) -> bool:
    return not arg.startswith("-") and (ROOT / arg.split("::", 1)[0]).exists()


def _run(command: list[str], totals: dict[str, int], env: dict[str, str] | None = None) -> int:
    """Run pytest, echo its output, and add the counts of its closing line to ``totals``."""
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        bufsize=1,
        text=True,
    )
    last_summary = ""
    assert process.stdout is not None
    for line in process.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        if re.search(r"\d+ (passed|failed|error)", line) and " in " in line:
            last_summary = line
    code = process.wait()
    for number, kind in COUNTS.findall(last_summary):
        key = "error" if kind.startswith("error") else kind
        totals[key] = totals.get(key, 0) + int(number)
    return code


def main(args: list[str]) -> int:
    if any(_names_a_path(arg) for arg in args):
        return subprocess.call([*PYTEST, *args], cwd=ROOT)
    workers = int(os.environ.get("TEST_WORKERS", "2") or 0)
    xdist = ["-n", str(workers), "--dist", "loadfile"] if workers > 1 else []
    totals: dict[str, int] = {}
    started = time.monotonic()
    load_start = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"== 1/2 non-browser tests ({workers if xdist else 1} processes) ==", flush=True)
    unit = _run([*PYTEST, *xdist, "--ignore=tests/e2e", *SLOWEST, *args], totals)
    unit_minutes = (time.monotonic() - started) / 60
    print("== 2/2 browser tests (tests/e2e) ==", flush=True)
    env = dict(os.environ)
    if xdist:
        built = subprocess.run(
            [sys.executable, "-m", "tests.e2e.server"], cwd=ROOT, capture_output=True, text=True
        )
        if built.returncode != 0:
            sys.stdout.write(built.stdout + built.stderr)
            print("the frontend build for the browser tests failed", flush=True)
            return built.returncode
        env["E2E_PREBUILT"] = built.stdout.strip().splitlines()[-1]
        print(f"frontend built once: {env['E2E_PREBUILT']}", flush=True)
    # The browser tests on the xdist workers; the modules that start servers of their own (a
    # two-worker cluster killed mid-rush, restarts, a drain) after them, one at a time: run
    # beside browser tests they starve them of the two cores.
    e2e = _run([*PYTEST, *xdist, "-m", "not servers", "tests/e2e", *SLOWEST, *args], totals, env)
    servers = _run([*PYTEST, "-m", "servers", "tests/e2e", *SLOWEST, *args], totals, env)
    total_minutes = (time.monotonic() - started) / 60
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"== non-browser {unit_minutes:.1f} min, browser {total_minutes - unit_minutes:.1f} min,"
        f" {total_minutes:.1f} min in all; load average (1, 5, 15 min) at the end: {load}"
        f" on {os.cpu_count()} cores; at the start: {load_start} ==",
        flush=True,
    )
    failed = {unit, e2e, servers} - {0, NO_TESTS}
    passed, failures = totals.get("passed", 0), totals.get("failed", 0) + totals.get("error", 0)
    line = f"{passed} passed, {failures} failed"
    if totals.get("skipped"):
        line += f", {totals['skipped']} skipped"
    print(line, flush=True)
    if failed:
        return max(failed)
    return NO_TESTS if unit == e2e == servers == NO_TESTS else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
