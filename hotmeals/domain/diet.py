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

from hotmeals.domain.errors import DomainError
from hotmeals.i18n import normalize_lang, t


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


def needs_of(codes: Iterable[str]) -> frozenset[Diet]:
    """The marks a door was sent, as codes; an unknown code refuses them all
    (``diet_unknown``, naming it)."""
    given = [str(code).strip() for code in codes]
    unknown = unknown_codes(given)
    if unknown:
        raise DomainError("diet_unknown", field="diets", codes=", ".join(unknown))
    return frozenset(Diet(code) for code in given)


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


# --- said to the parent -----------------------------------------------------------------------


def label(mark: Diet, lang: str | None = "en") -> str:
    """The mark's name ("Vegetarian", "Sans porc")."""
    return t(f"diet_{mark.value}", lang)


def unmet_label(mark: Diet, lang: str | None = "en") -> str:
    """What a meal that does not meet ``mark`` is ("Not vegetarian", "Non halal")."""
    return t(f"diet_unmet_{mark.value}", lang)


def missing_text(missing: Iterable[Diet], lang: str | None = "en") -> str:
    """The needs a meal misses, as one phrase: "Not vegetarian, not halal"."""
    words = [unmet_label(mark, lang) for mark in missing]
    return ", ".join([*words[:1], *(w[:1].lower() + w[1:] for w in words[1:])])


_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæ")


def whose(first_name: str, lang: str | None = "en") -> str:
    """The child's name as the owner of a diet: "Emma's", « d'Emma », « de Noah »."""
    if normalize_lang(lang) == "fr" and first_name[:1].lower() in _VOWELS:
        return f"d'{first_name}"
    return t("diet_whose", lang, name=first_name)


def ensure_can_add(
    needs: Iterable[Diet],
    marks: Iterable[Diet],
    *,
    acknowledged: bool,
    child: str,
    meal: str,
    lang: str | None = "en",
) -> tuple[Diet, ...]:
    """The diet rule when a meal as composed (``marks``: ``composed`` of its parts) goes into
    a child's cart or order: a meal that does not meet every need is added only once the
    parent has seen the notice (``acknowledged``); without it, ``diet_ack_required`` names the
    child, the meal and what it misses. Answers the needs it misses (empty: it fits). A
    preference, not a safety rule: the allergy rule (``allergy.ensure_can_add_composed``)
    comes first and is not changed by this one."""
    missing = unmet(needs, marks)
    if missing and not acknowledged:
        raise DomainError(
            "diet_ack_required",
            field="diet_ack",
            meal=meal,
            whose=whose(child, lang),
            missing=missing_text(missing, lang),
        )
    return missing
