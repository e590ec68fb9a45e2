"""Trillium Fresh Catering's menu (demo data): hearty Canadian favourites. Nutrition is for
the small portion, in the order of ``seed_types.NUTRITION_FIELDS``."""

from __future__ import annotations

from hotmeals.db.seed_types import MealSpec, Option

GF_BUN = Option("Gluten-free bun", "Pain sans gluten", 75, ("eggs",))

MEALS: tuple[MealSpec, ...] = (
    MealSpec(
        slug="chili-cornbread",
        name_en="Mild Beef Chili with Cornbread",
        name_fr="Chili doux au bœuf et pain de maïs",
        description_en="A gentle beef and bean chili with a square of warm cornbread.",
        description_fr="Un chili doux au bœuf et aux haricots, avec un carré de pain de maïs "
        "tiède.",
        ingredients_en="Lean ground beef, kidney beans, tomatoes, onion, bell pepper, mild chili "
        "spices, cornbread (cornmeal, wheat flour, milk, eggs, butter).",
        ingredients_fr="Bœuf haché maigre, haricots rouges, tomates, oignon, poivron, épices à "
        "chili douces, pain de maïs (farine de maïs, farine de blé, lait, œufs, beurre).",
        cooking_en="Chili simmered for three hours; cornbread baked fresh each morning.",
        cooking_fr="Chili mijoté trois heures; pain de maïs cuit chaque matin.",
        nutrition=(500, 17, 7, 0.6, 80, 790, 60, 820, 10, 12, 28, 20, 25, 10, 30),
        allergens=("corn", "wheat", "milk", "eggs", "tomato", "onion"),
        small_cents=575,
        large_cents=725,
        bulk_discount_cents=25,
    ),
    MealSpec(
        slug="grilled-cheese-tomato-soup",
        name_en="Grilled Cheese with Tomato Soup",
        name_fr="Sandwich au fromage fondant et soupe aux tomates",
        description_en="A golden grilled cheese sandwich with a cup of creamy tomato soup for "
        "dipping.",
        description_fr="Un sandwich au fromage grillé et doré, avec une tasse de soupe crémeuse "
        "aux tomates pour y tremper.",
        ingredients_en="Whole-wheat bread (wheat), cheddar cheese (milk), butter (milk), tomato "
        "soup (tomatoes, onion, celery, cream [milk], basil).",
        ingredients_fr="Pain de blé entier (blé), cheddar (lait), beurre (lait), soupe aux "
        "tomates (tomates, oignon, céleri, crème [lait], basilic).",
        cooking_en="Sandwiches griddled until crisp; soup simmered and blended smooth.",
        cooking_fr="Sandwichs grillés jusqu'à ce qu'ils soient croustillants; soupe mijotée "
        "puis mixée.",
        nutrition=(440, 20, 11, 0.6, 50, 920, 46, 540, 5, 10, 18, 20, 30, 35, 15),
        allergens=("wheat", "milk", "tomato", "onion", "celery"),
        small_cents=525,
        large_cents=700,
        meal_options=(Option("Gluten-free bread", "Pain sans gluten", 75, ("eggs",)),),
    ),
    MealSpec(
        slug="pancakes-sausage",
        name_en="Pancakes with Turkey Sausage",
        name_fr="Crêpes épaisses et saucisses de dinde",
        description_en="Breakfast for lunch: fluffy pancakes with Ontario maple syrup, turkey "
        "sausages and sliced strawberries.",
        description_fr="Le déjeuner au dîner : crêpes épaisses, sirop d'érable de l'Ontario, "
        "saucisses de dinde et fraises tranchées.",
        ingredients_en="Pancakes (wheat flour, milk, eggs, baking powder), turkey sausage, maple "
        "syrup, strawberries.",
        ingredients_fr="Crêpes (farine de blé, lait, œufs, poudre à pâte), saucisses de dinde, "
        "sirop d'érable, fraises.",
        cooking_en="Pancakes cooked on the griddle; sausages oven-roasted.",
        cooking_fr="Crêpes cuites sur la plaque; saucisses rôties au four.",
        nutrition=(470, 15, 5, 0.2, 110, 690, 66, 330, 2, 22, 19, 6, 35, 15, 15),
        allergens=("wheat", "milk", "eggs", "strawberries"),
        small_cents=525,
        large_cents=700,
        bulk_discount_cents=25,
        meal_options=(Option("Syrup on the side", "Sirop à part", 0),),
    ),
    MealSpec(
        slug="chicken-pot-pie",
        name_en="Chicken Pot Pie",
        name_fr="Pâté au poulet",
        description_en="Chicken and vegetables in a creamy gravy under a flaky golden crust.",
        description_fr="Poulet et légumes dans une sauce crémeuse sous une croûte dorée et "
        "feuilletée.",
        ingredients_en="Chicken, carrots, peas, celery, onion, gravy (wheat flour, milk, butter, "
        "chicken broth), pastry (wheat flour, butter).",
        ingredients_fr="Poulet, carottes, petits pois, céleri, oignon, sauce (farine de blé, "
        "lait, beurre, bouillon de poulet), pâte (farine de blé, beurre).",
        cooking_en="Individual pies baked at 200 °C until the crust is golden.",
        cooking_fr="Pâtés individuels cuits à 200 °C jusqu'à ce que la croûte soit dorée.",
        nutrition=(510, 26, 12, 0.8, 65, 780, 48, 420, 4, 5, 22, 70, 6, 6, 15),
        allergens=("wheat", "milk", "celery", "onion"),
        small_cents=575,
        large_cents=725,
    ),
    MealSpec(
        slug="beef-burger",
        name_en="Beef Burger on a Sesame Bun",
        name_fr="Hamburger au bœuf sur pain au sésame",
        description_en="An Ontario beef patty with cheddar, lettuce and tomato on a toasted "
        "sesame bun.",
        description_fr="Galette de bœuf de l'Ontario, cheddar, laitue et tomate sur un pain au "
        "sésame grillé.",
        ingredients_en="Ontario beef patty, sesame bun (wheat, sesame), cheddar slice (milk), "
        "lettuce, tomato, ketchup, prepared mustard.",
        ingredients_fr="Galette de bœuf de l'Ontario, pain au sésame (blé, sésame), tranche de "
        "cheddar (lait), laitue, tomate, ketchup, moutarde préparée.",
        cooking_en="Patties char-grilled to 71 °C inside; buns toasted.",
        cooking_fr="Galettes grillées jusqu'à 71 °C à cœur; pains grillés.",
        nutrition=(520, 24, 10, 1.0, 75, 820, 42, 480, 3, 8, 31, 8, 10, 15, 30),
        allergens=("wheat", "sesame", "milk", "tomato", "mustard"),
        small_cents=600,
        large_cents=725,
        meal_options=(GF_BUN, Option("No cheese", "Sans fromage", 0)),
    ),
    MealSpec(
        slug="maple-salmon-rice",
        name_en="Maple-Glazed Salmon with Rice",
        name_fr="Saumon glacé à l'érable et riz",
        description_en="Flaky salmon with a sweet maple-soy glaze, rice and green beans.",
        description_fr="Saumon tendre glacé à l'érable et au soja, riz et haricots verts.",
        ingredients_en="Atlantic salmon (fish), maple syrup, soy sauce (soy, wheat), garlic, "
        "rice, green beans.",
        ingredients_fr="Saumon de l'Atlantique (poisson), sirop d'érable, sauce soja (soja, "
        "blé), ail, riz, haricots verts.",
        cooking_en="Salmon brushed with glaze and roasted at 200 °C for twelve minutes.",
        cooking_fr="Saumon badigeonné de glaçage et rôti à 200 °C pendant douze minutes.",
        nutrition=(450, 14, 3, 0, 60, 540, 52, 720, 2, 11, 27, 6, 8, 4, 8),
        allergens=("fish", "soy", "wheat", "garlic"),
        small_cents=600,
        large_cents=725,
    ),
    MealSpec(
        slug="mini-tourtiere",
        name_en="Mini Tourtière with Green Salad",
        name_fr="Mini-tourtière et salade verte",
        description_en="A small spiced pork and beef pie, a French-Canadian classic, with a "
        "green salad.",
        description_fr="Une petite tourtière au porc et au bœuf épicés, classique "
        "canadienne-française, avec une salade verte.",
        ingredients_en="Ground pork and beef, potato, onion, cinnamon, cloves, pastry (wheat "
        "flour, butter [milk]), lettuce, cucumber, vinaigrette (canola oil, cider vinegar, Dijon "
        "mustard).",
        ingredients_fr="Porc et bœuf hachés, pomme de terre, oignon, cannelle, clou de girofle, "
        "pâte (farine de blé, beurre [lait]), laitue, concombre, vinaigrette (huile de canola, "
        "vinaigre de cidre, moutarde de Dijon).",
        cooking_en="Filling simmered with spices, then baked in pastry at 190 °C.",
        cooking_fr="Garniture mijotée aux épices, puis cuite en croûte à 190 °C.",
        nutrition=(490, 27, 11, 0.8, 60, 640, 42, 480, 3, 3, 19, 15, 10, 4, 15),
        allergens=("wheat", "milk", "onion", "cinnamon", "mustard"),
        small_cents=575,
        large_cents=725,
    ),
    MealSpec(
        slug="cheese-quesadilla",
        name_en="Cheese Quesadilla with Salsa",
        name_fr="Quesadilla au fromage et salsa",
        description_en="Crisp tortilla wedges filled with melted mozzarella and cheddar, with "
        "mild salsa and sour cream.",
        description_fr="Pointes de tortilla croustillantes garnies de mozzarella et de cheddar "
        "fondus, salsa douce et crème sure.",
        ingredients_en="Flour tortilla (wheat), mozzarella and cheddar (milk), mild salsa "
        "(tomato, onion, cilantro), sour cream (milk).",
        ingredients_fr="Tortilla de farine (blé), mozzarella et cheddar (lait), salsa douce "
        "(tomate, oignon, coriandre), crème sure (lait).",
        cooking_en="Pressed on a hot griddle until the cheese melts and the tortilla crisps.",
        cooking_fr="Pressée sur une plaque chaude jusqu'à ce que le fromage fonde.",
        nutrition=(430, 19, 10, 0.5, 45, 760, 44, 260, 3, 4, 19, 15, 8, 40, 12),
        allergens=("wheat", "milk", "tomato", "onion"),
        small_cents=500,
        large_cents=650,
    ),
    MealSpec(
        slug="pulled-pork-sandwich",
        name_en="BBQ Pulled Pork Sandwich",
        name_fr="Sandwich au porc effiloché BBQ",
        description_en="Slow-cooked pulled pork in a tangy barbecue sauce on a soft bun, with "
        "creamy coleslaw.",
        description_fr="Porc effiloché cuit lentement dans une sauce barbecue, sur un pain "
        "moelleux, avec salade de chou crémeuse.",
        ingredients_en="Pork shoulder, BBQ sauce (tomato, molasses, vinegar, mustard, onion, "
        "garlic), brioche bun (wheat, eggs, milk), coleslaw (cabbage, carrot, mayonnaise "
        "[eggs]).",
        ingredients_fr="Épaule de porc, sauce BBQ (tomate, mélasse, vinaigre, moutarde, oignon, "
        "ail), pain brioché (blé, œufs, lait), salade de chou (chou, carotte, mayonnaise "
        "[œufs]).",
        cooking_en="Pork braised for eight hours, pulled by hand and tossed in the sauce.",
        cooking_fr="Porc braisé huit heures, effiloché à la main et mélangé à la sauce.",
        nutrition=(540, 19, 6, 0.2, 80, 880, 58, 520, 2, 18, 30, 20, 25, 8, 20),
        allergens=("wheat", "eggs", "milk", "tomato", "mustard", "onion", "garlic", "sulphites"),
        small_cents=600,
        large_cents=725,
        meal_options=(GF_BUN,),
    ),
)
