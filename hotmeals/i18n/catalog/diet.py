"""Dietary needs and marks: their names, what a meal misses, the notice before booking a meal
that does not fit, the skips of standing orders and repeat-a-week (docs/product.md, "Dietary
needs")."""

EN: dict[str, str] = {
    "diet_vegetarian": "Vegetarian",
    "diet_vegan": "Vegan",
    "diet_halal": "Halal",
    "diet_no_pork": "No pork",
    "diet_no_beef": "No beef",
    "diet_gluten_free": "Gluten-free",
    "diet_unmet_vegetarian": "Not vegetarian",
    "diet_unmet_vegan": "Not vegan",
    "diet_unmet_halal": "Not halal",
    "diet_unmet_no_pork": "Not marked pork-free",
    "diet_unmet_no_beef": "Not marked beef-free",
    "diet_unmet_gluten_free": "Not marked gluten-free",
    "diet_whose": "{name}'s",
    "diet_unknown": "Unknown dietary need: {codes}",
    "diet_ack_required": (
        "{meal} does not fit {whose} diet ({missing}). Confirm that you want it anyway "
        "before adding it"
    ),
    "diet_skipped": "{meal} does not fit {whose} diet ({missing})",
    # screens
    "ui.diet.legend": "Dietary needs",
    "ui.diet.help": (
        "A preference, not an allergy: meals that fit are marked, and you can still book "
        "one that does not after a notice."
    ),
    "ui.diet.fits": "Fits {whose} diet",
    "ui.diet.misses": "Does not fit {whose} diet: {missing}",
    "ui.diet.safe_for_help": (
        "Hides the meals {name} cannot have (Major allergy) and those that do not fit {whose} diet."
    ),
    "ui.diet.hidden.one": "{count} hidden: {name} cannot have it or it does not fit {whose} diet.",
    "ui.diet.hidden.other": (
        "{count} hidden: {name} cannot have them or they do not fit {whose} diet."
    ),
    "ui.diet.confirm": "Add it anyway",
    "ui.diet.many_ack": "Does not fit the child's diet ({missing}): book it anyway",
}

FR: dict[str, str] = {
    "diet_vegetarian": "Végétarien",
    "diet_vegan": "Végétalien",
    "diet_halal": "Halal",
    "diet_no_pork": "Sans porc",
    "diet_no_beef": "Sans bœuf",
    "diet_gluten_free": "Sans gluten",
    "diet_unmet_vegetarian": "Non végétarien",
    "diet_unmet_vegan": "Non végétalien",
    "diet_unmet_halal": "Non halal",
    "diet_unmet_no_pork": "Non marqué sans porc",
    "diet_unmet_no_beef": "Non marqué sans bœuf",
    "diet_unmet_gluten_free": "Non marqué sans gluten",
    "diet_whose": "de {name}",
    "diet_unknown": "Besoin alimentaire inconnu : {codes}",
    "diet_ack_required": (
        "{meal} ne convient pas au régime {whose} ({missing}). Confirmez que vous le voulez "
        "quand même avant de l'ajouter"
    ),
    "diet_skipped": "{meal} ne convient pas au régime {whose} ({missing})",
    # screens
    "ui.diet.legend": "Besoins alimentaires",
    "ui.diet.help": (
        "Une préférence, pas une allergie : les repas qui conviennent sont indiqués, et vous "
        "pouvez quand même réserver un repas qui ne convient pas, après un avis."
    ),
    "ui.diet.fits": "Convient au régime {whose}",
    "ui.diet.misses": "Ne convient pas au régime {whose} : {missing}",
    "ui.diet.safe_for_help": (
        "Masque les repas interdits à {name} (allergie majeure) et ceux qui ne conviennent "
        "pas au régime {whose}."
    ),
    "ui.diet.hidden.one": (
        "{count} repas masqué : interdit à {name} ou ne convenant pas au régime {whose}."
    ),
    "ui.diet.hidden.other": (
        "{count} repas masqués : interdits à {name} ou ne convenant pas au régime {whose}."
    ),
    "ui.diet.confirm": "L'ajouter quand même",
    "ui.diet.many_ack": (
        "Ne convient pas au régime de l'enfant ({missing}) : le réserver quand même"
    ),
}
