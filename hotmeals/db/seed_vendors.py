"""The three demo caterers, each with its own cut-off rule, menu and add-ons, plus the drink
choices offered with most meals."""

from __future__ import annotations

from hotmeals.db import seed_menu_lakeshore, seed_menu_rideau, seed_menu_trillium
from hotmeals.db.seed_types import AddOnSpec, Option, VendorSpec

# Each add-on's own allergens, as its label declares them.
FRUIT_CUP = AddOnSpec("fruit-cup", "Fruit cup", "Coupe de fruits", 150)  # peaches, pears: none
COOKIE = AddOnSpec(
    "cookie",
    "Chocolate chip cookie",
    "Biscuit aux pépites de chocolat",
    125,
    ("wheat", "eggs", "milk", "soy"),
)
YOGURT = AddOnSpec("yogurt", "Yogurt tube", "Yogourt en tube", 100, ("milk",))
VEGGIE_STICKS = AddOnSpec(
    "veggie-sticks",
    "Veggie sticks with dip",
    "Crudités et trempette",
    175,
    ("milk", "eggs", "celery"),  # ranch dip: buttermilk, egg yolk
)
APPLE_SLICES = AddOnSpec("apple-slices", "Apple slices", "Tranches de pomme", 125)
CHEESE_STRING = AddOnSpec("cheese-string", "Cheese string", "Fromage ficelle", 100, ("milk",))
BANANA_MUFFIN = AddOnSpec(
    "banana-muffin", "Banana muffin", "Muffin aux bananes", 150, ("wheat", "eggs", "milk", "banana")
)
GRANOLA_BAR = AddOnSpec(
    "granola-bar", "Nut-free granola bar", "Barre granola sans noix", 125, ("oats", "soy")
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

# Offered with every meal whose spec has ``drinks=True``.
DRINKS: tuple[Option, ...] = (
    Option("White milk (250 mL)", "Lait (250 ml)", 0, ("milk",)),
    Option("Apple juice (200 mL)", "Jus de pomme (200 ml)", 50),
    Option("Water", "Eau", 0),
)

VENDORS: tuple[VendorSpec, ...] = (
    # Two calendar days before, at 17:00.
    VendorSpec(
        name="Rideau Valley Kitchen",
        cutoff_days_before=2,
        cutoff_time="17:00",
        cutoff_skip_weekends=False,
        meals=seed_menu_rideau.MEALS,
        addons=(FRUIT_CUP, COOKIE, VEGGIE_STICKS, CHEESE_STRING),
    ),
    # The day before, at 10:00.
    VendorSpec(
        name="Lakeshore Lunch Co.",
        cutoff_days_before=1,
        cutoff_time="10:00",
        cutoff_skip_weekends=False,
        meals=seed_menu_lakeshore.MEALS,
        addons=(FRUIT_CUP, YOGURT, APPLE_SLICES, GRANOLA_BAR),
    ),
    # Three school days before, at noon: Monday's lunch closes on Wednesday.
    VendorSpec(
        name="Trillium Fresh Catering",
        cutoff_days_before=3,
        cutoff_time="12:00",
        cutoff_skip_weekends=True,
        meals=seed_menu_trillium.MEALS,
        addons=(COOKIE, YOGURT, BANANA_MUFFIN, VEGGIE_STICKS, APPLE_SLICES),
    ),
)
