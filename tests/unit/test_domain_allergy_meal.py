"""The allergy rule for a meal and a child (domain/allergy.py): Major refuses, High
and Medium need an acknowledgement, Low is a notice; the most severe level wins."""

from __future__ import annotations

import pytest

from hotmeals.domain.allergy import MealVerdict, ensure_can_add, meal_verdict
from hotmeals.domain.errors import DomainError


@pytest.mark.parametrize(
    ("levels", "verdict"),
    [
        ([], MealVerdict.SAFE),
        (["Non-allergic"], MealVerdict.SAFE),
        (["Low"], MealVerdict.NOTICE),
        (["Medium"], MealVerdict.ACKNOWLEDGE),
        (["High", "Low"], MealVerdict.ACKNOWLEDGE),
        (["Low", "Major", "Medium"], MealVerdict.REFUSED),
        (["something unknown"], MealVerdict.REFUSED),
    ],
)
def test_the_most_severe_level_decides(levels, verdict):
    assert meal_verdict(levels) is verdict


def test_a_major_allergen_is_refused_whatever_the_acknowledgement():
    with pytest.raises(DomainError) as err:
        ensure_can_add([("Peanuts", "Major"), ("Milk", "Medium")], acknowledged=True)
    assert err.value.code == "allergy_refused"
    assert err.value.params == {"allergens": "Peanuts"}
    assert "Peanuts" in err.value.message("en") and "Arachides" not in err.value.message("en")


@pytest.mark.parametrize("level", ["High", "Medium"])
def test_high_and_medium_need_the_acknowledgement(level):
    with pytest.raises(DomainError) as err:
        ensure_can_add([("Milk", level), ("Sesame", "Low")], acknowledged=False)
    assert err.value.code == "allergy_ack_required"
    assert err.value.params == {"allergens": "Milk"}
    assert ensure_can_add([("Milk", level)], acknowledged=True) is MealVerdict.ACKNOWLEDGE


def test_low_and_none_pass():
    assert ensure_can_add([("Sesame", "Low")], acknowledged=False) is MealVerdict.NOTICE
    assert ensure_can_add([], acknowledged=False) is MealVerdict.SAFE
