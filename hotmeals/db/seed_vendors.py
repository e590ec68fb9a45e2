"""The three demo caterers, each with its own cut-off rule, menu and add-ons, plus the drink
choices offered with most meals. Each caterer is data: ``menus/<name>.toml``, read by
``vendor_spec``."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from hotmeals.db.seed_types import AddOnSpec, MealSpec, Option, VendorSpec
from hotmeals.domain.diet import Diet

MENUS = Path(__file__).with_name("menus")

# Each add-on's own allergens, as its label declares them.
# Each add-on's dietary marks (domain.diet codes, the implied ones left out), from the same
# label: halal only where nothing in it is doubtful (fruit); baked goods and dairy are
# vegetarian.
VEGAN_HALAL_GF = (Diet.VEGAN, Diet.HALAL, Diet.GLUTEN_FREE)
FRUIT_CUP = AddOnSpec(  # peaches, pears: no allergen
    "fruit-cup", "Fruit cup", "Coupe de fruits", 150, (), VEGAN_HALAL_GF
)
COOKIE = AddOnSpec(
    "cookie",
    "Chocolate chip cookie",
    "Biscuit aux pépites de chocolat",
    125,
    ("wheat", "eggs", "milk", "soy"),
    (Diet.VEGETARIAN,),
)
YOGURT = AddOnSpec(
    "yogurt", "Yogurt tube", "Yogourt en tube", 100, ("milk",), (Diet.VEGETARIAN, Diet.GLUTEN_FREE)
)
VEGGIE_STICKS = AddOnSpec(
    "veggie-sticks",
    "Veggie sticks with dip",
    "Crudités et trempette",
    175,
    ("milk", "eggs", "celery"),  # ranch dip: buttermilk, egg yolk
    (Diet.VEGETARIAN, Diet.GLUTEN_FREE),
)
APPLE_SLICES = AddOnSpec(
    "apple-slices", "Apple slices", "Tranches de pomme", 125, (), VEGAN_HALAL_GF
)
CHEESE_STRING = AddOnSpec(
    "cheese-string",
    "Cheese string",
    "Fromage ficelle",
    100,
    ("milk",),
    (Diet.VEGETARIAN, Diet.GLUTEN_FREE),
)
BANANA_MUFFIN = AddOnSpec(
    "banana-muffin",
    "Banana muffin",
    "Muffin aux bananes",
    150,
    ("wheat", "eggs", "milk", "banana"),
    (Diet.VEGETARIAN,),
)
GRANOLA_BAR = AddOnSpec(  # oats and honey: vegetarian, not gluten-free
    "granola-bar",
    "Nut-free granola bar",
    "Barre granola sans noix",
    125,
    ("oats", "soy"),
    (Diet.VEGETARIAN,),
)

ADDONS: tuple[AddOnSpec, ...] = (
    FRUIT_CUP,
    COOKIE,
    YOGURT,
    VEGGIE_STICKS,
    APPLE_SLICES,
    CHEESE_STRING,
    BANANA_MUFFIN,
    GRANOLA_BAR,
)

# Offered with every meal whose spec has ``drinks=True``; halal: nothing in them is doubtful.
DRINKS: tuple[Option, ...] = (
    Option(
        "White milk (250 mL)",
        "Lait (250 ml)",
        0,
        ("milk",),
        (Diet.VEGETARIAN, Diet.HALAL, Diet.GLUTEN_FREE),
    ),
    Option("Apple juice (200 mL)", "Jus de pomme (200 ml)", 50, (), VEGAN_HALAL_GF),
    Option("Water", "Eau", 0, (), VEGAN_HALAL_GF),
)


def _diets(raw: dict[str, Any]) -> tuple[Diet, ...]:
    """A menu file's ``diets`` list (an unknown code is an error in the file)."""
    return tuple(Diet(code) for code in raw.get("diets", ()))


def _option(raw: dict[str, Any]) -> Option:
    return Option(**{**raw, "allergens": tuple(raw.get("allergens", ())), "diets": _diets(raw)})


def _meal(raw: dict[str, Any], options: dict[str, Option]) -> MealSpec:
    return MealSpec(
        **{
            **raw,
            "nutrition": tuple(raw["nutrition"]),
            "allergens": tuple(raw["allergens"]),
            "diets": _diets(raw),
            "meal_options": tuple(options[key] for key in raw.get("meal_options", ())),
        }
    )


def vendor_spec(name: str) -> VendorSpec:
    """The caterer of ``menus/<name>.toml``: its cut-off rule, its add-ons (slugs of
    ``ADDONS``) and its meals (each meal option a key of the file's ``[options]``)."""
    with (MENUS / f"{name}.toml").open("rb") as file:
        data = tomllib.load(file)
    options = {key: _option(raw) for key, raw in data.get("options", {}).items()}
    addons = {addon.slug: addon for addon in ADDONS}
    return VendorSpec(
        name=data["name"],
        cutoff_days_before=data["cutoff_days_before"],
        cutoff_time=data["cutoff_time"],
        cutoff_skip_weekends=data["cutoff_skip_weekends"],
        meals=tuple(_meal(raw, options) for raw in data["meals"]),
        addons=tuple(addons[slug] for slug in data["addons"]),
    )


VENDORS: tuple[VendorSpec, ...] = tuple(
    vendor_spec(name) for name in ("rideau", "lakeshore", "trillium")
)
