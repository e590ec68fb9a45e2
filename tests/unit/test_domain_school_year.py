"""The school year's pure rules (domain/school_year.py): it rolls over on the start date in
Toronto, the setting's format, who needs confirming, the grade offered."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest

from hotmeals.domain.school_year import (
    TORONTO,
    needs_confirmation,
    next_grade_index,
    parse_start,
    school_year_at,
    school_year_of,
)


def local(day: date, hour: int = 0, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=TORONTO)


def test_rolls_over_on_the_first_of_august_in_toronto():
    assert school_year_at(local(date(2027, 7, 31), 23, 59)).year == 2026
    assert school_year_at(local(date(2027, 8, 1))).year == 2027
    # 03:59 UTC on 1 August is still 31 July in Toronto.
    assert school_year_at(datetime(2027, 8, 1, 3, 59, tzinfo=UTC)).year == 2026
    year = school_year_of(date(2027, 3, 1))
    assert (year.label, year.first_day, year.next_first_day) == (
        "2026-2027",
        date(2026, 8, 1),
        date(2027, 8, 1),
    )
    assert year.starts_at == datetime(2026, 8, 1, 4, 0, tzinfo=UTC)


def test_start_setting():
    assert parse_start(None) == (8, 1)
    assert parse_start("09-03") == (9, 3)
    assert school_year_of(date(2027, 9, 2), parse_start("09-03")).year == 2026
    assert school_year_of(date(2027, 9, 3), parse_start("09-03")).year == 2027
    for bad in ("8/1", "02-29", "13-01", "08-32", "aug-01"):
        with pytest.raises(ValueError):
            parse_start(bad)


def test_who_needs_confirming():
    year = school_year_of(date(2026, 9, 1))
    before = local(date(2026, 6, 1))
    during = local(date(2026, 8, 2))
    assert needs_confirmation(created_at=before, confirmed_year=None, current=year)
    assert needs_confirmation(created_at=before, confirmed_year=2025, current=year)
    assert not needs_confirmation(created_at=before, confirmed_year=2026, current=year)
    assert not needs_confirmation(created_at=during, confirmed_year=None, current=year)


def test_grade_offered_one_up_and_the_last_graduates():
    assert next_grade_index(0, 10) == (1, False)
    assert next_grade_index(8, 10) == (9, False)
    assert next_grade_index(9, 10) == (9, True)
