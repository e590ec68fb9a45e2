"""The standing orders' calendar arithmetic (services/standing.py) and Book meal's reading of a
reminder link's ``?date=`` (ui/screens/book_meal/state.py ``linked_date``)."""

from __future__ import annotations

from datetime import date

import pytest

from hotmeals.services.standing import last_weekday, next_weekday, term_end, year_end
from hotmeals.ui.shared_state.menu_views import linked_date


@pytest.mark.parametrize(
    ("today", "term", "year"),
    [
        (date(2026, 9, 8), date(2027, 1, 31), date(2027, 6, 30)),
        (date(2026, 12, 20), date(2027, 1, 31), date(2027, 6, 30)),
        (date(2027, 1, 15), date(2027, 1, 31), date(2027, 6, 30)),
        (date(2027, 2, 1), date(2027, 6, 30), date(2027, 6, 30)),
        (date(2027, 6, 30), date(2027, 6, 30), date(2027, 6, 30)),
        # in the summer the next term and year: never a day gone by
        (date(2027, 7, 5), date(2028, 1, 31), date(2028, 6, 30)),
        (date(2027, 7, 31), date(2028, 1, 31), date(2028, 6, 30)),
        (date(2027, 8, 1), date(2028, 1, 31), date(2028, 6, 30)),
    ],
)
def test_end_of_term_and_of_school_year(today: date, term: date, year: date) -> None:
    assert term_end(today) == term and year_end(today) == year


def test_a_standing_order_ends_on_its_own_weekday() -> None:
    sunday = date(2027, 1, 31)
    assert last_weekday(sunday, 0) == date(2027, 1, 25)  # Monday
    assert last_weekday(date(2027, 1, 25), 0) == date(2027, 1, 25)
    assert next_weekday(date(2026, 11, 26), 0) == date(2026, 11, 30)
    assert next_weekday(date(2026, 11, 30), 0) == date(2026, 11, 30)


@pytest.mark.parametrize(
    ("raw", "found"),
    [
        ("2026-03-11", "2026-03-11"),
        ("2026-3-11", ""),
        ("2026-02-30", ""),
        ("", ""),
        (None, ""),
        ("<script>", ""),
        ("2026-03-11T00:00", "2026-03-11"),
    ],
)
def test_a_links_date(raw: object, found: str) -> None:
    assert linked_date(raw) == found
