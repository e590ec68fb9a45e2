"""Rideau Valley Kitchen's menu (demo data): comfort classics. Nutrition is for the small
portion, in the order of ``seed_types.NUTRITION_FIELDS``."""

from __future__ import annotations

from hotmeals.db.seed_types import MealSpec, Option

GF_PASTA = Option("Gluten-free pasta", "Pâtes sans gluten", 75, ("corn",))  # corn and rice
GF_BUN = Option("Gluten-free bun", "Pain sans gluten", 75, ("eggs",))

MEALS: tuple[MealSpec, ...] = (
    MealSpec(
        slug="mac-and-cheese",
        name_en="Baked Mac and Cheese",
        name_fr="Macaroni au fromage gratiné",
        description_en="Elbow pasta in a creamy Ontario cheddar sauce, baked with a golden "
        "crumb top and served with buttered green peas.",
        description_fr="Coudes dans une sauce crémeuse au cheddar de l'Ontario, gratinés et "
        "servis avec des petits pois.",
        ingredients_en="Elbow macaroni (wheat), milk, aged cheddar cheese, butter, wheat flour, "
        "breadcrumbs (wheat), green peas, paprika, salt.",
        ingredients_fr="Macaroni (blé), lait, cheddar vieilli, beurre, farine de blé, chapelure "
        "(blé), petits pois, paprika, sel.",
        cooking_en="Pasta boiled, folded into a cheddar sauce and oven-baked at 190 °C until "
        "golden.",
        cooking_fr="Pâtes bouillies, mélangées à une sauce au cheddar puis gratinées au four à "
        "190 °C.",
        nutrition=(430, 16, 9, 0.4, 40, 620, 54, 260, 3, 6, 18, 10, 8, 30, 10),
        allergens=("milk", "wheat"),
        small_cents=525,
        large_cents=700,
        bulk_discount_cents=25,
        meal_options=(GF_PASTA,),
    ),
    MealSpec(
        slug="spaghetti-meat-sauce",
        name_en="Spaghetti with Meat Sauce",
        name_fr="Spaghetti sauce à la viande",
        description_en="Spaghetti with a slow-simmered beef and tomato sauce and a sprinkle of "
        "parmesan.",
        description_fr="Spaghetti nappés d'une sauce au bœuf et aux tomates mijotée "
        "longuement, avec un peu de parmesan.",
        ingredients_en="Spaghetti (wheat), lean ground beef, tomatoes, onion, carrot, garlic, "
        "olive oil, oregano, parmesan cheese (milk).",
        ingredients_fr="Spaghetti (blé), bœuf haché maigre, tomates, oignon, carotte, ail, huile "
        "d'olive, origan, parmesan (lait).",
        cooking_en="Sauce simmered for two hours; pasta cooked al dente and tossed just before "
        "delivery.",
        cooking_fr="Sauce mijotée deux heures; pâtes cuites al dente et mélangées juste avant la "
        "livraison.",
        nutrition=(480, 15, 5.5, 0.5, 45, 640, 60, 620, 5, 9, 24, 15, 20, 10, 25),
        allergens=("wheat", "milk", "tomato", "onion", "garlic"),
        small_cents=550,
        large_cents=700,
        bulk_discount_cents=25,
        meal_options=(GF_PASTA,),
    ),
    MealSpec(
        slug="chicken-fingers",
        name_en="Chicken Fingers with Potato Wedges",
        name_fr="Lanières de poulet et quartiers de pommes de terre",
        description_en="Crispy oven-baked chicken fingers with seasoned potato wedges and "
        "ketchup for dipping.",
        description_fr="Lanières de poulet croustillantes cuites au four, quartiers de pommes "
        "de terre assaisonnés et ketchup.",
        ingredients_en="Chicken breast, wheat flour, breadcrumbs (wheat), eggs, canola oil, "
        "potatoes, paprika, salt, ketchup (tomatoes, vinegar, sugar).",
        ingredients_fr="Poitrine de poulet, farine de blé, chapelure (blé), œufs, huile de "
        "canola, pommes de terre, paprika, sel, ketchup (tomates, vinaigre, sucre).",
        cooking_en="Breaded by hand and oven-baked, never deep-fried, with the wedges roasted "
        "on the same tray.",
        cooking_fr="Panées à la main et cuites au four, jamais frites; les quartiers rôtissent "
        "sur la même plaque.",
        nutrition=(520, 20, 3.5, 0.1, 70, 720, 55, 780, 5, 5, 30, 4, 15, 4, 12),
        allergens=("wheat", "eggs", "tomato"),
        small_cents=575,
        large_cents=725,
    ),
    MealSpec(
        slug="shepherds-pie",
        name_en="Shepherd's Pie",
        name_fr="Pâté chinois",
        description_en="Seasoned ground beef and sweet corn under fluffy mashed potatoes.",
        description_fr="Bœuf haché assaisonné et maïs sucré sous une purée de pommes de terre "
        "onctueuse.",
        ingredients_en="Ground beef, potatoes, milk, butter, corn kernels, onion, carrots, beef "
        "broth (celery), thyme, salt.",
        ingredients_fr="Bœuf haché, pommes de terre, lait, beurre, maïs en grains, oignon, "
        "carottes, bouillon de bœuf (céleri), thym, sel.",
        cooking_en="Layered beef, corn and potato, baked at 180 °C for 45 minutes.",
        cooking_fr="Étages de bœuf, de maïs et de purée, cuits au four à 180 °C pendant 45 "
        "minutes.",
        nutrition=(450, 18, 8, 0.6, 60, 590, 45, 820, 5, 6, 24, 40, 15, 8, 20),
        allergens=("milk", "corn", "onion", "celery"),
        small_cents=550,
        large_cents=700,
    ),
    MealSpec(
        slug="cheese-pizza",
        name_en="Cheese Pizza",
        name_fr="Pizza au fromage",
        description_en="Two slices of whole-wheat crust pizza with tomato sauce and melted "
        "mozzarella.",
        description_fr="Deux pointes de pizza à croûte de blé entier, sauce tomate et mozzarella "
        "fondante.",
        ingredients_en="Whole-wheat crust (wheat flour, water, yeast, olive oil), tomato sauce, "
        "mozzarella cheese (milk), oregano.",
        ingredients_fr="Croûte de blé entier (farine de blé, eau, levure, huile d'olive), sauce "
        "tomate, mozzarella (lait), origan.",
        cooking_en="Stone-oven baked the morning of delivery.",
        cooking_fr="Cuite au four à pierre le matin de la livraison.",
        nutrition=(460, 16, 8, 0.3, 35, 820, 58, 300, 4, 6, 22, 10, 6, 30, 15),
        allergens=("wheat", "milk", "tomato"),
        small_cents=500,
        large_cents=675,
        meal_options=(Option("Gluten-free crust", "Croûte sans gluten", 75, ("eggs",)),),
    ),
    MealSpec(
        slug="chicken-caesar-wrap",
        name_en="Chicken Caesar Wrap",
        name_fr="Wrap César au poulet",
        description_en="Grilled chicken, crisp romaine and parmesan with a light Caesar "
        "dressing in a soft tortilla.",
        description_fr="Poulet grillé, laitue romaine croquante et parmesan, vinaigrette César "
        "légère, dans une tortilla moelleuse.",
        ingredients_en="Flour tortilla (wheat), grilled chicken, romaine lettuce, parmesan "
        "(milk), Caesar dressing (canola oil, egg yolk, Dijon mustard, anchovy, garlic, lemon).",
        ingredients_fr="Tortilla de farine (blé), poulet grillé, laitue romaine, parmesan "
        "(lait), vinaigrette César (huile de canola, jaune d'œuf, moutarde de Dijon, anchois, "
        "ail, citron).",
        cooking_en="Chicken grilled and chilled; wraps assembled fresh the morning of delivery.",
        cooking_fr="Poulet grillé puis refroidi; wraps assemblés le matin même de la livraison.",
        nutrition=(440, 19, 5, 0.1, 65, 860, 38, 420, 3, 3, 28, 30, 10, 15, 15),
        allergens=("wheat", "milk", "eggs", "mustard", "fish", "garlic"),
        small_cents=575,
        large_cents=725,
        meal_options=(Option("Dressing on the side", "Vinaigrette à part", 0),),
    ),
    MealSpec(
        slug="turkey-cheddar-sandwich",
        name_en="Turkey and Cheddar Sandwich",
        name_fr="Sandwich dinde et cheddar",
        description_en="House-roasted turkey, mild cheddar, lettuce and tomato on a "
        "whole-wheat bun.",
        description_fr="Dinde rôtie maison, cheddar doux, laitue et tomate sur un pain de blé "
        "entier.",
        ingredients_en="Whole-wheat bun (wheat), roasted turkey breast, cheddar cheese (milk), "
        "lettuce, tomato, mayonnaise (eggs, canola oil, vinegar).",
        ingredients_fr="Pain de blé entier (blé), poitrine de dinde rôtie, cheddar (lait), "
        "laitue, tomate, mayonnaise (œufs, huile de canola, vinaigre).",
        cooking_en="Turkey roasted in-house and sliced thin; sandwiches assembled fresh.",
        cooking_fr="Dinde rôtie sur place et tranchée finement; sandwichs assemblés le jour même.",
        nutrition=(390, 14, 6, 0.2, 55, 780, 38, 380, 5, 5, 27, 8, 6, 20, 15),
        allergens=("wheat", "milk", "eggs", "tomato"),
        small_cents=525,
        large_cents=700,
        bulk_discount_cents=25,
        meal_options=(GF_BUN,),
    ),
    MealSpec(
        slug="soft-beef-tacos",
        name_en="Soft Beef Tacos",
        name_fr="Tacos souples au bœuf",
        description_en="Two soft tacos with mildly spiced beef, cheddar, lettuce, salsa and sour "
        "cream, packed to build at the table.",
        description_fr="Deux tacos souples au bœuf légèrement épicé, cheddar, laitue, salsa et "
        "crème sure, à garnir soi-même.",
        ingredients_en="Soft flour tortillas (wheat), ground beef, cheddar (milk), lettuce, "
        "diced tomato, mild salsa (tomato, onion, cilantro), sour cream (milk), cumin.",
        ingredients_fr="Tortillas de farine (blé), bœuf haché, cheddar (lait), laitue, tomates "
        "en dés, salsa douce (tomate, oignon, coriandre), crème sure (lait), cumin.",
        cooking_en="Beef browned with mild spices; toppings packed separately so nothing gets "
        "soggy.",
        cooking_fr="Bœuf doré aux épices douces; garnitures emballées à part pour rester "
        "croquantes.",
        nutrition=(470, 21, 9, 0.7, 60, 690, 42, 520, 4, 4, 26, 12, 12, 20, 20),
        allergens=("wheat", "milk", "tomato", "onion"),
        small_cents=550,
        large_cents=725,
    ),
    MealSpec(
        slug="vegetable-lasagna",
        name_en="Vegetable Lasagna",
        name_fr="Lasagne aux légumes",
        description_en="Layers of pasta, ricotta, spinach and zucchini in a rich tomato sauce.",
        description_fr="Étages de pâtes, ricotta, épinards et courgettes dans une sauce tomate "
        "généreuse.",
        ingredients_en="Lasagna noodles (wheat, eggs), ricotta and mozzarella (milk), spinach, "
        "zucchini, tomato sauce, garlic, basil.",
        ingredients_fr="Pâtes à lasagne (blé, œufs), ricotta et mozzarella (lait), épinards, "
        "courgettes, sauce tomate, ail, basilic.",
        cooking_en="Assembled the day before and baked at 180 °C for an hour.",
        cooking_fr="Montée la veille et cuite au four à 180 °C pendant une heure.",
        nutrition=(420, 15, 8, 0.3, 45, 680, 48, 560, 5, 9, 21, 50, 20, 35, 15),
        allergens=("wheat", "eggs", "milk", "tomato", "garlic"),
        small_cents=550,
        large_cents=700,
        bulk_discount_cents=25,
    ),
)
