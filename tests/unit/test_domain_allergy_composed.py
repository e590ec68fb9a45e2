"""The allergy rule for a meal as composed (domain/allergy.py): the meal and each
chosen option and add-on, each with its own allergens; the worst part decides; a refused option
or add-on is named with its allergen; an acknowledgement names what it covers. And the
dialog's preview (allergens.composed_allergy) applies the same rule to MenuDetail's marks."""

from __future__ import annotations

import pytest

from hotmeals.domain.allergy import (
    Component,
    MealVerdict,
    ack_covers,
    ack_needed,
    compose,
    ensure_can_add_composed,
)
from hotmeals.domain.errors import DomainError
from hotmeals.services.ordering.allergens import AllergyMark, composed_allergy
from hotmeals.services.ordering.menu import AddOnView, MealDetail, OptionView

PASTA = Component("Pasta", (), is_meal=True)
MILK = Component("White milk (250 mL)", (("Milk", "Major"),), field="menu_option_id")
CHEESE = Component("Cheese string", (("Milk", "Medium"),), field="addons")
COOKIE = Component("Cookie", (("Eggs", "High"), ("Soy", "Low")), field="addons")


def test_a_major_allergen_of_an_option_refuses_the_meal_naming_the_option_and_allergen():
    with pytest.raises(DomainError) as err:
        ensure_can_add_composed([PASTA, MILK], acknowledged=True)
    assert err.value.code == "allergy_refused_extra"
    assert err.value.field == "menu_option_id"
    message = err.value.message("en")
    assert message.startswith("White milk (250 mL) contains Milk, a Major allergy")
    french = Component("Lait (250 ml)", (("Lait", "Major"),), field="menu_option_id")
    with pytest.raises(DomainError) as err:
        ensure_can_add_composed([PASTA, french], acknowledged=True, lang="fr")
    assert err.value.message("fr").startswith("Lait (250 ml) contient : Lait, une allergie majeure")


def test_an_add_on_with_a_major_allergen_is_refused_even_when_the_meal_is_safe():
    cheese = Component("Cheese string", (("Milk", "Major"),), field="addons")
    with pytest.raises(DomainError) as err:
        ensure_can_add_composed([PASTA, cheese], acknowledged=True)
    assert err.value.code == "allergy_refused_extra" and err.value.field == "addons"
    assert "Cheese string contains Milk" in err.value.message("en")


def test_the_meal_s_own_major_allergen_keeps_its_message():
    meal = Component("Satay", (("Peanuts", "Major"),), is_meal=True)
    with pytest.raises(DomainError) as err:
        ensure_can_add_composed([meal, MILK], acknowledged=True)
    assert err.value.code == "allergy_refused" and err.value.params == {"allergens": "Peanuts"}


def test_high_or_medium_anywhere_needs_the_acknowledgement_naming_the_allergen_and_item():
    meal = Component("Omelette", (("Eggs", "Medium"),), is_meal=True)
    with pytest.raises(DomainError) as err:
        ensure_can_add_composed([meal, CHEESE], acknowledged=False)
    assert err.value.code == "allergy_ack_required"
    assert err.value.params == {"allergens": "Eggs, Milk (Cheese string)"}
    done = ensure_can_add_composed([meal, CHEESE], acknowledged=True)
    assert done.verdict is MealVerdict.ACKNOWLEDGE


def test_the_worst_part_decides_and_low_is_a_notice():
    assert compose([PASTA]).verdict is MealVerdict.SAFE
    low = Component("Granola", (("Soy", "Low"),), field="addons")
    composed = ensure_can_add_composed([PASTA, low], acknowledged=False)
    assert composed.verdict is MealVerdict.NOTICE and composed.notice == ("Soy (Granola)",)
    both = compose([PASTA, COOKIE, MILK])
    assert both.verdict is MealVerdict.REFUSED
    assert both.acknowledge == ("Eggs (Cookie)",) and both.notice == ("Soy (Cookie)",)
    unknown = Component("Mystery", (("Kiwi", "???"),), field="addons")
    assert compose([PASTA, unknown]).verdict is MealVerdict.REFUSED
    safe = Component("Water", (("Milk", "Non-allergic"),), field="menu_option_id")
    assert compose([PASTA, safe]).verdict is MealVerdict.SAFE


def test_an_acknowledgement_covers_only_the_allergens_it_names():
    assert ack_needed([PASTA, CHEESE, COOKIE]) == ["Milk", "Eggs"]
    text = "I understand this meal contains Eggs (Cookie)"
    assert ack_covers(text, [("Eggs", "Œufs")])
    assert not ack_covers(text, [("Eggs", "Œufs"), ("Milk", "Lait")])
    assert ack_covers("Je comprends que ce repas contient : Lait", [("Milk", "Lait")])
    assert not ack_covers(None, [("Milk", "Lait")]) and ack_covers(None, [])


def _detail() -> MealDetail:
    """MenuDetail's meal for a child: only each part's name and levels count here."""

    def mark(levels):
        return AllergyMark(MealVerdict.SAFE, (), "", tuple((n, lv) for n, lv in levels))

    def option(id_, name, levels):
        return OptionView(id=id_, name=name, price_cents=0, allergens=(), allergy=mark(levels))

    def addon(id_, name, levels):
        return AddOnView(
            id=id_,
            vendor_id=1,
            name=name,
            price_cents=0,
            image="",
            allergens=(),
            allergy=mark(levels),
        )

    return MealDetail(
        meal_id=1,
        vendor_id=1,
        vendor="",
        name="Pasta",
        description="",
        image="",
        ingredients="",
        cooking_method="",
        nutrition=(),
        allergens=(),
        allergy=mark([["Eggs", "Low"]]),
        portions=(),
        menu_options=(
            option(1, "White milk (250 mL)", [["Milk", "Major"]]),
            option(2, "Water", []),
        ),
        meal_options=(option(3, "Gluten-free bun", []),),
        addons=(
            addon(7, "Cheese string", [["Milk", "High"]]),
            addon(8, "Apple", []),
        ),
    )


def test_the_dialog_preview_applies_the_same_rule_to_the_choices():
    detail = _detail()
    plain = composed_allergy(detail, menu_option_id=2, addon_ids=[8])
    assert plain.verdict.value == "notice" and plain.can_add and not plain.ack_required
    assert plain.message == "Contains Eggs (low alert level)"
    milk = composed_allergy(detail, menu_option_id=1, addon_ids=[8])
    assert milk.verdict.value == "refused" and not milk.can_add
    assert milk.message.startswith("White milk (250 mL) contains Milk, a Major allergy")
    cheese = composed_allergy(detail, menu_option_id=2, addon_ids=[7])
    assert cheese.verdict.value == "acknowledge" and cheese.ack_required and cheese.can_add
    assert cheese.ack_text == "I understand this meal contains Milk (Cheese string)"
