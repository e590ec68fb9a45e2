"""Standing orders: the service's messages and e-mails
(``services/standing.py``) and the standing orders screen and its choices in Book meal."""

EN = {
    # errors
    "standing_bad_end": "Choose an end date from today to a year from now.",
    "standing_bad_day": "A standing order repeats on a school day, Monday to Friday.",
    "standing_too_many": "You can have at most {max} standing orders.",
    "standing_not_found": "Standing order not found.",
    "standing_bad_action": "Choose pause, resume or end.",
    "standing_ended": "This standing order has ended.",
    "standing_created": "Standing order set up",
    "standing_paused": "Standing order paused",
    "standing_resumed": "Standing order resumed",
    "standing_ended_ok": "Standing order ended",
    # listing
    "standing.summary": "Every {weekday}: {meal} ({size}) for {child}",
    "standing.until": "Until {day}",
    "standing.next": "Next: {day}",
    "standing.paused_note": "Paused: no day is booked until you resume it.",
    "standing.status.active": "Active",
    "standing.status.paused": "Paused",
    "standing.status.ended": "Ended",
    "standing.last.booked": "{day}: booked and paid",
    "standing.last.charging": "{day}: payment on its way",
    "standing.last.in_cart": "{day}: waiting in your cart",
    "standing.last.skipped": "{day}: skipped ({reason})",
    "standing.reason.closed": "no school meals that day",
    "standing.reason.not_served": "the meal is not on that day's menu",
    "standing.reason.allergy": "the meal does not suit the child's allergies",
    "standing.reason.diet": "the meal does not fit the child's diet",
    "standing.reason.child": "the child's profile is no longer active",
    "standing.reason.school_year": (
        "the new school year is not confirmed yet for this child (open Book meal to confirm it)"
    ),
    "standing.reason.booked": "a meal was already booked or in your cart",
    "standing.reason.no_card": "no saved card",
    "standing.reason.declined": "the card was declined",
    "standing.why.no_card": "You have no saved card, so we could not pay for it",
    "standing.why.declined": "Your saved card was declined for {amount}",
    # e-mails
    "mail.standing_skipped.subject": "Standing order: no {meal} for {child} on {day}",
    "mail.standing_skipped.body": (
        "Hello {first_name},\n\n"
        "Your standing order did not book {meal} for {child} on {day}: {reason}. "
        "Nothing was charged.\n\n"
        "Book another meal: {book_url}\n"
        "Your standing orders: {standing_url}\n\n"
        "The Hot Meals team"
    ),
    "mail.standing_in_cart.subject": "Standing order: {meal} for {child} on {day} is in your cart",
    "mail.standing_in_cart.body": (
        "Hello {first_name},\n\n"
        "Your standing order put {meal} for {child} on {day} in your cart. {why}: "
        "pay for it before {closes} so that it is served.\n\n"
        "Your cart: {cart_url}\n"
        "Your standing orders: {standing_url}\n\n"
        "The Hot Meals team"
    ),
    # the screen and Book meal's choice
    "title.standing_orders": "Standing orders | Hot Meals",
    "standing_ui.menu": "Standing orders",
    "standing_ui.manage": "Standing orders: repeat a meal every week",
    "standing_ui.title": "Standing orders",
    "standing_ui.intro": (
        "A meal booked for you every week. Before each cut-off we book it and pay with your "
        "saved card; a day without school meals, or a meal that does not suit your child's "
        "allergies, is skipped and we e-mail you."
    ),
    "standing_ui.empty": (
        'No standing orders yet. In Book meal, open a meal and choose "Repeat every…".'
    ),
    "standing_ui.book_link": "Book meal",
    "standing_ui.pause": "Pause",
    "standing_ui.resume": "Resume",
    "standing_ui.end": "End",
    "standing_ui.end_title": "End this standing order?",
    "standing_ui.end_text": (
        "No more days will be booked. Meals already booked stay booked; you can cancel them "
        "in My orders."
    ),
    "standing_ui.end_cancel": "Keep it",
    "standing_ui.repeat": "Repeat every {weekday}",
    "standing_ui.repeat_explain": (
        "We book this meal every week before its cut-off and pay with your saved card. "
        "Without a saved card it waits in your cart and we e-mail you."
    ),
    "standing_ui.until_label": "Until",
    "standing_ui.until_term": "End of term ({day})",
    "standing_ui.until_year": "End of school year ({day})",
    "standing_ui.until_date": "A date I choose",
    "standing_ui.ends_on_label": "Last day",
    "standing_ui.set_up": "Set up standing order",
    "standing_ui.see_all": "See my standing orders",
    "standing_ui.close": "Close",
}

