"""Messages and labels of 'Many days at once' and 'Repeat last week' (issue 9, screen 2)."""

EN: dict[str, str] = {
    # services/booking.py
    "booking_no_items": "Please choose at least one day and a meal",
    "booking_too_many": "Please book at most {max} meals at once",
    "booking_item_invalid": "This choice could not be read",
    "booking_result": "Meals added to cart: {added}. Not added: {refused}.",
    "repeat_same_week": "Please choose another week to copy to",
    "repeat_week_empty": "No meals were chosen for the week of {date}",
    "repeat_already_in_cart": "Already in your cart",
    "repeat_already_ordered": "Already ordered",
    "repeat_result": "Meals copied to your cart: {added}. Not copied: {refused}.",
}

FR: dict[str, str] = {
    "booking_no_items": "Veuillez choisir au moins une journée et un repas",
    "booking_too_many": "Veuillez réserver au plus {max} repas à la fois",
    "booking_item_invalid": "Ce choix n'a pas pu être lu",
    "booking_result": "Repas ajoutés au panier : {added}. Non ajoutés : {refused}.",
    "repeat_same_week": "Veuillez choisir une autre semaine où copier",
    "repeat_week_empty": "Aucun repas n'a été choisi pour la semaine du {date}",
    "repeat_already_in_cart": "Déjà dans votre panier",
    "repeat_already_ordered": "Déjà commandé",
    "repeat_result": "Repas copiés dans votre panier : {added}. Non copiés : {refused}.",
}
