from datetime import UTC, date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from hotmeals.domain.cutoff import (
    TORONTO,
    CutoffRule,
    cutoff_at,
    cutoff_day,
    ensure_open,
    is_open,
)
from hotmeals.domain.errors import DomainError

DAY_BEFORE_10AM = CutoffRule(days_before=1, at=time(10, 0))
VANCOUVER = ZoneInfo("America/Vancouver")
PARIS = ZoneInfo("Europe/Paris")


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_cutoff_in_winter_is_eastern_standard_time():
    assert cutoff_at(DAY_BEFORE_10AM, date(2026, 1, 15)) == utc(2026, 1, 14, 15, 0)


def test_cutoff_in_summer_is_eastern_daylight_time():
    assert cutoff_at(DAY_BEFORE_10AM, date(2026, 7, 15)) == utc(2026, 7, 14, 14, 0)


def test_cutoff_is_aware_utc():
    result = cutoff_at(DAY_BEFORE_10AM, date(2026, 1, 15))
    assert result.tzinfo is UTC
    assert result.astimezone(TORONTO).time() == time(10, 0)


def test_same_day_rule_closes_on_the_meal_day():
    rule = CutoffRule(days_before=0, at=time(8, 30))
    assert cutoff_at(rule, date(2026, 2, 2)) == utc(2026, 2, 2, 13, 30)


def test_order_one_second_before_cutoff_is_open():
    assert is_open(DAY_BEFORE_10AM, date(2026, 1, 15), utc(2026, 1, 14, 14, 59, 59))


def test_order_one_microsecond_before_cutoff_is_open():
    now = utc(2026, 1, 14, 15, 0) - timedelta(microseconds=1)
    assert is_open(DAY_BEFORE_10AM, date(2026, 1, 15), now)


def test_order_at_the_exact_cutoff_minute_is_closed():
    assert not is_open(DAY_BEFORE_10AM, date(2026, 1, 15), utc(2026, 1, 14, 15, 0))


def test_order_after_cutoff_is_closed():
    assert not is_open(DAY_BEFORE_10AM, date(2026, 1, 15), utc(2026, 1, 14, 15, 0, 1))
    assert not is_open(DAY_BEFORE_10AM, date(2026, 1, 15), utc(2026, 1, 16))


def test_now_in_another_time_zone_is_compared_as_an_instant():
    meal = date(2026, 1, 15)
    # 10:00 in Toronto is 07:00 in Vancouver and 16:00 in Paris.
    assert is_open(DAY_BEFORE_10AM, meal, datetime(2026, 1, 14, 6, 59, 59, tzinfo=VANCOUVER))
    assert not is_open(DAY_BEFORE_10AM, meal, datetime(2026, 1, 14, 7, 0, tzinfo=VANCOUVER))
    assert is_open(DAY_BEFORE_10AM, meal, datetime(2026, 1, 14, 15, 59, tzinfo=PARIS))
    assert not is_open(DAY_BEFORE_10AM, meal, datetime(2026, 1, 14, 16, 0, tzinfo=PARIS))
    fixed = timezone(timedelta(hours=5, minutes=30))
    assert not is_open(DAY_BEFORE_10AM, meal, datetime(2026, 1, 14, 20, 30, tzinfo=fixed))


def test_naive_now_is_refused():
    with pytest.raises(ValueError):
        is_open(DAY_BEFORE_10AM, date(2026, 1, 15), datetime(2026, 1, 14, 9, 0))


# DST starts in Toronto on Sunday 8 March 2026 at 02:00 (EST -> EDT).


def test_cutoff_on_dst_start_day_uses_daylight_time():
    assert cutoff_at(DAY_BEFORE_10AM, date(2026, 3, 9)) == utc(2026, 3, 8, 14, 0)


def test_cutoff_the_day_before_dst_start_uses_standard_time():
    assert cutoff_at(DAY_BEFORE_10AM, date(2026, 3, 8)) == utc(2026, 3, 7, 15, 0)


def test_cutoff_counts_calendar_days_not_24_hour_periods_across_dst_start():
    rule = CutoffRule(days_before=3, at=time(10, 0))
    closes = cutoff_at(rule, date(2026, 3, 10)).astimezone(TORONTO)
    assert closes.replace(tzinfo=None) == datetime(2026, 3, 7, 10, 0)


def test_exact_cutoff_on_dst_start_day_is_closed_and_a_second_before_open():
    meal = date(2026, 3, 9)
    assert is_open(DAY_BEFORE_10AM, meal, utc(2026, 3, 8, 13, 59, 59))
    assert not is_open(DAY_BEFORE_10AM, meal, utc(2026, 3, 8, 14, 0))
    # 09:59:59 EST would be 14:59:59 UTC: an hour too late if the jump were ignored.
    assert not is_open(DAY_BEFORE_10AM, meal, utc(2026, 3, 8, 14, 59, 59))


