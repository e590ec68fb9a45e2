"""Lakeshore Lunch Co.'s menu (demo data): rice bowls, wraps and soups. Nutrition is for the
small portion, in the order of ``seed_types.NUTRITION_FIELDS``."""

from __future__ import annotations

from hotmeals.db.seed_types import MealSpec, Option

EXTRA_RICE = Option("Extra rice", "Riz supplémentaire", 50)

MEALS: tuple[MealSpec, ...] = (
    MealSpec(
        slug="butter-chicken",
        name_en="Mild Butter Chicken with Rice",
        name_fr="Poulet au beurre doux et riz",
        description_en="Tender chicken in a mild, creamy tomato sauce over fluffy basmati rice.",
        description_fr="Poulet tendre dans une sauce tomate crémeuse et douce, sur riz basmati.",
        ingredients_en="Chicken thigh, tomato purée, cream (milk), butter (milk), yogurt (milk), "
        "garlic, ginger, garam masala, basmati rice.",
        ingredients_fr="Haut de cuisse de poulet, purée de tomates, crème (lait), beurre (lait), "
        "yogourt (lait), ail, gingembre, garam masala, riz basmati.",
        cooking_en="Chicken marinated overnight in yogurt, then simmered in the sauce; rice "
        "steamed.",
        cooking_fr="Poulet mariné toute la nuit dans le yogourt puis mijoté dans la sauce; riz "
        "cuit à la vapeur.",
        nutrition=(510, 19, 9, 0.5, 95, 640, 56, 560, 2, 6, 29, 20, 8, 8, 12),
        allergens=("milk", "tomato", "garlic"),
        small_cents=575,
        large_cents=725,
        bulk_discount_cents=25,
        meal_options=(EXTRA_RICE,),
    ),
    MealSpec(
        slug="teriyaki-chicken-bowl",
        name_en="Teriyaki Chicken Rice Bowl",
        name_fr="Bol de riz au poulet teriyaki",
        description_en="Glazed chicken with broccoli and carrots on jasmine rice, topped with "
        "sesame seeds.",
        description_fr="Poulet glacé, brocoli et carottes sur riz jasmin, garni de graines de "
        "sésame.",
        ingredients_en="Chicken breast, teriyaki sauce (soy sauce [soy, wheat], brown sugar, "
        "ginger, garlic), jasmine rice, broccoli, carrots, sesame seeds.",
        ingredients_fr="Poitrine de poulet, sauce teriyaki (sauce soja [soja, blé], cassonade, "
        "gingembre, ail), riz jasmin, brocoli, carottes, graines de sésame.",
        cooking_en="Chicken seared and glazed; vegetables steamed until just tender.",
        cooking_fr="Poulet saisi puis glacé; légumes cuits à la vapeur juste à point.",
        nutrition=(480, 10, 2.5, 0, 75, 890, 66, 540, 3, 12, 30, 35, 60, 4, 10),
        allergens=("soy", "wheat", "sesame", "garlic"),
        small_cents=550,
        large_cents=725,
        meal_options=(EXTRA_RICE,),
    ),
    MealSpec(
        slug="veggie-fried-rice",
        name_en="Vegetable Fried Rice with Egg",
        name_fr="Riz frit aux légumes et à l'œuf",
        description_en="Wok-tossed rice with scrambled egg, peas, carrots and corn.",
        description_fr="Riz sauté au wok avec œuf brouillé, petits pois, carottes et maïs.",
        ingredients_en="Rice, eggs, peas, carrots, corn, green onion, soy sauce (soy, wheat), "
        "canola oil, sesame oil.",
        ingredients_fr="Riz, œufs, petits pois, carottes, maïs, oignon vert, sauce soja (soja, "
        "blé), huile de canola, huile de sésame.",
        cooking_en="Day-old rice stir-fried in a hot wok with the vegetables and egg.",
        cooking_fr="Riz de la veille sauté au wok bien chaud avec les légumes et l'œuf.",
        nutrition=(400, 12, 2, 0, 150, 720, 60, 330, 4, 4, 13, 45, 10, 4, 10),
        allergens=("eggs", "soy", "wheat", "corn", "sesame", "onion"),
        small_cents=500,
        large_cents=650,
    ),
    MealSpec(
        slug="chicken-noodle-soup",
        name_en="Chicken Noodle Soup with a Bun",
        name_fr="Soupe poulet et nouilles avec petit pain",
        description_en="A warm thermos of homestyle chicken noodle soup with a whole-wheat bun "
        "and butter.",
        description_fr="Un thermos de soupe maison au poulet et aux nouilles, avec un petit pain "
        "de blé entier et du beurre.",
        ingredients_en="Chicken, egg noodles (wheat, eggs), carrots, celery, onion, chicken "
        "broth, parsley, whole-wheat bun (wheat), butter (milk).",
        ingredients_fr="Poulet, nouilles aux œufs (blé, œufs), carottes, céleri, oignon, bouillon "
        "de poulet, persil, petit pain de blé entier (blé), beurre (lait).",
        cooking_en="Broth simmered from roasted chicken bones for six hours; noodles added at "
        "the end.",
        cooking_fr="Bouillon mijoté six heures à partir d'os de poulet rôtis; nouilles ajoutées "
        "en fin de cuisson.",
        nutrition=(360, 9, 3, 0.2, 55, 890, 48, 450, 4, 5, 22, 60, 6, 6, 15),
        allergens=("wheat", "eggs", "celery", "onion", "milk"),
        small_cents=525,
        large_cents=675,
        bulk_discount_cents=25,
        meal_options=(Option("Gluten-free bun", "Pain sans gluten", 75, ("eggs",)),),
    ),
    MealSpec(
        slug="fish-sticks",
        name_en="Crispy Fish Sticks with Rice",
        name_fr="Bâtonnets de poisson croustillants et riz",
        description_en="Golden breaded pollock sticks with rice, green beans and a lemon wedge.",
        description_fr="Bâtonnets de goberge panés et dorés, riz, haricots verts et quartier de "
        "citron.",
        ingredients_en="Pollock (fish), wheat flour, breadcrumbs (wheat), eggs, canola oil, "
        "rice, green beans, lemon.",
        ingredients_fr="Goberge (poisson), farine de blé, chapelure (blé), œufs, huile de "
        "canola, riz, haricots verts, citron.",
        cooking_en="Oven-baked at 220 °C until crisp; rice and beans steamed.",
        cooking_fr="Cuits au four à 220 °C jusqu'à ce qu'ils soient croustillants; riz et "
        "haricots à la vapeur.",
        nutrition=(450, 15, 2.5, 0.1, 45, 560, 58, 420, 3, 2, 20, 6, 10, 4, 10),
        allergens=("fish", "wheat", "eggs"),
        small_cents=550,
        large_cents=700,
    ),
    MealSpec(
        slug="bean-cheese-burrito",
        name_en="Bean and Cheese Burrito",
        name_fr="Burrito aux haricots et au fromage",
        description_en="A hearty burrito of black beans, rice and melted cheese with a mild "
        "corn salsa.",
        description_fr="Un burrito nourrissant aux haricots noirs, riz et fromage fondu, avec "
        "une salsa douce au maïs.",
        ingredients_en="Flour tortilla (wheat), black beans, pinto beans, Monterey Jack cheese "
        "(milk), rice, corn salsa (corn, tomato, onion), cumin.",
        ingredients_fr="Tortilla de farine (blé), haricots noirs, haricots pinto, fromage "
        "Monterey Jack (lait), riz, salsa au maïs (maïs, tomate, oignon), cumin.",
        cooking_en="Rolled by hand and toasted on a flat-top grill.",
        cooking_fr="Roulé à la main et doré sur une plaque chauffante.",
        nutrition=(490, 14, 7, 0.3, 30, 780, 70, 700, 11, 4, 20, 10, 10, 25, 20),
        allergens=("wheat", "milk", "corn", "tomato", "onion"),
        small_cents=525,
        large_cents=700,
        bulk_discount_cents=25,
    ),
    MealSpec(
        slug="chicken-souvlaki-pita",
        name_en="Chicken Souvlaki Pita",
        name_fr="Pita souvlaki au poulet",
        description_en="Lemon-oregano chicken in a warm pita with tzatziki, lettuce and tomato.",
        description_fr="Poulet au citron et à l'origan dans un pita chaud, avec tzatziki, laitue "
        "et tomate.",
        ingredients_en="Pita (wheat), chicken marinated in lemon, garlic and oregano, tzatziki "
        "(yogurt [milk], cucumber, garlic), lettuce, tomato.",
        ingredients_fr="Pita (blé), poulet mariné au citron, à l'ail et à l'origan, tzatziki "
        "(yogourt [lait], concombre, ail), laitue, tomate.",
        cooking_en="Skewers grilled over high heat, then wrapped while warm.",
        cooking_fr="Brochettes grillées à feu vif, puis enveloppées encore chaudes.",
        nutrition=(430, 12, 3.5, 0.1, 70, 720, 45, 480, 3, 4, 32, 10, 15, 12, 15),
        allergens=("wheat", "milk", "garlic", "tomato"),
        small_cents=575,
        large_cents=725,
        meal_options=(Option("Extra tzatziki", "Tzatziki supplémentaire", 50, ("milk", "garlic")),),
    ),
    MealSpec(
        slug="sweet-sour-meatballs",
        name_en="Sweet and Sour Meatballs with Rice",
        name_fr="Boulettes aigres-douces et riz",
        description_en="Tender meatballs in a pineapple sweet and sour sauce with steamed rice.",
        description_fr="Boulettes tendres dans une sauce aigre-douce à l'ananas, avec riz vapeur.",
        ingredients_en="Ground pork and beef, breadcrumbs (wheat), eggs, pineapple, bell pepper, "
        "sweet and sour sauce (vinegar, brown sugar, ketchup [tomato], soy sauce [soy, wheat]), "
        "rice.",
        ingredients_fr="Porc et bœuf hachés, chapelure (blé), œufs, ananas, poivron, sauce "
        "aigre-douce (vinaigre, cassonade, ketchup [tomate], sauce soja [soja, blé]), riz.",
        cooking_en="Meatballs baked, then simmered in the sauce for twenty minutes.",
        cooking_fr="Boulettes cuites au four puis mijotées vingt minutes dans la sauce.",
        nutrition=(520, 18, 6, 0.4, 75, 760, 68, 520, 2, 18, 23, 10, 45, 4, 15),
        allergens=("wheat", "eggs", "soy", "tomato"),
        small_cents=550,
        large_cents=700,
    ),
    MealSpec(
        slug="hummus-veggie-wrap",
        name_en="Hummus Veggie Wrap",
        name_fr="Wrap végé au houmous",
        description_en="Creamy hummus with crunchy cucumber, carrot, spinach, red pepper and "
        "feta in a whole-wheat wrap.",
        description_fr="Houmous onctueux, concombre, carotte, épinards, poivron rouge et feta "
        "dans un wrap de blé entier.",
        ingredients_en="Whole-wheat tortilla (wheat), hummus (chickpeas, tahini [sesame], lemon, "
        "garlic), cucumber, carrot, spinach, red pepper, feta cheese (milk).",
        ingredients_fr="Tortilla de blé entier (blé), houmous (pois chiches, tahini [sésame], "
        "citron, ail), concombre, carotte, épinards, poivron rouge, feta (lait).",
        cooking_en="No cooking: vegetables washed and cut the morning of delivery.",
        cooking_fr="Sans cuisson : légumes lavés et coupés le matin de la livraison.",
        nutrition=(380, 15, 4, 0, 15, 640, 48, 460, 8, 5, 13, 70, 70, 12, 20),
        allergens=("wheat", "sesame", "garlic", "milk"),
        small_cents=500,
        large_cents=650,
    ),
)
