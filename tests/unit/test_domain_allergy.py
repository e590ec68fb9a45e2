import pytest

from hotmeals.domain.allergy import (
    PRIORITY_ALLERGENS,
    AlertLevel,
    PriorityAllergen,
    parse_alert_level,
)
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import EN, FR


def test_alert_level_values_are_the_stored_strings():
    assert [level.value for level in AlertLevel] == [
        "Major",
        "Medium",
        "Low",
        "High",
        "Non-allergic",
    ]


@pytest.mark.parametrize("level", list(AlertLevel))
def test_every_alert_level_has_labels_in_both_languages(level):
    assert level.label_key in EN and level.label_key in FR
    assert level.label("en") == EN[level.label_key]
    assert level.label("fr") == FR[level.label_key]


def test_alert_level_labels():
    assert AlertLevel.NON_ALLERGIC.label() == "Non-allergic"
    assert AlertLevel.NON_ALLERGIC.label("fr") == "Non allergique"
    assert AlertLevel.HIGH.label("fr") == "Élevé"


@pytest.mark.parametrize("value", ["Major", "Non-allergic", AlertLevel.LOW])
def test_parse_alert_level_accepts_stored_values(value):
    assert parse_alert_level(value) == value


@pytest.mark.parametrize("value", ["major", "MAJOR", "Non allergic", "", None, 1])
def test_parse_alert_level_rejects_anything_else(value):
    with pytest.raises(DomainError) as info:
        parse_alert_level(value)
    assert (info.value.code, info.value.field) == ("invalid_alert_level", "alert_level")


def test_priority_allergens_are_canadas_eleven():
    assert {a.value for a in PRIORITY_ALLERGENS} == {
        "peanuts",
        "tree_nuts",
        "milk",
        "eggs",
        "fish",
        "crustaceans_and_shellfish",
        "sesame",
        "soy",
        "wheat_and_triticale",
        "mustard",
        "sulphites",
    }
    assert len(PRIORITY_ALLERGENS) == 11


@pytest.mark.parametrize("allergen", list(PriorityAllergen))
def test_every_priority_allergen_has_labels_in_both_languages(allergen):
    assert allergen.label("en") == EN[allergen.label_key]
    assert allergen.label("fr") == FR[allergen.label_key]


def test_allergen_labels():
    assert PriorityAllergen.CRUSTACEANS_AND_SHELLFISH.label() == "Crustaceans and shellfish"
    assert PriorityAllergen.PEANUTS.label("fr") == "Arachides"
