"""`make test`: the browser tests (tests/e2e) and the rest of the suite in two pytest processes
at once, so the CPU-bound unit/API/payments tests run while the browser tests wait on Chromium
and the app server.

The browser tests start first and write to test-results/e2e.log; the other tests stream to the
terminal (at a lower CPU priority: the browser tests are the longer part). When they are done,
the browser tests' log is printed from its start and followed until they end. The exit status is
non-zero when either part fails.

Separate processes, not one: Playwright's sync API keeps an event loop running in the main
thread while its browser is up (see tests/conftest.py), and each part keeps its own temporary
directories; the databases the fixtures create have random names.

Arguments are pytest's (PYTEST_ARGS), given to both parts. When one of them names a test path
(``make test PYTEST_ARGS="tests/unit/test_domain_money.py -k french"``), a single pytest runs
it, as before.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTEST = [sys.executable, "-m", "pytest"]
LOG = ROOT / "test-results" / "e2e.log"
NO_TESTS = 5  # pytest's exit status when nothing was selected


def _names_a_path(arg: str) -> bool:
    return not arg.startswith("-") and (ROOT / arg.split("::", 1)[0]).exists()


def _banner(text: str) -> None:
    print(f"\n{'=' * 12} {text} {'=' * 12}", flush=True)


def _follow(path: Path, process: subprocess.Popen) -> None:
    """Copy ``path`` to stdout from its start, then as it grows, until ``process`` ends."""
    with open(path, "rb") as log:
        while True:
            done = process.poll() is not None  # read once more after the end
            chunk = log.read(65536)
            if chunk:
                sys.stdout.buffer.write(chunk)
                sys.stdout.buffer.flush()
            elif done:
                return
            else:
                time.sleep(0.5)


def main(args: list[str]) -> int:
    if any(_names_a_path(arg) for arg in args):
        return subprocess.call([*PYTEST, *args], cwd=ROOT)

    LOG.parent.mkdir(exist_ok=True)
    # Unbuffered, so the log can be followed as it is written; coloured like the terminal's.
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    colour = ["--color=yes"] if sys.stdout.isatty() else []
    started = time.monotonic()
    with open(LOG, "wb") as log:
        e2e = subprocess.Popen(
            [*PYTEST, *colour, "tests/e2e", *args],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    _banner(f"1/2 non-browser tests (the browser tests run meanwhile: {LOG.relative_to(ROOT)})")
    unit = subprocess.Popen(["nice", "-n", "10", *PYTEST, "--ignore=tests/e2e", *args], cwd=ROOT)
    try:
        unit_code = unit.wait()
        unit_time = time.monotonic() - started
        _banner("2/2 browser tests (tests/e2e), started with the above")
        _follow(LOG, e2e)
        e2e_code = e2e.wait()
    except KeyboardInterrupt:  # Ctrl-C reached both pytest processes too: let them clean up
        unit.wait()
        e2e.wait()
        raise
    total = time.monotonic() - started

    def verdict(code: int) -> str:
        if code in (0, NO_TESTS):
            return "passed" if code == 0 else "selected none"
        return f"FAILED (pytest exit {code})"

    _banner(
        f"non-browser tests {verdict(unit_code)} in {unit_time / 60:.1f} min; "
        f"browser tests {verdict(e2e_code)}; {total / 60:.1f} min in all"
    )
    failed = {unit_code, e2e_code} - {0, NO_TESTS}
    if failed:
        return max(failed)
    # A -k or -m may select tests in one part only; selecting none at all is pytest's 5.
    return NO_TESTS if unit_code == e2e_code == NO_TESTS else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
