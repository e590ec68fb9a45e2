"""The family credit screen (/edit-profile/family-credit) and its menu entry."""

EN = {
    "title.family_credit": "Family credit — Hot Meals",
    "ui.header.family_credit": "Family credit",
    "credit_ui.title": "Family credit",
    "credit_ui.intro": (
        "Money refunded to your family credit is yours at once, with no wait for the bank. "
        "Your next order uses it first."
    ),
    "credit_ui.balance": "Your balance",
    "credit_ui.balance_text": "The sum of every movement below.",
    "credit_ui.refunds_go": "Where refunds go",
    "credit_ui.to_card": "Back to my card",
    "credit_ui.to_card_text": "The card that paid. Your bank shows it in a few business days.",
    "credit_ui.to_credit": "To my family credit",
    "credit_ui.to_credit_text": "Instant, and spent first on your next order.",
    "credit_ui.refund_to": "Refund to",
    "credit_ui.pay_with_credit": "Pay with family credit",
    "credit_ui.to_credit_short": "Family credit (instant)",
    "credit_ui.saved": "Your refund choice has been saved",
    "credit_ui.history": "Movements",
    "credit_ui.no_moves": "No movements yet.",
    "title.child_away": "A child is away — Hot Meals",
    "ui.header.child_away": "A child is away",
    "away_ui.title": "A child is away",
    "away_ui.intro": (
        "Sick, on a trip or at home: choose who and which days. Meals still before their "
        "cut-off are cancelled with their refund; a meal past it can go to the school's "
        "student-nutrition program."
    ),
    "away_ui.who": "Who is away",
    "away_ui.from": "From",
    "away_ui.to": "To (included)",
    "away_ui.check": "Check the meals",
    "away_ui.meals": "Booked meals on these days",
    "away_ui.none": "No booked meals on these days.",
    "away_ui.donate": "Give this meal to the school's student-nutrition program",
    "away_ui.total": "Refund:",
    "away_ui.confirm": "Confirm",
    "away_ui.final": (
        "Days marked away cannot be removed or shortened afterwards: no meal can be booked on them."
    ),
    "away_ui.marked": "Days marked away",
    "away_ui.range": "{child}: {first} to {last}",
    "away_ui.range_day": "{child}: {day}",
}

FR = {
    "title.family_credit": "Crédit familial — Hot Meals",
    "ui.header.family_credit": "Crédit familial",
    "credit_ui.title": "Crédit familial",
    "credit_ui.intro": (
        "L'argent remboursé en crédit familial est à vous tout de suite, sans attendre la "
        "banque. Votre prochaine commande l'utilise en premier."
    ),
    "credit_ui.balance": "Votre solde",
    "credit_ui.balance_text": "La somme de tous les mouvements ci-dessous.",
    "credit_ui.refunds_go": "Où vont les remboursements",
    "credit_ui.to_card": "Sur ma carte",
    "credit_ui.to_card_text": (
        "La carte qui a payé. Votre banque l'affiche en quelques jours ouvrables."
    ),
    "credit_ui.to_credit": "En crédit familial",
    "credit_ui.to_credit_text": "Immédiat, et utilisé en premier pour votre prochaine commande.",
    "credit_ui.refund_to": "Rembourser sur",
    "credit_ui.pay_with_credit": "Payer avec le crédit familial",
    "credit_ui.to_credit_short": "Crédit familial (immédiat)",
    "credit_ui.saved": "Votre choix de remboursement a été enregistré",
    "credit_ui.history": "Mouvements",
    "credit_ui.no_moves": "Aucun mouvement pour l'instant.",
    "title.child_away": "Un enfant est absent — Hot Meals",
    "ui.header.child_away": "Un enfant est absent",
    "away_ui.title": "Un enfant est absent",
    "away_ui.intro": (
        "Malade, en sortie ou à la maison : choisissez qui et quels jours. Les repas encore "
        "avant leur heure limite sont annulés et remboursés; un repas après peut aller au "
        "programme de nutrition des élèves de l'école."
    ),
    "away_ui.who": "Qui est absent",
    "away_ui.from": "Du",
    "away_ui.to": "Au (inclus)",
    "away_ui.check": "Voir les repas",
    "away_ui.meals": "Repas réservés ces jours-là",
    "away_ui.none": "Aucun repas réservé ces jours-là.",
    "away_ui.donate": "Donner ce repas au programme de nutrition des élèves de l'école",
    "away_ui.total": "Remboursement :",
    "away_ui.confirm": "Confirmer",
    "away_ui.final": (
        "Les jours d'absence ne peuvent pas être retirés ni raccourcis ensuite : aucun repas ne "
        "peut y être réservé."
    ),
    "away_ui.marked": "Jours d'absence",
    "away_ui.range": "{child} : du {first} au {last}",
    "away_ui.range_day": "{child} : le {day}",
}
