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
    "credit_ui.saved": "Your refund choice has been saved",
    "credit_ui.history": "Movements",
    "credit_ui.no_moves": "No movements yet.",
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
    "credit_ui.saved": "Votre choix de remboursement a été enregistré",
    "credit_ui.history": "Mouvements",
    "credit_ui.no_moves": "Aucun mouvement pour l'instant.",
}
