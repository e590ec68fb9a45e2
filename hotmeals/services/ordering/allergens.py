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
from typing import Any

from sqlalchemy import String, literal, or_, union_all
from sqlalchemy import select as sql_select
from sqlmodel import Session, col

from hotmeals.db.models import (
    AddOn,
    AddOnAllergen,
    AllergenIngredient,
    ChildAllergy,
    Meal,
    MealAllergen,
    MealOption,
    MealOptionAllergen,
    MenuOption,
    MenuOptionAllergen,
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
from hotmeals.i18n import normalize_lang, t


def _fr(lang: str) -> bool:
    return normalize_lang(lang) == "fr"


@dataclass(frozen=True)
class MealAllergy:
    allergens: tuple[str, ...]  # every allergen of the meal, in the request's language
    matches: tuple[tuple[str, str], ...]  # (name, child's level) of the child's allergens
    verdict: MealVerdict


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

    def mark(self, child_id: int | None, lang: str) -> dict:
        """The AllergyMark of this item alone for the child (see ``allergy_out``)."""
        matches = self.child_matches(child_id)
        if self.kind == MEAL:
            verdict = meal_verdict(level for _, level in matches)
            return allergy_out(MealAllergy(tuple(self.allergens), matches, verdict), lang)
        composition = compose([self.component(child_id)], lang)
        relevant = [n for n, level in matches if level != "Non-allergic"]
        message = ""
        if composition.verdict is MealVerdict.REFUSED:
            message = t("allergy_refused_extra", lang, items=refused_extras_text(composition, lang))
        elif composition.verdict is MealVerdict.ACKNOWLEDGE:
            message = t("allergy_ack_text", lang, allergens=", ".join(composition.acknowledge))
        elif composition.verdict is MealVerdict.NOTICE:
            message = t("allergy_notice", lang, allergens=", ".join(composition.notice))
        if composition.verdict is MealVerdict.SAFE:
            relevant = []
        return {
            "verdict": composition.verdict.value,
            "allergens": relevant,
            "message": message,
            "levels": [[n, level] for n, level in matches],
        }


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
    each with the levels of ``child_ids``' allergies: ONE statement (a UNION ALL) for any
    number of items and children, none when nothing is named. Only items with at least one
    allergen are answered: an absent key has none."""
    children = sorted(set(child_ids)) or [0]
    by_owner_meals = sorted(set(options_of_meals))
    parts: list[Any] = []
    # One part per kind of item: its model, allergen link, owner column and filters (the
    # models differ, so the loop's rows are typed loosely).
    specs: tuple[tuple[str, Any, Any, Any, Any, Iterable[int], Sequence[int], Any], ...] = (
        (MEAL, Meal, MealAllergen, MealAllergen.meal_id, Meal.id, meal_ids, (), None),
        (
            MENU_OPTION,
            MenuOption,
            MenuOptionAllergen,
            MenuOptionAllergen.menu_option_id,
            MenuOption.meal_id,
            menu_option_ids,
            by_owner_meals,
            None,
        ),
        (
            MEAL_OPTION,
            MealOption,
            MealOptionAllergen,
            MealOptionAllergen.meal_option_id,
            MealOption.meal_id,
            meal_option_ids,
            by_owner_meals,
            None,
        ),
        (
            ADDON,
            AddOn,
            AddOnAllergen,
            AddOnAllergen.addon_id,
            AddOn.vendor_id,
            addon_ids,
            sorted(set(addons_of_vendors)),
            AddOn.is_active,
        ),
    )
    for kind, item, link, link_id, owner, ids, owners, active in specs:
        conditions = []
        keys = sorted(set(ids))
        if keys:
            conditions.append(item.id.in_(keys))
        if owners:
            owned = owner.in_(list(owners))
            conditions.append(owned & active if active is not None else owned)
        if not conditions:
            continue
        parts.append(
            sql_select(  # nine columns: sqlmodel's ``select`` is typed for four at most
                literal(kind, type_=String).label("kind"),
                owner.label("owner_id"),
                item.id.label("item_id"),
                item.name_en.label("item_en"),
                item.name_fr.label("item_fr"),
                col(AllergenIngredient.name_en).label("name_en"),
                col(AllergenIngredient.name_fr).label("name_fr"),
                col(ChildAllergy.child_id).label("child_id"),
                col(ChildAllergy.alert_level).label("level"),
            )
            .select_from(item)
            .join(link, link_id == item.id)
            .join(AllergenIngredient, col(AllergenIngredient.id) == link.ingredient_id)
            .outerjoin(
                ChildAllergy,
                (col(ChildAllergy.ingredient_id) == link.ingredient_id)
                & col(ChildAllergy.child_id).in_(children),
            )
            .where(or_(*conditions))
        )
    if not parts:
        return {}
    statement: Any = parts[0] if len(parts) == 1 else union_all(*parts)
    rows = sorted(
        session.execute(statement).all(),
        key=lambda r: (r.kind, r.item_id, r.name_en, r.child_id or 0),
    )
    french = _fr(lang)
    out: Items = {}
    for row in rows:
        key = (row.kind, row.item_id)
        found = out.get(key)
        if found is None:
            found = out[key] = ItemAllergy(
                kind=row.kind,
                item_id=row.item_id,
                owner_id=row.owner_id,
                name=row.item_fr if french else row.item_en,
                allergens=[],
                matches={},
                both={},
            )
        name = row.name_fr if french else row.name_en
        if name not in found.allergens:
            found.allergens.append(name)
            found.both[name] = (row.name_en, row.name_fr)
        if row.child_id is not None and row.level is not None:
            found.matches.setdefault(row.child_id, []).append((name, row.level))
    return out


def empty_item(kind: str, item_id: int, owner_id: int, name: str) -> ItemAllergy:
    """An item with no allergen (absent from ``item_allergies``' answer)."""
    return ItemAllergy(kind, item_id, owner_id, name, [], {}, {})


def allergy_out(allergy: MealAllergy, lang: str) -> dict:
    """The marking a menu shows for a child: the verdict and the allergens named."""
    relevant = [
        name
        for name, level in allergy.matches
        if allergy.verdict is not MealVerdict.SAFE and level != "Non-allergic"
    ]
    names = ", ".join(relevant)
    message = ""
    if allergy.verdict is MealVerdict.REFUSED:
        message = t("allergy_refused", lang, allergens=names)
    elif allergy.verdict is MealVerdict.ACKNOWLEDGE:
        message = t("allergy_ack_text", lang, allergens=names)
    elif allergy.verdict is MealVerdict.NOTICE:
        message = t("allergy_notice", lang, allergens=names)
    return {
        "verdict": allergy.verdict.value,
        "allergens": relevant,
        "message": message,
        "levels": [[n, level] for n, level in allergy.matches],
    }


def components(
    items: Items,
    *,
    child_id: int,
    meal: Meal,
    menu_option: MenuOption | None,
    meal_option: MealOption | None,
    addons: Sequence[AddOn],
    lang: str,
) -> list[Component]:
    """The meal as composed, for the allergy rule: the meal and each chosen option and add-on
    with the child's allergens it contains (``item_allergies``)."""
    french = _fr(lang)
    parts = []
    for kind, row in (
        (MEAL, meal),
        (MENU_OPTION, menu_option),
        (MEAL_OPTION, meal_option),
        *((ADDON, a) for a in addons),
    ):
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


def ack_names(items: Items, parts: Sequence[Component], rows: Sequence) -> list[tuple]:
    """For each allergen that needs an acknowledgement, its names in both languages."""
    needed = set(ack_needed(parts))
    out = []
    for kind, row in rows:
        if row is None:
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
    meal: Meal,
    menu_option: MenuOption | None,
    meal_option: MealOption | None,
    addons: Sequence[AddOn],
    ack_text: str | None,
    lang: str,
) -> tuple[str, dict]:
    """Why a line (a meal as composed, with the acknowledgement it stores) cannot be paid
    because of the child's allergies as they are now ("" when it can), and the line's mark for
    the cart (``{"verdict", "message"}``: the refusal, what was acknowledged, the Low notice).
    The same rule as AddToCart's (``domain.allergy.ensure_can_add_composed``): a Major allergen
    of the meal or of one of its options or add-ons; or one that needs an acknowledgement the
    line lacks (none stored, or one that does not name it: an allergy raised since)."""
    parts = components(
        items,
        child_id=child_id,
        meal=meal,
        menu_option=menu_option,
        meal_option=meal_option,
        addons=addons,
        lang=lang,
    )
    composition = compose(parts, lang)
    levels = [[n, level] for part in parts for n, level in part.matches]
    names = list(dict.fromkeys(n for n, level in levels if level != "Non-allergic"))

    def mark(message: str) -> dict:
        verdict = composition.verdict
        return {
            "verdict": verdict.value,
            "allergens": names if verdict is not MealVerdict.SAFE else [],
            "message": message,
            "levels": levels,
        }

    try:
        ensure_can_add_composed(parts, acknowledged=bool(ack_text), lang=lang)
    except DomainError as err:
        return err.message(lang), mark(err.message(lang))
    message = ""
    if composition.verdict is MealVerdict.ACKNOWLEDGE:
        message = t("allergy_ack_text", lang, allergens=", ".join(composition.acknowledge))
        rows: list[tuple[str, Meal | MenuOption | MealOption | AddOn | None]] = [
            (MEAL, meal),
            (MENU_OPTION, menu_option),
            (MEAL_OPTION, meal_option),
        ]
        rows += [(ADDON, a) for a in addons]
        if not ack_covers(ack_text, ack_names(items, parts, rows)):
            problem = t("allergy_ack_required", lang, allergens=", ".join(composition.acknowledge))
            return problem, mark(problem)
    elif composition.notice:
        message = t("allergy_notice", lang, allergens=", ".join(composition.notice))
    return "", mark(message)


def composed_allergy(
    detail: dict,
    *,
    menu_option_id: object = None,
    meal_option_id: object = None,
    addon_ids: object = (),
    lang: str = "en",
) -> dict:
    """What AddToCart will say about the meal of ``detail`` (``menu_detail``'s answer for a
    child) with these choices: the same rule (``domain.allergy.ensure_can_add_composed``) on
    the marks the detail carries, no statement. ``verdict`` the worst part's, ``message`` the
    refusal or what to acknowledge, ``ack_text`` the sentence the parent confirms."""
    parts: list[Component] = []
    own = detail.get("allergy") or {}
    parts.append(
        Component(
            name=str(detail.get("name") or ""),
            matches=tuple((str(n), str(lv)) for n, lv in own.get("levels", [])),
            is_meal=True,
        )
    )
    chosen: list[tuple[str, str, object]] = [
        ("menu_options", "menu_option_id", menu_option_id),
        ("meal_options", "meal_option_id", meal_option_id),
    ]
    wanted = addon_ids if isinstance(addon_ids, (list, tuple, set)) else [addon_ids]
    chosen += [("addons", "addons", a) for a in wanted]
    for list_name, field, key in chosen:
        if key in (None, "", 0, "0"):
            continue
        for item in detail.get(list_name) or []:
            if str(item.get("id")) == str(key):
                mark = item.get("allergy") or {}
                parts.append(
                    Component(
                        name=str(item.get("name") or ""),
                        matches=tuple((str(n), str(lv)) for n, lv in mark.get("levels", [])),
                        field=field,
                    )
                )
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
    return {
        "verdict": composition.verdict.value,
        "message": message,
        "ack_required": composition.verdict is MealVerdict.ACKNOWLEDGE,
        "ack_text": ack_text,
        "can_add": composition.verdict is not MealVerdict.REFUSED,
    }
