"""Dietary marks: the stored form, what a mark implies and the meal as composed."""

from hotmeals.domain.diet import Diet, composed, fits, implied, parse, to_text, unknown_codes, unmet


def test_the_stored_form_lists_known_marks_in_one_order() -> None:
    assert parse("halal vegan nonsense") == {Diet.HALAL, Diet.VEGAN}
    assert parse(None) == frozenset()
    assert to_text([Diet.GLUTEN_FREE, "vegan", Diet.HALAL]) == "vegan halal gluten_free"
    assert unknown_codes(["vegan", "keto"]) == ["keto"]


def test_vegan_is_vegetarian_and_vegetarian_has_no_pork_or_beef() -> None:
    assert implied({Diet.VEGAN}) == {Diet.VEGAN, Diet.VEGETARIAN, Diet.NO_PORK, Diet.NO_BEEF}
    assert fits({Diet.NO_PORK}, {Diet.VEGETARIAN})
    assert not fits({Diet.VEGAN}, {Diet.VEGETARIAN})
    assert not fits({Diet.HALAL}, {Diet.VEGAN})  # halal is its own mark


def test_the_meal_as_composed_carries_only_what_every_part_carries() -> None:
    meal = {Diet.VEGETARIAN, Diet.GLUTEN_FREE}
    sauce = {Diet.VEGAN}
    assert composed(meal, sauce) == {Diet.VEGETARIAN, Diet.NO_PORK, Diet.NO_BEEF}
    assert composed() == frozenset()
    assert unmet({Diet.GLUTEN_FREE, Diet.HALAL}, composed(meal, sauce)) == (
        Diet.HALAL,
        Diet.GLUTEN_FREE,
    )
