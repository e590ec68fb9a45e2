"""The kitchen's day: refusals, the labels and the production list (services/kitchen.py,
services/kitchen_files.py, api/kitchen.py, the operator's commands)."""

EN = {
    "kitchen_before_cutoff": (
        "The kitchen's list and labels for {vendor} on {date} are ready once its cut-off has "
        "passed ({cutoff}, Toronto time)"
    ),
    "kitchen_format_invalid": "Choose the labels' format: pdf or csv",
    "kitchen_date_required": "Choose a date",
    "kitchen_lang_invalid": "Choose the language: en or fr",
    "kitchen.title": "Production list",
    "kitchen.labels_title": "Labels",
    "kitchen.heading": "{school} · {vendor} · {day}",
    "kitchen.frozen_at": "Frozen at the first read after the cut-off: {when}",
    "kitchen.attention": "Allergies and dietary needs",
    "kitchen.attention_none": "No child with an allergy or a dietary need.",
    "kitchen.meals": "Meals",
    "kitchen.addons": "Add-ons",
    "kitchen.addons_none": "No add-ons.",
    "kitchen.total.one": "Total: {count} meal",
    "kitchen.total.other": "Total: {count} meals",
    "kitchen.no_meals": "No meals booked for this day.",
    "kitchen.major_box": "MAJOR ALLERGY",
    "kitchen.allergies": "Allergies: {allergies}",
    "kitchen.allergy_in_meal": "{allergen} ({level}, IN THIS MEAL)",
    "kitchen.in_meal": "IN THIS MEAL",
    "kitchen.allergy": "{allergen} ({level})",
    "kitchen.diet": "Diet: {needs}",
    "kitchen.diet_fits": "fits",
    "kitchen.diet_unmet": "NOT met: {needs}",
    "kitchen.note": "Message: “{note}”",
    "kitchen.grade": "Grade",
    "kitchen.copy": "meal {copy} of {copies}",
}

FR = {
    "kitchen_before_cutoff": (
        "La liste de production et les étiquettes de {vendor} pour le {date} seront prêtes une "
        "fois son heure limite passée ({cutoff}, heure de Toronto)"
    ),
    "kitchen_format_invalid": "Choisissez le format des étiquettes : pdf ou csv",
    "kitchen_date_required": "Choisissez une date",
    "kitchen_lang_invalid": "Choisissez la langue : en ou fr",
    "kitchen.title": "Liste de production",
    "kitchen.labels_title": "Étiquettes",
    "kitchen.heading": "{school} · {vendor} · {day}",
    "kitchen.frozen_at": "Figée à la première lecture après l'heure limite : {when}",
    "kitchen.attention": "Allergies et besoins alimentaires",
    "kitchen.attention_none": "Aucun enfant n'a d'allergie ni de besoin alimentaire.",
    "kitchen.meals": "Repas",
    "kitchen.addons": "Suppléments",
    "kitchen.addons_none": "Aucun supplément.",
    "kitchen.total.one": "Total : {count} repas",
    "kitchen.total.other": "Total : {count} repas",
    "kitchen.no_meals": "Aucun repas commandé pour ce jour.",
    "kitchen.major_box": "ALLERGIE MAJEURE",
    "kitchen.allergies": "Allergies : {allergies}",
    "kitchen.allergy_in_meal": "{allergen} ({level}, DANS CE REPAS)",
    "kitchen.in_meal": "DANS CE REPAS",
    "kitchen.allergy": "{allergen} ({level})",
    "kitchen.diet": "Régime : {needs}",
    "kitchen.diet_fits": "convient",
    "kitchen.diet_unmet": "NON respecté : {needs}",
    "kitchen.note": "Message : «\u00a0{note}\u00a0»",
    "kitchen.grade": "Année",
    "kitchen.copy": "repas {copy} sur {copies}",
}
