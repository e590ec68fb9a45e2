"""Messages and labels of the menu and the cart."""

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
    # the meal as composed: an option's or add-on's own allergens
    "allergy_item_contains": "{item} contains {allergens}",
    "allergy_in_item": "{allergens} ({item})",
    "allergy_refused_extra": (
        "{items}, a Major allergy of this child: choose another option or leave it out"
    ),
    "allergy_extra_left_out": "{item} left out: it contains {allergens}",
    # cart
    "added_to_cart": "Added to cart Successfully",
    "meal_not_on_menu": "This meal is not on the menu of that day",
    "portion_not_found": "Please choose a size",
    "option_not_found": "Please choose an option from the list",
    "addon_not_found": "Please choose add-ons from the list",
    "special_note_too_long": "Special note should not exceed {max} characters",
    "cart_full": "Your cart is full ({max} items): please pay or remove some first",
    "cart_line_not_found": "Cart item not found",
    "cart_line_deleted": "Item removed from cart",
    "cart_quantity_updated": "Quantity updated",
    "cart_line_past_cutoff": "The ordering deadline for this day has passed",
    "cart_line_unavailable": "This meal is no longer available on this day",
    "giveback_line": "This order gives {school} to the school community and {nutrition} to "
    "local nutrition programs",
    "cart_nothing_payable": "Your cart has no meal that can be paid",
    # promo codes
    "promo_required": "Please enter a promo code",
    "promo_not_found": "This promo code does not exist",
    "promo_not_started": "This promo code can be used from {date}",
    "promo_expired": "This promo code expired on {date}",
    "promo_used_up": "This promo code has already been used",
    "promo_applied": "Promo code applied",
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
    "allergy_item_contains": "{item} contient : {allergens}",
    "allergy_in_item": "{allergens} ({item})",
    "allergy_refused_extra": (
        "{items}, une allergie majeure de cet enfant : choisissez une autre option ou retirez-le"
    ),
    "allergy_extra_left_out": "{item} retiré : il contient {allergens}",
    "added_to_cart": "Ajouté au panier avec succès",
    "meal_not_on_menu": "Ce repas n'est pas au menu de cette journée",
    "portion_not_found": "Veuillez choisir une taille",
    "option_not_found": "Veuillez choisir une option de la liste",
    "addon_not_found": "Veuillez choisir des extras de la liste",
    "special_note_too_long": "Le message spécial ne doit pas dépasser {max} caractères",
    "cart_full": "Votre panier est plein ({max} articles) : veuillez payer ou en retirer d'abord",
    "cart_line_not_found": "Article du panier introuvable",
    "cart_line_deleted": "Article retiré du panier",
    "cart_quantity_updated": "Quantité modifiée",
    "cart_line_past_cutoff": "La date limite de commande pour cette journée est passée",
    "cart_line_unavailable": "Ce repas n'est plus offert cette journée",
    "giveback_line": "Cette commande donne {school} à la communauté scolaire et {nutrition} aux "
    "programmes de nutrition locaux",
    "cart_nothing_payable": "Votre panier ne contient aucun repas qui puisse être payé",
    "promo_required": "Veuillez saisir un code promo",
    "promo_not_found": "Ce code promo n'existe pas",
    "promo_not_started": "Ce code promo peut être utilisé à partir du {date}",
    "promo_expired": "Ce code promo a expiré le {date}",
    "promo_used_up": "Ce code promo a déjà été utilisé",
    "promo_applied": "Code promo appliqué",
}
