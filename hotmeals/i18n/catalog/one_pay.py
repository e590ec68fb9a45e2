"""One Pay: the order summary pays itself (the card choice beside the total)."""

EN = {
    "checkout.other_card": "Another card (secure payment window)",
    "checkout.paying_with": "With",
    "checkout.change_card": "Change",
}

FR = {
    "checkout.other_card": "Une autre carte (fenêtre de paiement sécurisée)",
    "checkout.paying_with": "Avec",
    "checkout.change_card": "Modifier",
}
