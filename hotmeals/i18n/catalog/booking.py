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
    # the 'Book several days' panel (ui/components/many_days.py)
    "ui.many.intro": "Pick the days, a meal for each, then add them all to the cart at once.",
    "ui.many.who": "For which children?",
    "ui.many.which_days": "Which days?",
    "ui.many.this_week": "This week",
    "ui.many.next_week": "Next week",
    "ui.many.month": "Rest of the month",
    "ui.many.meal": "Meal",
    "ui.many.size": "Size",
    "ui.many.not_for_child": "not for this child (Major allergy)",
    "ui.many.in_cart": "{n} in cart",
    "ui.many.ordered": "{n} ordered",
    "ui.many.no_days": "No school meal days in this period.",
    "ui.many.week_of": "Week of {day}",
    "ui.many.add_none": "Tick the days to add",
    "ui.many.add_one": "Add 1 meal to cart",
    "ui.many.add_n": "Add {n} meals to cart",
    "ui.many.adding": "Adding…",
    "ui.many.added": "Added to your cart",
    "ui.many.refused": "Could not be added",
    "ui.many.skipped": "Already there",
    "ui.many.go_cart": "Go to the cart",
    "ui.many.repeat_title": "Repeat last week",
    "ui.many.repeat_intro": (
        "Copy the meals chosen in one week to the same weekdays of another week, wherever the "
        "same meal is served."
    ),
    "ui.many.copy_from": "Copy the meals of",
    "ui.many.copy_to": "Into",
    "ui.many.repeat": "Repeat this week",
    "ui.many.repeating": "Copying…",
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
    "ui.many.intro": (
        "Choisissez les journées, un repas pour chacune, puis ajoutez-les tous au panier d'un coup."
    ),
    "ui.many.who": "Pour quels enfants?",
    "ui.many.which_days": "Quelles journées?",
    "ui.many.this_week": "Cette semaine",
    "ui.many.next_week": "La semaine prochaine",
    "ui.many.month": "Le reste du mois",
    "ui.many.meal": "Repas",
    "ui.many.size": "Taille",
    "ui.many.not_for_child": "pas pour cet enfant (allergie majeure)",
    "ui.many.in_cart": "{n} au panier",
    "ui.many.ordered": "{n} commandé(s)",
    "ui.many.no_days": "Aucune journée de repas scolaire dans cette période.",
    "ui.many.week_of": "Semaine du {day}",
    "ui.many.add_none": "Cochez les journées à ajouter",
    "ui.many.add_one": "Ajouter 1 repas au panier",
    "ui.many.add_n": "Ajouter {n} repas au panier",
    "ui.many.adding": "Ajout en cours…",
    "ui.many.added": "Ajoutés à votre panier",
    "ui.many.refused": "N'ont pas pu être ajoutés",
    "ui.many.skipped": "Déjà là",
    "ui.many.go_cart": "Aller au panier",
    "ui.many.repeat_title": "Répéter la semaine dernière",
    "ui.many.repeat_intro": (
        "Copiez les repas choisis une semaine aux mêmes jours d'une autre semaine, partout où le "
        "même repas est offert."
    ),
    "ui.many.copy_from": "Copier les repas de la",
    "ui.many.copy_to": "Dans la",
    "ui.many.repeat": "Répéter cette semaine",
    "ui.many.repeating": "Copie en cours…",
}
