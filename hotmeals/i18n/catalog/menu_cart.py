"""Messages and labels of the menu and the cart (issue 9)."""

EN: dict[str, str] = {
    # menu
    "meal_date_required": "Please choose a date",
    "date_range_invalid": "Please choose a range of at most {max} days, the end after the start",
    "menu_date_not_served": "Your child's school has no meals on {date}",
    "menu_day_closed": "No meals on {date}: {reason}",
    "meal_not_found": "Meal not found",
    "vendor_not_found": "Vendor not found",
    "nutrition_calories": "Calories",
    "nutrition_fat": "Fat",
    "nutrition_saturated_fat": "Saturated fat",
    "nutrition_trans_fat": "Trans fat",
    "nutrition_cholesterol": "Cholesterol",
    "nutrition_sodium": "Sodium",
    "nutrition_carbohydrate": "Carbohydrate",
    "nutrition_potassium": "Potassium",
    "nutrition_fibres": "Fibres",
    "nutrition_sugars": "Sugars",
    "nutrition_protein": "Protein",
    "nutrition_vitamin_a": "Vitamin A",
    "nutrition_vitamin_c": "Vitamin C",
    "nutrition_calcium": "Calcium",
    "nutrition_iron": "Iron",
    # allergies (domain/allergy.py ensure_can_add)
    "allergy_refused": (
        "This meal contains {allergens}, a Major allergy of this child: it cannot be added"
    ),
    "allergy_ack_required": (
        "This meal contains {allergens}. Please confirm that you understand before adding it"
    ),
    "allergy_ack_text": "I understand this meal contains {allergens}",
    "allergy_notice": "Contains {allergens} (low alert level)",
}

FR: dict[str, str] = {
    "meal_date_required": "Veuillez choisir une date",
    "date_range_invalid": (
        "Veuillez choisir une période d'au plus {max} jours, la fin après le début"
    ),
    "menu_date_not_served": "L'école de votre enfant n'offre pas de repas le {date}",
    "menu_day_closed": "Aucun repas le {date} : {reason}",
    "meal_not_found": "Repas introuvable",
    "vendor_not_found": "Traiteur introuvable",
    "nutrition_calories": "Calories",
    "nutrition_fat": "Lipides",
    "nutrition_saturated_fat": "Gras saturés",
    "nutrition_trans_fat": "Gras trans",
    "nutrition_cholesterol": "Cholestérol",
    "nutrition_sodium": "Sodium",
    "nutrition_carbohydrate": "Glucides",
    "nutrition_potassium": "Potassium",
    "nutrition_fibres": "Fibres",
    "nutrition_sugars": "Sucres",
    "nutrition_protein": "Protéines",
    "nutrition_vitamin_a": "Vitamine A",
    "nutrition_vitamin_c": "Vitamine C",
    "nutrition_calcium": "Calcium",
    "nutrition_iron": "Fer",
    "allergy_refused": (
        "Ce repas contient : {allergens}, une allergie majeure de cet enfant : il ne peut pas "
        "être ajouté"
    ),
    "allergy_ack_required": (
        "Ce repas contient : {allergens}. Veuillez confirmer que vous le comprenez avant de "
        "l'ajouter"
    ),
    "allergy_ack_text": "Je comprends que ce repas contient : {allergens}",
    "allergy_notice": "Contient : {allergens} (niveau d'alerte faible)",
}
