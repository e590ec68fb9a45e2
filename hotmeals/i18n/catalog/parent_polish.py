"""What a parent trips over: the confirmation's own address, the meals to
cancel, the order summary's lines and the other screens' new words."""

EN = {
    "checkout.go_to_orders": "See my orders",
    "ui.manage.meal_cancelled": "Meal cancelled",
    "ui.manage.cancelled_badge": "Cancelled",
    "charge.tax_rate": "Tax (HST {rate})",
}

FR = {
    "checkout.go_to_orders": "Voir mes commandes",
    "ui.manage.meal_cancelled": "Repas annulé",
    "ui.manage.cancelled_badge": "Annulé",
    "charge.tax_rate": "Taxe (TVH {rate})",
}
