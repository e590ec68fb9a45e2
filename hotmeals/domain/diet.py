"""Dietary marks: what a meal, an option or an add-on is (vegetarian, halal, ...) and what a
family's child eats. A diet is a preference, not a safety rule (allergies are the safety rule,
``domain/allergy.py``): a meal that does not fit may still be booked after a notice.

A mark is stored as its code, one row per mark (``MealDiet``, ``MenuOptionDiet``,
``MealOptionDiet``, ``AddOnDiet``, ``ChildDiet``); ``to_text``/``parse`` are the space-separated
form of the menu files and the command line. A mark implies
others (vegan is vegetarian; vegetarian has no pork and no beef). The meal as composed (the
meal, its chosen option and variant, its add-ons) carries a mark only when every part does.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum


class Diet(StrEnum):
    VEGETARIAN = "vegetarian"
    VEGAN = "vegan"
    HALAL = "halal"
    NO_PORK = "no_pork"
    NO_BEEF = "no_beef"
    GLUTEN_FREE = "gluten_free"


# The order marks are listed in (menus, labels, the child's profile).
DIETS: tuple[Diet, ...] = tuple(Diet)

IMPLIES: dict[Diet, frozenset[Diet]] = {
    Diet.VEGAN: frozenset({Diet.VEGETARIAN, Diet.NO_PORK, Diet.NO_BEEF}),
    Diet.VEGETARIAN: frozenset({Diet.NO_PORK, Diet.NO_BEEF}),
}


def parse(text: str | None) -> frozenset[Diet]:
    """The marks of a space-separated text (unknown codes are ignored)."""
    known = {d.value for d in Diet}
    return frozenset(Diet(code) for code in (text or "").split() if code in known)


def unknown_codes(codes: Iterable[str]) -> list[str]:
    """The codes of ``codes`` that are not a mark (a door refuses them)."""
    known = {d.value for d in Diet}
    return [code for code in codes if code not in known]


def to_text(marks: Iterable[Diet | str]) -> str:
    """``marks`` as codes in ``DIETS`` order, space-separated."""
    chosen = {str(m) for m in marks}
    return " ".join(d.value for d in DIETS if d.value in chosen)


def implied(marks: Iterable[Diet]) -> frozenset[Diet]:
    """``marks`` with the marks they imply."""
    out = set(marks)
    for mark in list(out):
        out |= IMPLIES.get(mark, frozenset())
    return frozenset(out)


def composed(*parts: Iterable[Diet]) -> frozenset[Diet]:
    """The marks of a meal as composed: those every part carries (each with its implied ones)."""
    result: frozenset[Diet] | None = None
    for part in parts:
        marks = implied(part)
        result = marks if result is None else result & marks
    return result or frozenset()


def unmet(needs: Iterable[Diet], marks: Iterable[Diet]) -> tuple[Diet, ...]:
    """The needs a meal carrying ``marks`` does not meet, in ``DIETS`` order (empty: it fits)."""
    have = implied(marks)
    wanted = set(needs)
    return tuple(d for d in DIETS if d in wanted and d not in have)


def fits(needs: Iterable[Diet], marks: Iterable[Diet]) -> bool:
    return not unmet(needs, marks)
