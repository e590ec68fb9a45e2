"""The allergens of meals, options and add-ons, and what they mean for a child: the meal
as composed (the meal, its options and add-ons, each with its own allergens) under the rule of
``domain.allergy`` (``meal_verdict``, ``compose`` / ``ensure_can_add_composed``).

``item_allergies`` reads the allergens of any meals, options and add-ons with the children's
levels in ONE statement; the menu marks them (``ItemAllergy.mark``), adding a line checks them
(``lines.check_line`` through ``components``), the cart checks them again as the allergies are
now (``allergy_problem``), and the dialog previews them before the tap (``composed_allergy``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import bindparam
from sqlalchemy import select as sql_select
from sqlmodel import Session, col

from hotmeals.db.models import (
    AddOn,
    ChildAllergy,
    Meal,
    MealOption,
    MenuOption,
)
from hotmeals.domain.allergy import (
    Component,
    MealVerdict,
    ack_covers,
    ack_needed,
    compose,
    ensure_can_add_composed,
    meal_verdict,
    refused_extras_text,
)
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t
from hotmeals.services import menu_cache
from hotmeals.services.ordering.labels import is_french

if TYPE_CHECKING:
    from hotmeals.services.ordering.menu import MealDetail


@dataclass(frozen=True)
class MealAllergy:
    allergens: tuple[str, ...]  # every allergen of the meal, in the request's language
    matches: tuple[tuple[str, str], ...]  # (name, child's level) of the child's allergens
    verdict: MealVerdict


@dataclass(frozen=True)
class AllergyMark:
    """What a menu shows for a child about one meal, option or add-on: the verdict, the
    child's allergens it names (none when safe, nor a Non-allergic one), the sentence saying
    so ("" when safe) and each of the child's allergens the item contains with the child's
    level (Non-allergic included)."""

    verdict: MealVerdict
    allergens: tuple[str, ...]
    message: str
    levels: tuple[tuple[str, str], ...]


SAFE_MARK = AllergyMark(MealVerdict.SAFE, (), "", ())


MEAL, MENU_OPTION, MEAL_OPTION, ADDON = "meal", "menu_option", "meal_option", "addon"
FIELD_OF_KIND = {
    MEAL: "meal_id",
    MENU_OPTION: "menu_option_id",
    MEAL_OPTION: "meal_option_id",
    ADDON: "addons",
}


@dataclass
class ItemAllergy:
    """One meal, option or add-on: its name and every allergen (request language), and per
    child the child's allergens it contains with the child's level. ``owner_id``: the meal of
    an option, the vendor of an add-on, the meal itself for a meal."""

    kind: str
    item_id: int
    owner_id: int
    name: str
    allergens: list[str]
    matches: dict[int, list[tuple[str, str]]]
    both: dict[str, tuple[str, str]]  # allergen name shown -> (English, French)

    def child_matches(self, child_id: int | None) -> tuple[tuple[str, str], ...]:
        return tuple(self.matches.get(child_id or 0, ()))

    def component(self, child_id: int | None) -> Component:
        return Component(
            name=self.name,
            matches=self.child_matches(child_id),
            is_meal=self.kind == MEAL,
            field=FIELD_OF_KIND[self.kind],
        )

    def mark(self, child_id: int | None, lang: str) -> AllergyMark:
        """The mark of this item alone for the child (a meal's: ``meal_mark``)."""
        matches = self.child_matches(child_id)
        if self.kind == MEAL:
            verdict = meal_verdict(level for _, level in matches)
            return meal_mark(MealAllergy(tuple(self.allergens), matches, verdict), lang)
        composition = compose([self.component(child_id)], lang)
        relevant = tuple(n for n, level in matches if level != "Non-allergic")
        message = ""
        if composition.verdict is MealVerdict.REFUSED:
            message = t("allergy_refused_extra", lang, items=refused_extras_text(composition, lang))
        elif composition.verdict is MealVerdict.ACKNOWLEDGE:
            message = t("allergy_ack_text", lang, allergens=", ".join(composition.acknowledge))
        elif composition.verdict is MealVerdict.NOTICE:
            message = t("allergy_notice", lang, allergens=", ".join(composition.notice))
        if composition.verdict is MealVerdict.SAFE:
            relevant = ()
        return AllergyMark(composition.verdict, relevant, message, matches)


Items = dict[tuple[str, int], ItemAllergy]


def item_allergies(
    session: Session,
    *,
    lang: str,
    child_ids: Iterable[int] = (),
    meal_ids: Iterable[int] = (),
    menu_option_ids: Iterable[int] = (),
    meal_option_ids: Iterable[int] = (),
    addon_ids: Iterable[int] = (),
    options_of_meals: Iterable[int] = (),
    addons_of_vendors: Iterable[int] = (),
) -> Items:
    """The allergens of the meals, menu options, meal options and add-ons named (by id, or
    every option of ``options_of_meals`` and every active add-on of ``addons_of_vendors``),
    each with the levels of ``child_ids``' allergies. The items' allergens come from the
    menus' cached copy (``services/menu_cache``, as current as the database: its version is
    checked); the children's allergies are read here, ONE statement for any number of
    children, none without a child. Only items with at least one allergen are answered: an
    absent key has none."""
    wanted = [
        (MEAL, meal_ids),
        (MENU_OPTION, menu_option_ids),
        (MEAL_OPTION, meal_option_ids),
        (ADDON, addon_ids),
    ]
    owned = [(MENU_OPTION, options_of_meals), (MEAL_OPTION, options_of_meals)]
    owned_active = [(ADDON, addons_of_vendors)]
    if not any(ids for _, ids in (*wanted, *owned, *owned_active)):
        return {}
    levels = _child_levels(session, child_ids)  # even for items without allergens: a fixed count
    menus = menu_cache.catalog(session)
    found: dict[tuple[str, int], menu_cache.ItemRef] = {}
    for kind, ids in wanted:
        for item_id in set(ids):
            ref = menus.items.get((kind, item_id))
            if ref is not None:
                found[(kind, item_id)] = ref
    for kind, owners in (*owned, *owned_active):
        for owner_id in set(owners):
            for ref in menus.items_of_owner.get((kind, owner_id), ()):
                if ref.is_active or kind != ADDON:
                    found[(kind, ref.item_id)] = ref
    if not found:
        return {}
    french = is_french(lang)
    out: Items = {}
    for key in sorted(found):
        ref = found[key]
        item = out[key] = ItemAllergy(
            kind=ref.kind,
            item_id=ref.item_id,
            owner_id=ref.owner_id,
            name=ref.name_fr if french else ref.name_en,
            allergens=[],
            matches={},
            both={},
        )
        for allergen in ref.allergens:
            name = allergen.name_fr if french else allergen.name_en
            if name not in item.allergens:
                item.allergens.append(name)
                item.both[name] = (allergen.name_en, allergen.name_fr)
            for child_id, of_child in levels:
                level = of_child.get(allergen.ingredient_id)
                if level is not None:
                    item.matches.setdefault(child_id, []).append((name, level))
    return out


# Built once (statements built per call cost more CPU than SQLite takes to run them).
_LEVELS_OF_CHILDREN = sql_select(
    col(ChildAllergy.child_id), col(ChildAllergy.ingredient_id), col(ChildAllergy.alert_level)
).where(col(ChildAllergy.child_id).in_(bindparam("children", expanding=True)))


def _child_levels(session: Session, child_ids: Iterable[int]) -> list[tuple[int, dict[int, str]]]:
    """Each child's allergies (ingredient id -> alert level), by child id: one statement."""
    children = sorted(set(child_ids))
    if not children:
        return []
    levels: dict[int, dict[int, str]] = {child: {} for child in children}
    for child_id, ingredient_id, level in session.execute(
        _LEVELS_OF_CHILDREN, {"children": children}
    ).all():
        if level is not None:
            levels[child_id][ingredient_id] = level
    return list(levels.items())


def empty_item(kind: str, item_id: int, owner_id: int, name: str) -> ItemAllergy:
    """An item with no allergen (absent from ``item_allergies``' answer)."""
    return ItemAllergy(kind, item_id, owner_id, name, [], {}, {})


def meal_mark(allergy: MealAllergy, lang: str) -> AllergyMark:
    """The marking a menu shows for a child: the verdict and the allergens named."""
    relevant = tuple(
        name
        for name, level in allergy.matches
        if allergy.verdict is not MealVerdict.SAFE and level != "Non-allergic"
    )
    names = ", ".join(relevant)
    message = ""
    if allergy.verdict is MealVerdict.REFUSED:
        message = t("allergy_refused", lang, allergens=names)
    elif allergy.verdict is MealVerdict.ACKNOWLEDGE:
        message = t("allergy_ack_text", lang, allergens=names)
    elif allergy.verdict is MealVerdict.NOTICE:
        message = t("allergy_notice", lang, allergens=names)
    return AllergyMark(allergy.verdict, relevant, message, allergy.matches)


@dataclass(frozen=True)
class Dish:
    """A meal as composed: the meal, the options chosen with it (or None) and its add-ons."""

    meal: Meal
    menu_option: MenuOption | None = None
    meal_option: MealOption | None = None
    addons: Sequence[AddOn] = ()

    def rows(self) -> list[tuple[str, Meal | MenuOption | MealOption | AddOn | None]]:
        """Each part with its kind (the meal first, then the options, then the add-ons)."""
        return [
            (MEAL, self.meal),
            (MENU_OPTION, self.menu_option),
            (MEAL_OPTION, self.meal_option),
            *((ADDON, a) for a in self.addons),
        ]


def components(items: Items, *, child_id: int, dish: Dish, lang: str) -> list[Component]:
    """The meal as composed, for the allergy rule: the meal and each chosen option and add-on
    with the child's allergens it contains (``item_allergies``)."""
    french = is_french(lang)
    parts = []
    for kind, row in dish.rows():
        if row is None or row.id is None:
            continue
        found = items.get((kind, row.id))
        parts.append(
            Component(
                name=row.name_fr if french else row.name_en,
                matches=found.child_matches(child_id) if found else (),
                is_meal=kind == MEAL,
                field=FIELD_OF_KIND[kind],
            )
        )
    return parts


def ack_names(items: Items, parts: Sequence[Component], dish: Dish) -> list[tuple]:
    """For each allergen that needs an acknowledgement, its names in both languages."""
    needed = set(ack_needed(parts))
    out = []
    for kind, row in dish.rows():
        if row is None or row.id is None:
            continue
        found = items.get((kind, row.id))
        if found is None:
            continue
        for name in found.allergens:
            if name in needed:
                out.append(found.both.get(name, (name,)))
    return out


def allergy_problem(
    items: Items,
    *,
    child_id: int,
    dish: Dish,
    ack_text: str | None,
    lang: str,
) -> tuple[str, AllergyMark]:
    """Why a line (a meal as composed, with the acknowledgement it stores) cannot be paid
    because of the child's allergies as they are now ("" when it can), and the line's mark for
    the cart (its message: the refusal, what was acknowledged, the Low notice; its levels: the
    child's allergens of each part, in the parts' order).
    The same rule as AddToCart's (``domain.allergy.ensure_can_add_composed``): a Major allergen
    of the meal or of one of its options or add-ons; or one that needs an acknowledgement the
    line lacks (none stored, or one that does not name it: an allergy raised since)."""
    parts = components(items, child_id=child_id, dish=dish, lang=lang)
    composition = compose(parts, lang)
    levels = tuple((n, level) for part in parts for n, level in part.matches)
    names = tuple(dict.fromkeys(n for n, level in levels if level != "Non-allergic"))

    def mark(message: str) -> AllergyMark:
        verdict = composition.verdict
        return AllergyMark(
            verdict, names if verdict is not MealVerdict.SAFE else (), message, levels
        )

    try:
        ensure_can_add_composed(parts, acknowledged=bool(ack_text), lang=lang)
    except DomainError as err:
        return err.message(lang), mark(err.message(lang))
    message = ""
    if composition.verdict is MealVerdict.ACKNOWLEDGE:
        message = t("allergy_ack_text", lang, allergens=", ".join(composition.acknowledge))
        if not ack_covers(ack_text, ack_names(items, parts, dish)):
            problem = t("allergy_ack_required", lang, allergens=", ".join(composition.acknowledge))
            return problem, mark(problem)
    elif composition.notice:
        message = t("allergy_notice", lang, allergens=", ".join(composition.notice))
    return "", mark(message)


def _shown_component(
    name: str, mark: AllergyMark | None, *, is_meal: bool = False, field: str = "meal_id"
) -> Component:
    """A part of the meal as ``menu_detail`` shows it (the meal, an option or an add-on: its
    name and its mark's levels)."""
    return Component(
        name=name,
        matches=mark.levels if mark is not None else (),
        is_meal=is_meal,
        field=field,
    )


@dataclass(frozen=True)
class AllergyPreview:
    """What AddToCart will say about a meal with the options and add-ons chosen: the worst
    part's verdict, the refusal or what to acknowledge (``message``), whether the box must
    be ticked, the sentence the parent confirms (``ack_text``) and whether it can be added."""

    verdict: MealVerdict
    message: str
    ack_required: bool
    ack_text: str
    can_add: bool


def composed_allergy(
    detail: MealDetail,
    *,
    menu_option_id: int = 0,
    meal_option_id: int = 0,
    addon_ids: Sequence[int] = (),
    lang: str = "en",
) -> AllergyPreview:
    """What AddToCart will say about the meal of ``detail`` (``menu_detail``'s answer for a
    child) with these choices (0: none): the same rule
    (``domain.allergy.ensure_can_add_composed``) on the marks the detail carries, no
    statement."""
    parts = [_shown_component(detail.name, detail.allergy, is_meal=True)]
    for option in detail.menu_options:
        if menu_option_id and option.id == menu_option_id:
            parts.append(_shown_component(option.name, option.allergy, field="menu_option_id"))
    for option in detail.meal_options:
        if meal_option_id and option.id == meal_option_id:
            parts.append(_shown_component(option.name, option.allergy, field="meal_option_id"))
    for addon_id in addon_ids:
        for addon in detail.addons:
            if addon_id and addon.id == addon_id:
                parts.append(_shown_component(addon.name, addon.allergy, field="addons"))
    composition = compose(parts, lang)
    ack_text = ""
    if composition.acknowledge:
        ack_text = t("allergy_ack_text", lang, allergens=", ".join(composition.acknowledge))
    try:
        ensure_can_add_composed(parts, acknowledged=True, lang=lang)
        message = ack_text
        if composition.verdict is MealVerdict.NOTICE:
            message = t("allergy_notice", lang, allergens=", ".join(composition.notice))
    except DomainError as err:
        message = err.message(lang)
    return AllergyPreview(
        verdict=composition.verdict,
        message=message,
        ack_required=composition.verdict is MealVerdict.ACKNOWLEDGE,
        ack_text=ack_text,
        can_add=composition.verdict is not MealVerdict.REFUSED,
    )