def test_cutoff_in_the_skipped_hour_is_read_with_the_offset_before_the_jump():
    rule = CutoffRule(days_before=0, at=time(2, 30))
    # 02:30 does not exist on 8 March 2026; read as EST it is 07:30 UTC = 03:30 EDT.
    assert cutoff_at(rule, date(2026, 3, 8)) == utc(2026, 3, 8, 7, 30)


# DST ends in Toronto on Sunday 1 November 2026 at 02:00 (EDT -> EST).


def test_cutoff_on_dst_end_day_uses_standard_time():
    assert cutoff_at(DAY_BEFORE_10AM, date(2026, 11, 2)) == utc(2026, 11, 1, 15, 0)


def test_cutoff_the_day_before_dst_end_uses_daylight_time():
    assert cutoff_at(DAY_BEFORE_10AM, date(2026, 11, 1)) == utc(2026, 10, 31, 14, 0)


def test_exact_cutoff_on_dst_end_day_is_closed_and_a_second_before_open():
    meal = date(2026, 11, 2)
    assert is_open(DAY_BEFORE_10AM, meal, utc(2026, 11, 1, 14, 59, 59))
    assert not is_open(DAY_BEFORE_10AM, meal, utc(2026, 11, 1, 15, 0))


def test_cutoff_in_the_repeated_hour_is_its_first_occurrence():
    rule = CutoffRule(days_before=0, at=time(1, 30))
    # 01:30 happens twice on 1 November 2026; the first (EDT) is 05:30 UTC.
    assert cutoff_at(rule, date(2026, 11, 1)) == utc(2026, 11, 1, 5, 30)


# School days


@pytest.mark.parametrize(
    ("days_before", "meal", "expected"),
    [
        (0, date(2026, 3, 9), date(2026, 3, 9)),  # Monday, same day
        (1, date(2026, 3, 9), date(2026, 3, 6)),  # Monday -> Friday
        (2, date(2026, 3, 9), date(2026, 3, 5)),  # Monday -> Thursday
        (1, date(2026, 3, 11), date(2026, 3, 10)),  # Wednesday -> Tuesday
        (5, date(2026, 3, 11), date(2026, 3, 4)),  # a whole school week
        (6, date(2026, 3, 11), date(2026, 3, 3)),
        (1, date(2026, 3, 8), date(2026, 3, 6)),  # Sunday -> Friday
        (1, date(2026, 3, 7), date(2026, 3, 6)),  # Saturday -> Friday
        (0, date(2026, 3, 7), date(2026, 3, 7)),  # a weekend meal day, same day
    ],
)
def test_skip_weekends_counts_school_days(days_before, meal, expected):
    rule = CutoffRule(days_before=days_before, at=time(10, 0), skip_weekends=True)
    assert cutoff_day(rule, meal) == expected


@pytest.mark.parametrize(
    ("days_before", "meal", "expected"),
    [
        (0, date(2026, 3, 9), date(2026, 3, 9)),
        (1, date(2026, 3, 9), date(2026, 3, 8)),
        (3, date(2026, 3, 9), date(2026, 3, 6)),
        (1, date(2026, 1, 1), date(2025, 12, 31)),
        (1, date(2028, 3, 1), date(2028, 2, 29)),
    ],
)
def test_calendar_days_include_weekends(days_before, meal, expected):
    assert cutoff_day(CutoffRule(days_before, time(10, 0)), meal) == expected


def test_monday_meal_with_school_day_rule_closes_friday_across_dst_start():
    rule = CutoffRule(days_before=1, at=time(10, 0), skip_weekends=True)
    # Friday 6 March is still EST.
    assert cutoff_at(rule, date(2026, 3, 9)) == utc(2026, 3, 6, 15, 0)


def test_ensure_open_passes_before_the_cutoff():
    ensure_open(DAY_BEFORE_10AM, date(2026, 1, 15), utc(2026, 1, 14, 14, 59))


def test_ensure_open_after_cutoff_raises_meal_day_closed():
    with pytest.raises(DomainError) as info:
        ensure_open(DAY_BEFORE_10AM, date(2026, 1, 15), utc(2026, 1, 14, 15, 0))
    assert info.value.code == "meal_day_closed"
    assert info.value.field == "meal_date"
    assert info.value.params == {"date": "2026-01-15"}
    assert "2026-01-15" in info.value.message("en")
    assert "2026-01-15" in info.value.message("fr")


def test_past_meal_day_is_closed():
    assert not is_open(DAY_BEFORE_10AM, date(2025, 6, 1), utc(2026, 1, 1))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"days_before": -1, "at": time(10)},
        {"days_before": 1.0, "at": time(10)},
        {"days_before": True, "at": time(10)},
        {"days_before": 1, "at": time(10, tzinfo=UTC)},
        {"days_before": 1, "at": "10:00"},
    ],
)
def test_cutoff_rule_refuses_nonsense(kwargs):
    with pytest.raises(ValueError):
        CutoffRule(**kwargs)
