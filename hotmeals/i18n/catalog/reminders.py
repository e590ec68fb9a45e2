"""The reminders parents switch on in Settings: cut-off reminder, order reminder,
menu updates (``services/reminders.py``), and the unsubscribe page."""

EN = {
    "mail.cutoff_reminder.subject": "Lunch order cut-off {cutoff_day}: some days are not booked",
    "mail.cutoff_reminder.body": (
        "Hello {first_name},\n\n"
        "These school days close for ordering {cutoff_day}, and no meal is booked yet:\n\n"
        "{lines}\n\n"
        "Book meal: {book_url}\n\n"
        "You get this email because the cut-off reminder is on in your settings. "
        "To stop it: {unsubscribe_url}\n\n"
        "The Hot Meals team"
    ),
    "remind.cutoff.day": "{day} (order before {closes})",
    "mail.order_reminder.subject": "Tomorrow: {summary}",
    "mail.order_reminder.body": (
        "Hello {first_name},\n\n"
        "Lunch tomorrow, {day}:\n\n"
        "{lines}\n\n"
        "Book meal: {book_url}\n\n"
        "You get this email because the order reminder is on in your settings. "
        "To stop it: {unsubscribe_url}\n\n"
        "The Hot Meals team"
    ),
    "remind.order.meal": "{meal} ({size})",
    "remind.order.none": "no lunch booked",
    "remind.order.closed": "no hot lunch: {reason}",
    "mail.menu_updates.subject": "A change to a meal you booked",
    "mail.menu_updates.body": (
        "Hello {first_name},\n\n"
        "The school menu changed for a meal you booked:\n\n"
        "{lines}\n\n"
        "Your orders: {orders_url}\n\n"
        "You get this email because menu updates are on in your settings. "
        "To stop them: {unsubscribe_url}\n\n"
        "The Hot Meals team"
    ),
    "remind.menu.line": "{day}, {child}: {meal} × {quantity}. {what}. {then}",
    "remind.menu.closed": "The school day is closed: {reason}",
    "remind.menu.withdrawn": "This meal is no longer on that day's menu",
    "remind.menu.cancel_before": (
        "The meal will not be served: cancel it in your orders before {closes} for a full "
        "refund to your card."
    ),
    "remind.menu.refund_on_request": (
        "The meal will not be served and its cut-off has passed: write to {email} or call "
        "{phone} and we will refund it to your card."
    ),
    "unsubscribe_invalid": "This unsubscribe link is not valid.",
    "unsubscribe.title": "Hot Meals email settings",
    "unsubscribe.ask": "Stop these emails: {kind}?",
    "unsubscribe.button": "Unsubscribe",
    "unsubscribe.done": "Done: you will no longer get these emails ({kind}). You can turn them "
    "on again in Settings, Manage notification.",
    "unsubscribe.kind.cutoff_reminder": "cut-off reminder",
    "unsubscribe.kind.order_reminder": "order reminder",
    "unsubscribe.kind.menu_updates": "menu updates",
}

FR = {
    "mail.cutoff_reminder.subject": (
        "Date limite de commande {cutoff_day} : des jours ne sont pas réservés"
    ),
    "mail.cutoff_reminder.body": (
        "Bonjour {first_name},\n\n"
        "Les commandes pour ces jours d'école ferment {cutoff_day}, et aucun repas n'est "
        "encore réservé :\n\n"
        "{lines}\n\n"
        "Réserver un repas : {book_url}\n\n"
        "Vous recevez ce courriel parce que le rappel de date limite est activé dans vos "
        "paramètres. Pour ne plus le recevoir : {unsubscribe_url}\n\n"
        "L'équipe Hot Meals"
    ),
    "remind.cutoff.day": "{day} (commander avant le {closes})",
    "mail.order_reminder.subject": "Demain : {summary}",
    "mail.order_reminder.body": (
        "Bonjour {first_name},\n\n"
        "Le dîner de demain, {day} :\n\n"
        "{lines}\n\n"
        "Réserver un repas : {book_url}\n\n"
        "Vous recevez ce courriel parce que le rappel de commande est activé dans vos "
        "paramètres. Pour ne plus le recevoir : {unsubscribe_url}\n\n"
        "L'équipe Hot Meals"
    ),
    "remind.order.meal": "{meal} ({size})",
    "remind.order.none": "aucun dîner réservé",
    "remind.order.closed": "pas de repas chaud : {reason}",
    "mail.menu_updates.subject": "Un changement à un repas réservé",
    "mail.menu_updates.body": (
        "Bonjour {first_name},\n\n"
        "Le menu de l'école a changé pour un repas que vous avez réservé :\n\n"
        "{lines}\n\n"
        "Vos commandes : {orders_url}\n\n"
        "Vous recevez ce courriel parce que les mises à jour du menu sont activées dans vos "
        "paramètres. Pour ne plus les recevoir : {unsubscribe_url}\n\n"
        "L'équipe Hot Meals"
    ),
    "remind.menu.line": "{day}, {child} : {meal} × {quantity}. {what}. {then}",
    "remind.menu.closed": "La journée d'école est fermée : {reason}",
    "remind.menu.withdrawn": "Ce repas n'est plus au menu de ce jour",
    "remind.menu.cancel_before": (
        "Le repas ne sera pas servi : annulez-le dans vos commandes avant le {closes} pour un "
        "remboursement complet sur votre carte."
    ),
    "remind.menu.refund_on_request": (
        "Le repas ne sera pas servi et la date limite est passée : écrivez à {email} ou "
        "appelez le {phone} et nous le rembourserons sur votre carte."
    ),
    "unsubscribe_invalid": "Ce lien de désabonnement n'est pas valide.",
    "unsubscribe.title": "Courriels de Hot Meals",
    "unsubscribe.ask": "Ne plus recevoir ces courriels : {kind}?",
    "unsubscribe.button": "Me désabonner",
    "unsubscribe.done": "C'est fait : vous ne recevrez plus ces courriels ({kind}). Vous pouvez "
    "les réactiver dans Paramètres, Gérer les notifications.",
    "unsubscribe.kind.cutoff_reminder": "rappel de date limite",
    "unsubscribe.kind.order_reminder": "rappel de commande",
    "unsubscribe.kind.menu_updates": "mises à jour du menu",
}
