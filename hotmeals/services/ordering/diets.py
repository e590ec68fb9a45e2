"""What a child's dietary needs say about the menus: the marks of a meal, option or add-on
(the menus' cached copy, ``menu_cache.Catalog.diets``), of a meal as composed
(``domain.diet.composed``), and whether it fits a child (``domain.diet.unmet``). A diet is a
preference, not a safety rule: the allergy rule (``allergens.py``) is apart and comes first.
No statement here: the child's needs are read by the caller, in one batch
(``children.child_diets``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from hotmeals.domain import diet
from hotmeals.domain.diet import Diet
from hotmeals.services.ordering.allergens import ADDON, MEAL, MEAL_OPTION, MENU_OPTION, Dish

Marks = Mapping[tuple[str, int], frozenset[Diet]]  # ``menu_cache.Catalog.diets``


def item_marks(marks: Marks, kind: str, item_id: int | None) -> frozenset[Diet]:
    """The stored marks of one meal, option or add-on (``kind`` as in ``menu_cache``)."""
    return marks.get((kind, item_id or 0), frozenset())


def choice_marks(
    marks: Marks,
    *,
    meal_id: int,
    menu_option_id: int | None = None,
    meal_option_id: int | None = None,
    addon_ids: Iterable[int] = (),
) -> frozenset[Diet]:
    """The marks of a meal as composed, by the ids of its parts (0 or None: not chosen)."""
    parts = [item_marks(marks, MEAL, meal_id)]
    if menu_option_id:
        parts.append(item_marks(marks, MENU_OPTION, menu_option_id))
    if meal_option_id:
        parts.append(item_marks(marks, MEAL_OPTION, meal_option_id))
    parts += [item_marks(marks, ADDON, k) for k in addon_ids]
    return diet.composed(*parts)


def dish_marks(marks: Marks, dish: Dish) -> frozenset[Diet]:
    """The marks of a meal as composed: those its meal, chosen options and add-ons all carry
    (each with the marks it implies)."""
    return diet.composed(
        *(item_marks(marks, kind, row.id) for kind, row in dish.rows() if row is not None)
    )


def shown(marks: Iterable[Diet]) -> tuple[Diet, ...]:
    """Marks as a menu shows them: with the ones they imply, in ``diet.DIETS`` order."""
    have = diet.implied(marks)
    return tuple(d for d in diet.DIETS if d in have)


@dataclass(frozen=True)
class DietFit:
    """What a child's needs say about an item or a meal as composed: the needs it does not
    meet (empty: it fits)."""

    unmet: tuple[Diet, ...]

    @property
    def fits(self) -> bool:
        return not self.unmet


def fit(needs: frozenset[Diet], marks: Iterable[Diet]) -> DietFit | None:
    """The fit for a child with ``needs`` (None for a child without any: nothing to say)."""
    if not needs:
        return None
    return DietFit(diet.unmet(needs, marks))
