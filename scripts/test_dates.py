"""`make test-dates`: the whole suite (`scripts/run_tests.py`, e2e included) once for each date
that has broken, or would break, a test that hoped today's date lands on a menu.

    make test-dates                                    # every date below, one after the other
    make test-dates DATES="winter-break june-30"       # some of them, by name
    make test-dates PYTEST_ARGS="tests/unit"           # a part of the suite on every date

Each run sets the one clock (``hotmeals/clock.py``) with ``HOTMEALS_NOW`` for the tests, the
demo data they seed and every server they start; ``HOTMEALS_NOW_SINCE`` is fixed at the run's
start, so every process of it shows the same time, which runs on at the real pace (a run that
starts at 01:50 on a daylight-saving day crosses the switch). The last lines name each date's
outcome; the exit status is non-zero when one failed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# name -> the instant the clock starts at (Toronto, with its offset that day)
DATES: dict[str, str] = {
    "monday-morning": "2026-12-07T07:00-05:00",
    "friday-after-cutoff": "2026-12-04T17:30-05:00",
    "last-day-before-winter-break": "2026-12-18T08:00-05:00",
    "winter-break": "2026-12-28T09:00-05:00",
    "june-30": "2027-06-30T09:00-04:00",
    "august-31": "2027-08-31T12:00-04:00",
    "first-monday-of-september": "2027-09-06T07:00-04:00",
    "spring-forward": "2027-03-14T01:50-05:00",  # 02:00 EST becomes 03:00 EDT ten minutes in
    "fall-back": "2027-11-07T01:50-04:00",  # 02:00 EDT becomes 01:00 EST ten minutes in
}


def main(argv: list[str]) -> int:
    names = [a for a in argv if a in DATES]
    unknown = [a for a in argv if not a.startswith("-") and a not in DATES and "/" not in a]
    if unknown:
        print(f"unknown date {', '.join(unknown)}; the dates: {', '.join(DATES)}", file=sys.stderr)
        return 2
    pytest_args = [a for a in argv if a not in DATES]
    outcomes: list[tuple[str, int, float]] = []
    for name in names or list(DATES):
        env = dict(os.environ, HOTMEALS_NOW=DATES[name], HOTMEALS_NOW_SINCE=repr(time.time()))
        print(f"=== {name}: the clock starts at {DATES[name]} ===", flush=True)
        started = time.monotonic()
        code = subprocess.call(
            [sys.executable, "scripts/run_tests.py", *pytest_args], cwd=ROOT, env=env
        )
        outcomes.append((name, code, (time.monotonic() - started) / 60))
    print("=== test-dates ===")
    for name, code, minutes in outcomes:
        print(f"{name:<30} {DATES[name]}  {'passed' if code == 0 else 'FAILED'}  {minutes:.1f} min")
    return 0 if all(code == 0 for _, code, _ in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
