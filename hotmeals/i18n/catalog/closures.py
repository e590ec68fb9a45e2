"""School closures, the family's closure choice, a child away and meals given to the school
(services/closures.py, services/away.py, api/closures.py, api/admin.py)."""

EN = {
    "closure_choice_invalid": (
        "Choose what happens to a meal on a closed day: card, credit or makeup"
    ),
    "closure_reason_required": "Say why the school is closed",
    "closure_reason_too_long": "The reason is at most {max} characters",
    "closure_school_not_found": "No school {school}",
    "school_day_vendor_not_found": "No vendor {vendor}",
    "school_day_vendor_not_serving": "{vendor} does not serve {school} on {date}",
    "school_day_not_served": "No vendor serves {school} on {date}",
    "closure_school_required": "Choose a school",
    "closure_not_found": "That school is not closed on {date}",
    "closures.choice.card": "Refund to my card",
    "closures.choice.credit": "Add to my family credit",
    "closures.choice.makeup": "A make-up meal on the next day served",
    "closures.reason.storm": "Storm",
    "closures.reason.strike": "Strike",
    "closures.reason.pa_day": "PA day",
    "closures.reason.emergency": "Emergency closure",
    "closures.reason.power": "Power outage",
    "closures.reason.heat": "Heat closure",
    "closures.outcome.makeup": "{child}, {meal}: moved to {day}, at no cost",
    "closures.outcome.card": "{child}, {meal}: {amount} refunded to your card",
    "closures.outcome.credit": "{child}, {meal}: {amount} added to your family credit",
    "closures.outcome.makeup_card": (
        "{child}, {meal}: no later day serves this meal, so {amount} is refunded to your card"
    ),
    "closures_ui.legend": "When the school closes a day you booked",
    "closures_ui.card_text": "The meal is cancelled and the card that paid is refunded.",
    "closures_ui.credit_text": "The meal is cancelled and refunded to your family credit at once.",
    "closures_ui.makeup_text": (
        "The meal moves to the next day the same caterer serves the school, at no cost."
    ),
    "closures_ui.saved": "Your choice for closed days has been saved",
    "mail.school_closed.subject": "{school} is closed on {day}",
    "mail.school_closed.body": (
        "Hello,\n\n"
        "{school} is closed on {day} ({reason}). Here is what happens to the meals you "
        "booked for that day:\n\n"
        "{meals}\n\n"
        "A refund to a card takes a few business days to appear on your statement. You can "
        "choose what happens to meals on a closed day in your notification settings.\n\n"
        "Hot Meals"
    ),
    "admin.api_off": "The admin API is off (HOTMEALS_ADMIN_API_KEY is not set).",
    "admin.bad_key": "Invalid admin key.",
    "away_range_invalid": "Choose a first and a last day, the last on or after the first, "
    "at most {max} days",
    "away_children_required": "Choose at least one child",
    "away_range_past": "The first day cannot be before today",
    "away_total_changed": "The meals of these days changed since you checked them: check again",
    "away_nothing": "No booked meals on these days",
    "away_donate_not_allowed": "Only a meal past its cut-off can be given to the school",
    "away.item.cancel": "Cancelled, with its refund",
    "away.item.past": "Past its cut-off: it will be delivered; you may give it to the school's "
    "student-nutrition program",
    "away.item.donated": "Given to the school's student-nutrition program",
    "away.done.one": "Done: {count} meal cancelled. {refund}",
    "away.done.other": "Done: {count} meals cancelled. {refund}",
    "away.donated.one": (
        "Thank you: {count} meal is given to the school's student-nutrition program."
    ),
    "away.donated.other": (
        "Thank you: {count} meals are given to the school's student-nutrition program."
    ),
    "child_away": "{child} is away on {day}: no meal can be booked for that day",
    "away.day": "{child} is away",
    "away.days_stored": "Done: these days are marked away, no meal can be booked on them",
    "standing.reason.away": "the child is away that day",
    "ui.book.day_away": "{label}",
    "ui.book.legend_away": "Away",
    "ui.book.legend_none": "No hot lunch",
}