FR = {
    "standing_bad_end": "Choisissez une date de fin entre aujourd'hui et dans un an.",
    "standing_bad_day": "Une commande régulière se répète un jour d'école, du lundi au vendredi.",
    "standing_too_many": "Vous pouvez avoir au plus {max} commandes régulières.",
    "standing_not_found": "Commande régulière introuvable.",
    "standing_bad_action": "Choisissez suspendre, reprendre ou arrêter.",
    "standing_ended": "Cette commande régulière est terminée.",
    "standing_created": "Commande régulière créée",
    "standing_paused": "Commande régulière suspendue",
    "standing_resumed": "Commande régulière reprise",
    "standing_ended_ok": "Commande régulière arrêtée",
    "standing.summary": "Chaque {weekday} : {meal} ({size}) pour {child}",
    "standing.until": "Jusqu'au {day}",
    "standing.next": "Prochain : {day}",
    "standing.paused_note": "Suspendue : aucun jour n'est réservé avant la reprise.",
    "standing.status.active": "Active",
    "standing.status.paused": "Suspendue",
    "standing.status.ended": "Terminée",
    "standing.last.booked": "{day} : réservé et payé",
    "standing.last.charging": "{day} : paiement en cours",
    "standing.last.in_cart": "{day} : en attente dans votre panier",
    "standing.last.skipped": "{day} : sauté ({reason})",
    "standing.reason.closed": "pas de repas à l'école ce jour-là",
    "standing.reason.not_served": "le repas n'est pas au menu ce jour-là",
    "standing.reason.allergy": "le repas ne convient pas aux allergies de l'enfant",
    "standing.reason.diet": "le repas ne convient pas au régime de l'enfant",
    "standing.reason.child": "le profil de l'enfant n'est plus actif",
    "standing.reason.school_year": (
        "la nouvelle année scolaire n'est pas encore confirmée pour cet enfant"
        " (ouvrez Réserver un repas pour la confirmer)"
    ),
    "standing.reason.booked": "un repas était déjà réservé ou dans votre panier",
    "standing.reason.no_card": "aucune carte enregistrée",
    "standing.reason.declined": "la carte a été refusée",
    "standing.why.no_card": (
        "Vous n'avez aucune carte enregistrée, nous n'avons donc pas pu le payer"
    ),
    "standing.why.declined": "Votre carte enregistrée a été refusée pour {amount}",
    "mail.standing_skipped.subject": "Commande régulière : pas de {meal} pour {child} le {day}",
    "mail.standing_skipped.body": (
        "Bonjour {first_name},\n\n"
        "Votre commande régulière n'a pas réservé {meal} pour {child} le {day} : {reason}. "
        "Rien n'a été facturé.\n\n"
        "Réserver un autre repas : {book_url}\n"
        "Vos commandes régulières : {standing_url}\n\n"
        "L'équipe Hot Meals"
    ),
    "mail.standing_in_cart.subject": (
        "Commande régulière : {meal} pour {child} le {day} est dans votre panier"
    ),
    "mail.standing_in_cart.body": (
        "Bonjour {first_name},\n\n"
        "Votre commande régulière a mis {meal} pour {child} le {day} dans votre panier. {why} : "
        "payez-le avant le {closes} pour qu'il soit servi.\n\n"
        "Votre panier : {cart_url}\n"
        "Vos commandes régulières : {standing_url}\n\n"
        "L'équipe Hot Meals"
    ),
    "title.standing_orders": "Commandes régulières | Hot Meals",
    "standing_ui.menu": "Commandes régulières",
    "standing_ui.manage": "Commandes régulières : un repas chaque semaine",
    "standing_ui.title": "Commandes régulières",
    "standing_ui.intro": (
        "Un repas réservé pour vous chaque semaine. Avant chaque date limite, nous le "
        "réservons et le payons avec votre carte enregistrée; un jour sans repas à l'école, ou "
        "un repas qui ne convient pas aux allergies de votre enfant, est sauté et nous vous "
        "écrivons."
    ),
    "standing_ui.empty": (
        "Aucune commande régulière pour l'instant. Dans Réserver un repas, ouvrez un repas et "
        "choisissez « Répéter chaque… »."
    ),
    "standing_ui.book_link": "Réserver un repas",
    "standing_ui.pause": "Suspendre",
    "standing_ui.resume": "Reprendre",
    "standing_ui.end": "Arrêter",
    "standing_ui.end_title": "Arrêter cette commande régulière?",
    "standing_ui.end_text": (
        "Plus aucun jour ne sera réservé. Les repas déjà réservés le restent; vous pouvez les "
        "annuler dans Mes commandes."
    ),
    "standing_ui.end_cancel": "La garder",
    "standing_ui.repeat": "Répéter chaque {weekday}",
    "standing_ui.repeat_explain": (
        "Nous réservons ce repas chaque semaine avant la date limite et le payons avec votre "
        "carte enregistrée. Sans carte enregistrée, il attend dans votre panier et nous vous "
        "écrivons."
    ),
    "standing_ui.until_label": "Jusqu'à",
    "standing_ui.until_term": "Fin de l'étape ({day})",
    "standing_ui.until_year": "Fin de l'année scolaire ({day})",
    "standing_ui.until_date": "Une date de mon choix",
    "standing_ui.ends_on_label": "Dernier jour",
    "standing_ui.set_up": "Créer la commande régulière",
    "standing_ui.see_all": "Voir mes commandes régulières",
    "standing_ui.close": "Fermer",
}
