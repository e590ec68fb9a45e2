"""Messages and labels of the domain rules (money, pricing, charges, cut-offs, refunds,
orders, dates, allergies). Validation messages are in ``validation.py``."""

EN: dict[str, str] = {
    # money / pricing / charges
    "invalid_amount": "Please enter a valid amount",
    "invalid_quantity": "Please choose a quantity from {min} to {max}",
    "invalid_price_tiers": "Price tiers must start at quantity 1 and not repeat a quantity",
    "price_out_of_range": "Meal prices must be between $5.00 and $7.25",
    "price_unavailable": "This meal has no price for that quantity",
    "promo_min_order_not_met": "This promo code needs a minimum order of {minimum}",
    "portion_small": "1 portion",
    "portion_large": "1 portion + upgrade",
    # cut-offs
    "meal_day_closed": "Orders and changes for {date} are closed",
    # refunds / orders
    "invalid_cancel_quantity": "Please choose a quantity to cancel from 0 to {max}",
    "invalid_order_transition": "This order can no longer be changed ({current} to {new})",
    "invalid_line_transition": "This meal can no longer be changed ({current} to {new})",
    "invalid_payment_transition": "This payment can no longer change ({current} to {new})",
    # dates
    "invalid_date": "Please enter a valid date",
    # allergies
    "invalid_alert_level": "Please select an allergy alert level",
    "allergy_level_major": "Major",
    "allergy_level_medium": "Medium",
    "allergy_level_low": "Low",
    "allergy_level_high": "High",
    "allergy_level_non_allergic": "Non-allergic",
    "allergen_peanuts": "Peanuts",
    "allergen_tree_nuts": "Tree nuts",
    "allergen_milk": "Milk",
    "allergen_eggs": "Eggs",
    "allergen_fish": "Fish",
    "allergen_crustaceans_and_shellfish": "Crustaceans and shellfish",
    "allergen_sesame": "Sesame",
    "allergen_soy": "Soy",
    "allergen_wheat_and_triticale": "Wheat and triticale",
    "allergen_mustard": "Mustard",
    "allergen_sulphites": "Sulphites",
}

FR: dict[str, str] = {
    "invalid_amount": "Veuillez saisir un montant valide",
    "invalid_quantity": "Veuillez choisir une quantité de {min} à {max}",
    "invalid_price_tiers": (
        "Les paliers de prix doivent commencer à la quantité 1 sans répéter de quantité"
    ),
    "price_out_of_range": "Le prix d'un repas doit être compris entre 5,00\u00a0$ et 7,25\u00a0$",
    "price_unavailable": "Ce repas n'a pas de prix pour cette quantité",
    "promo_min_order_not_met": "Ce code promo exige une commande minimale de {minimum}",
    "portion_small": "1 portion",
    "portion_large": "1 portion + upgrade",
    "meal_day_closed": "Les commandes et les modifications pour le {date} sont fermées",
    "invalid_cancel_quantity": "Veuillez choisir une quantité à annuler de 0 à {max}",
    "invalid_order_transition": (
        "Cette commande ne peut plus être modifiée ({current} vers {new})"
    ),
    "invalid_line_transition": "Ce repas ne peut plus être modifié ({current} vers {new})",
    "invalid_payment_transition": "Ce paiement ne peut plus changer ({current} vers {new})",
    "invalid_date": "Veuillez saisir une date valide",
    "invalid_alert_level": "Veuillez sélectionner un niveau d'alerte d'allergie",
    "allergy_level_major": "Majeur",
    "allergy_level_medium": "Moyen",
    "allergy_level_low": "Faible",
    "allergy_level_high": "Élevé",
    "allergy_level_non_allergic": "Non allergique",
    "allergen_peanuts": "Arachides",
    "allergen_tree_nuts": "Noix",
    "allergen_milk": "Lait",
    "allergen_eggs": "Œufs",
    "allergen_fish": "Poisson",
    "allergen_crustaceans_and_shellfish": "Crustacés et mollusques",
    "allergen_sesame": "Graines de sésame",
    "allergen_soy": "Soya",
    "allergen_wheat_and_triticale": "Blé et triticale",
    "allergen_mustard": "Moutarde",
    "allergen_sulphites": "Sulfites",
}
