from decimal import Decimal

import pytest

from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import (
    NBSP,
    apply_bps,
    format_money,
    parse_decimal_string,
    round_half_up,
    to_decimal_string,
)


@pytest.mark.parametrize(
    ("cents", "expected"),
    [
        (0, "$0.00"),
        (1, "$0.01"),
        (99, "$0.99"),
        (500, "$5.00"),
        (725, "$7.25"),
        (100_000, "$1,000.00"),
        (123_456, "$1,234.56"),
        (123_456_789, "$1,234,567.89"),
        (-300, "\u2212$3.00"),
        (-5, "\u2212$0.05"),
        (-123_456, "\u2212$1,234.56"),
    ],
)
def test_format_money_in_english_puts_the_sign_before_the_dollar(cents, expected):
    assert format_money(cents) == expected
    assert format_money(cents, "en") == expected


@pytest.mark.parametrize(
    ("cents", "expected"),
    [
        (0, "0,00 $"),
        (500, "5,00 $"),
        (725, "7,25 $"),
        (99_999, "999,99 $"),
        (123_456, "1 234,56 $"),
        (123_456_789, "1 234 567,89 $"),
        (-300, "\u22123,00 $"),
    ],
)
def test_format_money_in_french_uses_comma_and_trailing_dollar(cents, expected):
    assert format_money(cents, "fr") == expected.replace(" ", NBSP)


def test_format_money_in_french_uses_only_no_break_spaces():
    text = format_money(123_456_789, "fr")
    assert " " not in text
    assert text.count("\u00a0") == 3


@pytest.mark.parametrize("lang", ["fr", "FR", "fr-CA", "fr_CA", " fr "])
def test_format_money_accepts_french_language_variants(lang):
    assert format_money(500, lang) == f"5,00{NBSP}$"


@pytest.mark.parametrize("lang", [None, "", "en", "en-CA", "de", "xx"])
def test_format_money_falls_back_to_english(lang):
    assert format_money(500, lang) == "$5.00"


@pytest.mark.parametrize("bad", [5.0, "500", None, True, Decimal("5")])
def test_format_money_refuses_anything_but_int_cents(bad):
    with pytest.raises(TypeError):
        format_money(bad)


@pytest.mark.parametrize(
    ("cents", "expected"),
    [(0, "0.00"), (1, "0.01"), (10, "0.10"), (500, "5.00"), (1250, "12.50"), (123456, "1234.56")],
)
def test_to_decimal_string_is_convergess_two_decimal_format(cents, expected):
    assert to_decimal_string(cents) == expected


def test_to_decimal_string_rejects_negative_amounts():
    with pytest.raises(ValueError):
        to_decimal_string(-1)


@pytest.mark.parametrize("bad", [12.5, "1250", True, None])
def test_to_decimal_string_refuses_non_int(bad):
    with pytest.raises(TypeError):
        to_decimal_string(bad)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0", 0),
        ("0.00", 0),
        ("12.50", 1250),
        ("12.5", 1250),
        ("12", 1200),
        ("0.01", 1),
        ("0.1", 10),
        ("007.25", 725),
        ("1234.56", 123456),
        ("9999999999.99", 999999999999),
    ],
)
def test_parse_decimal_string_reads_converge_amounts(text, expected):
    assert parse_decimal_string(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "12.505",
        "12.500",
        "0.001",
        "-1.00",
        "+1.00",
        "1,234.56",
        "1 234.56",
        "12,50",
        "12.",
        ".50",
        "1e3",
        "NaN",
        "inf",
        "12.50 ",
        " 12.50",
        "$12.50",
        "１２.５０",
        "١٢.٥٠",
        "12..5",
        "abc",
        "12345678901.00",
    ],
)
def test_parse_decimal_string_rejects_anything_not_strict(text):
    with pytest.raises(DomainError) as info:
        parse_decimal_string(text)
    assert info.value.code == "invalid_amount"


@pytest.mark.parametrize("bad", [12.5, 1250, None, b"12.50", Decimal("12.50")])
def test_parse_decimal_string_rejects_non_strings(bad):
    with pytest.raises(DomainError) as info:
        parse_decimal_string(bad)
    assert info.value.code == "invalid_amount"


@pytest.mark.parametrize(
    ("numerator", "denominator", "expected"),
    [
        (0, 3, 0),
        (4, 2, 2),
        (5, 2, 3),
        (-5, 2, -3),
        (7, 3, 2),
        (8, 3, 3),
        (-7, 3, -2),
        (-8, 3, -3),
        (1, 2, 1),
        (-1, 2, -1),
        (1, 3, 0),
        (4999, 10_000, 0),
        (5000, 10_000, 1),
        (15000, 10_000, 2),
        (25000, 10_000, 3),
    ],
)
def test_round_half_up_rounds_halves_away_from_zero(numerator, denominator, expected):
    assert round_half_up(numerator, denominator) == expected


@pytest.mark.parametrize("denominator", [0, -1])
def test_round_half_up_refuses_non_positive_denominator(denominator):
    with pytest.raises(ValueError):
        round_half_up(1, denominator)


@pytest.mark.parametrize(("numerator", "denominator"), [(1.5, 2), (1, 2.0), (True, 2)])
def test_round_half_up_refuses_floats_and_bools(numerator, denominator):
    with pytest.raises(TypeError):
        round_half_up(numerator, denominator)


@pytest.mark.parametrize(
    ("cents", "bps", "expected"),
    [
        (1000, 1300, 130),
        (50, 1300, 7),  # 6.5 -> 7: half a cent rounds up
        (150, 1300, 20),  # 19.5 -> 20
        (49, 1300, 6),  # 6.37 -> 6
        (1, 5000, 1),  # 0.5 -> 1
        (1, 4999, 0),
        (725, 0, 0),
        (725, 10_000, 725),
    ],
)
def test_apply_bps_rounds_half_cents_up(cents, bps, expected):
    assert apply_bps(cents, bps) == expected
