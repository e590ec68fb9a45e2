from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hotmeals.domain.dates import format_mdy, iso_to_mdy, mdy_to_iso, parse_iso, parse_mdy
from hotmeals.domain.errors import DomainError


@pytest.mark.parametrize(
    ("mdy", "iso"),
    [
        ("3/7/2026", "2026-03-07"),
        ("03/07/2026", "2026-03-07"),
        ("3/07/2026", "2026-03-07"),
        ("12/31/2026", "2026-12-31"),
        ("1/1/2026", "2026-01-01"),
        ("2/29/2028", "2028-02-29"),
        ("2/29/2000", "2000-02-29"),
    ],
)
def test_mdy_to_iso_converts_with_or_without_zero_padding(mdy, iso):
    assert mdy_to_iso(mdy) == iso


@pytest.mark.parametrize(
    "text",
    [
        "2/30/2026",
        "2/29/2026",
        "2/29/1900",
        "13/1/2026",
        "0/1/2026",
        "1/0/2026",
        "4/31/2026",
        "1/1/0000",
        "",
        "3-7-2026",
        "2026-03-07",
        "3/7/26",
        "3/7/20266",
        "003/7/2026",
        " 3/7/2026",
        "3/7/2026 ",
        "3/7/2026\n",
        "a/b/cdef",
        "３/７/２０２６",
    ],
)
def test_mdy_to_iso_rejects_invalid_dates(text):
    with pytest.raises(DomainError) as info:
        mdy_to_iso(text)
    assert info.value.code == "invalid_date"
    assert info.value.field == "date"


@pytest.mark.parametrize("bad", [None, 3, date(2026, 3, 7)])
def test_mdy_to_iso_rejects_non_strings(bad):
    with pytest.raises(DomainError):
        mdy_to_iso(bad)


@pytest.mark.parametrize(
    ("iso", "mdy"),
    [("2026-03-07", "3/7/2026"), ("2026-12-31", "12/31/2026"), ("2028-02-29", "2/29/2028")],
)
def test_iso_to_mdy_drops_zero_padding(iso, mdy):
    assert iso_to_mdy(iso) == mdy


@pytest.mark.parametrize(
    "text", ["2026-02-30", "20260307", "2026-3-7", "2026-03-07T00:00", "3/7/2026", "", None]
)
def test_iso_to_mdy_rejects_anything_but_existing_yyyy_mm_dd(text):
    with pytest.raises(DomainError) as info:
        iso_to_mdy(text)
    assert info.value.code == "invalid_date"


def test_parse_and_format_helpers():
    assert parse_mdy("3/7/2026") == date(2026, 3, 7)
    assert parse_iso("2026-03-07") == date(2026, 3, 7)
    assert format_mdy(date(2026, 3, 7)) == "3/7/2026"
    assert format_mdy(date(5, 1, 2)) == "1/2/0005"


@given(st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31)))
def test_iso_and_mdy_round_trip(value):
    assert mdy_to_iso(iso_to_mdy(value.isoformat())) == value.isoformat()
