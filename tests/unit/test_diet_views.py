"""How the screens say a child's diet (ui/shared_state/menu_views.py, many_days_rows.py): pure
functions of the services' answers, in both languages."""

from __future__ import annotations

from hotmeals.domain.allergy import MealVerdict
from hotmeals.domain.diet import Diet
from hotmeals.services.ordering.diets import DietFit
from hotmeals.services.ordering.week import WeekMeal
from hotmeals.ui.shared_state.many_days_rows import DayRow, fill_row
from hotmeals.ui.shared_state.menu_views import diet_fit_of, diet_line_text


def test_a_line_says_it_fits_or_what_it_misses_and_nothing_without_needs():
    assert diet_line_text(DietFit(()), "Emma", "fr") == "Convient au régime d'Emma"
    assert diet_line_text(DietFit((Diet.HALAL,)), "Noah", "en") == (
        "Does not fit Noah's diet: Not halal"
    )
    assert diet_line_text(None, "Emma", "en") == ""
    # The API's shape reads back the same (an unknown code is left out).
    assert diet_fit_of({"fits": False, "unmet": ["vegan", "keto"]}) == DietFit((Diet.VEGAN,))
    assert diet_fit_of(None) is None


def test_several_days_offers_book_it_anyway_on_a_meal_that_misses_a_need():
    wrap = WeekMeal(
        meal_id=7,
        menu_day_id=3,
        vendor="Lakeshore",
        name="Chicken wrap",
        verdict=MealVerdict.SAFE,
        allergy="",
        portions=(),
        diet=DietFit((Diet.VEGETARIAN,)),
    )
    row = DayRow(key="2|2026-03-02", state="open", diet_ack=True)
    fill_row(row, [wrap], "7", "small", "en")
    assert row.diet == "Does not fit the child's diet (Not vegetarian): book it anyway"
    fitting = WeekMeal(7, 3, "Lakeshore", "Lentils", MealVerdict.SAFE, "", (), DietFit(()))
    fill_row(row, [fitting], "7", "small", "fr")
    assert row.diet == "" and row.diet_ack is False