FR = {
    "closure_choice_invalid": (
        "Choisissez ce qui arrive à un repas un jour de fermeture : carte, crédit ou reprise"
    ),
    "closure_reason_required": "Indiquez pourquoi l'école est fermée",
    "closure_reason_too_long": "La raison compte au plus {max} caractères",
    "closure_school_not_found": "Aucune école {school}",
    "school_day_vendor_not_found": "Aucun traiteur {vendor}",
    "school_day_vendor_not_serving": "{vendor} ne sert pas {school} le {date}",
    "school_day_not_served": "Aucun traiteur ne sert {school} le {date}",
    "closure_school_required": "Choisissez une école",
    "closure_not_found": "Cette école n'est pas fermée le {date}",
    "closures.choice.card": "Rembourser ma carte",
    "closures.choice.credit": "Ajouter à mon crédit familial",
    "closures.choice.makeup": "Un repas de reprise le prochain jour servi",
    "closures.reason.storm": "Tempête",
    "closures.reason.strike": "Grève",
    "closures.reason.pa_day": "Journée pédagogique",
    "closures.reason.emergency": "Fermeture d'urgence",
    "closures.reason.power": "Panne de courant",
    "closures.reason.heat": "Fermeture pour chaleur",
    "closures.outcome.makeup": "{child}, {meal} : reporté au {day}, sans frais",
    "closures.outcome.card": "{child}, {meal} : {amount} remboursés sur votre carte",
    "closures.outcome.credit": "{child}, {meal} : {amount} ajoutés à votre crédit familial",
    "closures.outcome.makeup_card": (
        "{child}, {meal} : aucun jour suivant ne sert ce repas, {amount} sont donc remboursés "
        "sur votre carte"
    ),
    "closures_ui.legend": "Quand l'école ferme un jour réservé",
    "closures_ui.card_text": "Le repas est annulé et la carte qui a payé est remboursée.",
    "closures_ui.credit_text": (
        "Le repas est annulé et remboursé en crédit familial, tout de suite."
    ),
    "closures_ui.makeup_text": (
        "Le repas est reporté au prochain jour où le même traiteur sert l'école, sans frais."
    ),
    "closures_ui.saved": "Votre choix pour les jours de fermeture a été enregistré",
    "mail.school_closed.subject": "{school} est fermée le {day}",
    "mail.school_closed.body": (
        "Bonjour,\n\n"
        "{school} est fermée le {day} ({reason}). Voici ce qui arrive aux repas réservés pour "
        "ce jour :\n\n"
        "{meals}\n\n"
        "Un remboursement sur une carte paraît sur votre relevé en quelques jours ouvrables. "
        "Vous pouvez choisir ce qui arrive aux repas d'un jour de fermeture dans vos "
        "préférences de notification.\n\n"
        "Hot Meals"
    ),
    "admin.api_off": (
        "L'API d'administration est désactivée (HOTMEALS_ADMIN_API_KEY n'est pas défini)."
    ),
    "admin.bad_key": "Clé d'administration invalide.",
    "away_range_invalid": (
        "Choisissez un premier et un dernier jour, le dernier le même jour ou après, "
        "au plus {max} jours"
    ),
    "away_range_past": "Le premier jour ne peut pas être avant aujourd'hui",
    "away_children_required": "Choisissez au moins un enfant",
    "away_total_changed": (
        "Les repas de ces jours ont changé depuis votre vérification : vérifiez de nouveau"
    ),
    "away_nothing": "Aucun repas réservé ces jours-là",
    "away_donate_not_allowed": (
        "Seul un repas dont l'heure limite est passée peut être donné à l'école"
    ),
    "away.item.cancel": "Annulé, avec son remboursement",
    "away.item.past": (
        "Heure limite passée : il sera livré ; vous pouvez le donner au programme de nutrition "
        "des élèves de l'école"
    ),
    "away.item.donated": "Donné au programme de nutrition des élèves de l'école",
    "away.done.one": "C'est fait : {count} repas annulé. {refund}",
    "away.done.other": "C'est fait : {count} repas annulés. {refund}",
    "away.donated.one": (
        "Merci : {count} repas est donné au programme de nutrition des élèves de l'école."
    ),
    "away.donated.other": (
        "Merci : {count} repas sont donnés au programme de nutrition des élèves de l'école."
    ),
    "child_away": ("{child} n'est pas là le {day} : aucun repas ne peut être réservé ce jour-là"),
    "away.day": "{child} n'est pas là",
    "away.days_stored": (
        "C'est fait : ces jours sont marqués comme absence, aucun repas ne peut y être réservé"
    ),
    "standing.reason.away": "l'enfant n'est pas là ce jour-là",
    "ui.book.day_away": "{label}",
    "ui.book.legend_away": "Absence",
    "ui.book.legend_none": "Pas de repas chaud",
}
