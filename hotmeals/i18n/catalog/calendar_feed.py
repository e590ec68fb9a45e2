"""The private calendar feed: ``services/calendar_feed.py``, the account
page's "Calendar" card and the API."""

EN = {
    "feed.title": "Hot Meals",
    "feed.meal": "{child} — {meal} ({size})",
    "feed.order_number": "Order {number}",
    "feed.closed": "No school meals: {reason}",
    "feed.closed_no_reason": "closed",
    "feed.closed_text": "{school} is closed this day: no hot lunch.",
    "feed.child_state": "{child}: {state}",
    "feed.cutoff": "Order by {when} — hot lunch of {day}",
    "feed.cutoff_more.one": "Order by {when} — hot lunch of {day} and {count} more",
    "feed.cutoff_more.other": "Order by {when} — hot lunch of {day} and {count} more",
    "feed.card_title": "Calendar",
    "feed.card_text": (
        "Add your children's meals, school closures and order deadlines to Google Calendar, "
        "Apple Calendar or Outlook: subscribe to this private link. Anyone with the link can "
        "see them, so keep it to yourself."
    ),
    "feed.link_label": "Your private calendar link",
    "feed.copy": "Copy link",
    "feed.copied": "Link copied.",
    "feed.open": "Subscribe",
    "feed.rotate": "Make a new link",
    "feed.rotate_confirm": (
        "The current link will stop working: calendars subscribed to it must subscribe again."
    ),
    "feed.rotated": "New link made. The old one no longer works.",
    "feed.show": "Show my calendar link",
}

FR = {
    "feed.title": "Hot Meals",
    "feed.meal": "{child} — {meal} ({size})",
    "feed.order_number": "Commande {number}",
    "feed.closed": "Pas de repas à l'école : {reason}",
    "feed.closed_no_reason": "fermé",
    "feed.closed_text": "{school} est fermée ce jour-là : pas de repas chaud.",
    "feed.child_state": "{child} : {state}",
    "feed.cutoff": "Commander avant {when} — repas chaud du {day}",
    "feed.cutoff_more.one": "Commander avant {when} — repas chaud du {day} et {count} autre",
    "feed.cutoff_more.other": "Commander avant {when} — repas chaud du {day} et {count} autres",
    "feed.card_title": "Calendrier",
    "feed.card_text": (
        "Ajoutez les repas de vos enfants, les fermetures d'école et les dates limites de "
        "commande à Google Agenda, Apple Calendrier ou Outlook : abonnez-vous à ce lien privé. "
        "Toute personne qui a le lien peut les voir : gardez-le pour vous."
    ),
    "feed.link_label": "Votre lien de calendrier privé",
    "feed.copy": "Copier le lien",
    "feed.copied": "Lien copié.",
    "feed.open": "S'abonner",
    "feed.rotate": "Créer un nouveau lien",
    "feed.rotate_confirm": (
        "Le lien actuel cessera de fonctionner : les calendriers abonnés devront se réabonner."
    ),
    "feed.rotated": "Nouveau lien créé. L'ancien ne fonctionne plus.",
    "feed.show": "Afficher mon lien de calendrier",
}
