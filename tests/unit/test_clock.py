"""The one clock (hotmeals/clock.py): its settings' forms, frozen and ticking, shared by the
processes of one run, read by the rules' neighbours (timestamp defaults, the demo's simulated
Converge), and refused in production."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from hotmeals import clock, mode
from hotmeals.converge.simulator_engine import SimulatorEngine
from hotmeals.db.models import utcnow
from hotmeals.settings import load_settings

ROOT = Path(__file__).resolve().parents[2]
FRIDAY_EVENING = datetime(2026, 12, 18, 22, 30, tzinfo=UTC)  # 17:30 in Toronto


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-12-18T17:30-05:00", FRIDAY_EVENING),
        ("2026-12-18T17:30", FRIDAY_EVENING),  # local Toronto time
        ("2026-12-18T22:30:00+00:00", FRIDAY_EVENING),
        ("2026-12-18", datetime(2026, 12, 18, 12, 0, tzinfo=UTC)),  # 07:00 in Toronto
        ("2027-07-02", datetime(2027, 7, 2, 11, 0, tzinfo=UTC)),  # 07:00 EDT
    ],
)
def test_the_settings_forms_are_read_in_toronto_time(text: str, expected: datetime) -> None:
    assert clock.parse_instant(text) == expected


@pytest.mark.parametrize("text", ["tomorrow", "2026-13-01", "18/12/2026", ""])
def test_a_setting_that_is_not_a_date_is_refused_by_name(text: str) -> None:
    with pytest.raises(clock.ClockSettingError, match="HOTMEALS_NOW"):
        clock.parse_instant(text)


def test_frozen_and_ticking_clocks_and_back_to_the_environment() -> None:
    suite_now = clock.now()
    clock.set_now(FRIDAY_EVENING)
    assert clock.now() == FRIDAY_EVENING and clock.is_set()
    assert clock.today() == date(2026, 12, 18)
    assert clock.today(datetime(2026, 12, 19, 4, 59, tzinfo=UTC)) == date(2026, 12, 18)
    assert utcnow() == FRIDAY_EVENING  # every timestamp column's default
    clock.set_now(FRIDAY_EVENING, ticking=True)
    first = clock.now()
    while clock.now() == first:  # a condition, not a sleep standing in for one
        time.sleep(0.001)
    assert FRIDAY_EVENING <= first < clock.now() < FRIDAY_EVENING + timedelta(minutes=1)
    clock.set_now(None)
    assert abs(clock.now() - suite_now) < timedelta(minutes=30)
    with pytest.raises(ValueError, match="aware"):
        clock.set_now(datetime(2026, 12, 18, 17, 30))


def test_the_demos_simulated_converge_lives_in_the_apps_time(tmp_path: Path) -> None:
    from hotmeals.converge.simulator_store import SimulatorStore

    store = SimulatorStore(f"sqlite:///{tmp_path / 'sim.db'}")
    try:
        engine = SimulatorEngine(store, None)
        clock.set_now(FRIDAY_EVENING)
        with engine.call() as call:
            assert call.now == FRIDAY_EVENING
    finally:
        store.dispose()


def _child_now(env: dict[str, str]) -> datetime:
    code = "from hotmeals import clock; print(clock.now().isoformat())"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return datetime.fromisoformat(out.stdout.strip())


def test_every_process_of_a_run_shows_the_same_time() -> None:
    """HOTMEALS_NOW with HOTMEALS_NOW_SINCE: a process started later runs on the same time (the
    test servers, backend workers and commands a run starts)."""
    since = time.time() - 3600  # the run started an hour ago
    env = dict(os.environ, HOTMEALS_NOW="2026-12-18T17:30", HOTMEALS_NOW_SINCE=repr(since))
    env.pop("HOTMEALS_MODE", None)
    shown = _child_now(env)
    assert FRIDAY_EVENING + timedelta(minutes=59) < shown < FRIDAY_EVENING + timedelta(minutes=70)
    alone = dict(env)
    alone.pop("HOTMEALS_NOW_SINCE")
    started = _child_now(alone)  # no run to follow: it starts at the setting itself
    assert FRIDAY_EVENING <= started < FRIDAY_EVENING + timedelta(minutes=5)


def test_production_refuses_a_set_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOTMEALS_NOW", "2026-12-18T17:30")
    monkeypatch.setenv("HOTMEALS_MODE", "production")
    with pytest.raises(clock.ClockSettingError, match="production reads the system clock"):
        clock.set_now(None)
    problems = mode.production_problems(load_settings(), {"HOTMEALS_NOW": "2026-12-18"})
    assert "HOTMEALS_NOW must not be set: production reads the system clock" in problems
    assert not any("HOTMEALS_NOW" in p for p in mode.production_problems(load_settings(), {}))
    monkeypatch.delenv("HOTMEALS_MODE")
