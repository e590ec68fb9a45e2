"""Each payment purpose's handler is registered by an explicit call at start
(``services/startup.register_payment_purposes``), never as a side effect of an import: a fresh
interpreter that imports every service has none, and each entry point registers them all."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

MISSING = (
    "from hotmeals.services.payments.purposes import missing_purposes as m\n"
    "print(sorted(str(p) for p in m()))"
)


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_importing_the_services_registers_no_purpose() -> None:
    code = (
        "import hotmeals.services.donations, hotmeals.services.ordering.payment_purposes\n"
        + MISSING
    )
    assert _run(code) == "['CARD_CHECK', 'DONATION', 'ORDER', 'ORDER_CHANGE']"


@pytest.mark.parametrize(
    "start",
    [
        "from hotmeals.api.app import create_api; create_api()",
        "from hotmeals import cli; cli.main(['--help'])",
        "from hotmeals import admin; admin.main(['--help'])",
        "from hotmeals.jobs.__main__ import main; main(['--help'])",
    ],
    ids=["api", "cli", "admin", "jobs"],
)
def test_each_entry_point_registers_every_purpose(start: str) -> None:
    code = f"try:\n    {start}\nexcept SystemExit:\n    pass\n{MISSING}"
    assert _run(code) == "[]"
