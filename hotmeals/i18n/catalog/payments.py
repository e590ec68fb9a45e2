"""Card payments, refunds, saved cards and donations: service errors, API messages and the
donate and payment methods screens."""

EN: dict[str, str] = {
    # service refusals (DomainError codes)
    "payment_not_found": "Payment not found",
    "payment_not_open": "This payment is already being processed",
    "payment_unavailable": "Card payments are unavailable right now. Please try again in a few "
    "minutes.",
    "payment_already_paid": "This payment has already been made",
    "payment_not_verified": "We could not verify this payment with the card processor, so it "
    "was not recorded",
    "payment_conflict": "This payment was just updated. Please try again.",
    "payment_order_not_found": "Order not found",
    "payment_purpose_invalid": "Please choose what you are paying for",
    "refund_exceeds_paid": "The refund is more than what can still be refunded",
    "refund_not_found": "Refund not found",
    "card_not_found": "Card not found",
    "money_unit_ambiguous": (
        'Please send {name} as text in dollars ("5.00"), or the donation in cents as '
        "donation_cents (500 for $5.00): a bare number is ambiguous"
    ),
    "card_not_verified": "This card could not be verified",
    "card_limit": "You can save at most {max} cards",
    "card_delete_failed": "The card could not be deleted right now. Please try again.",
    "donation_amount_range": "Please enter an amount from ${min} to ${max}",
    # outcomes (API messages and screen notices)
    "pay.session_ready": "Secure payment session ready",
    "pay.approved": "Thank you! Your payment of {amount} was approved.",
    "pay.pending": "We are still confirming your payment with the card processor. Please check "
    "again in a few minutes; you will not be charged twice.",
    "pay.declined": "Your card was declined. No money was taken. Please try another card.",
    "pay.cancelled": "Payment cancelled. No money was taken.",
    "pay.not_confirmed": "We could not confirm the payment; you have not been charged twice. "
    "If the card processor made the charge after all, it counts and you will see it in your "
    "history; otherwise you can try again.",
    "pay.error": "The payment could not be completed ({reason}). Please try again.",
    "pay.card_saved": "Card saved",
    "pay.card_deleted": "Card deleted",
    "pay.donation_thanks": "Thank you! Your donation of {amount} to {school} was received.",
    # donate screen
    "donate.title": "Donate to your school",
    "donate.intro": "Every donation goes to the school community of your child's school. "
    "Pay securely by card; we never see or keep your card number.",
    "donate.amount": "Amount",
    "donate.other": "Other amount",
    "donate.other_label": "Other amount in dollars ($1 to $500)",
    "donate.school": "School",
    "donate.no_school": "Add a child first: donations go to your child's school.",
    "donate.submit": "Donate",
    "donate.opening": "Opening secure payment…",
    "donate.confirming": "Confirming your payment…",
    "donate.history": "Your donations",
    "donate.col_date": "Date",
    "donate.col_school": "School",
    "donate.col_amount": "Amount",
    "donate.col_card": "Card",
    "donate.manage_cards": "Manage payment methods",
    "donate.preset_5": "$5",
    "donate.preset_10": "$10",
    "donate.preset_20": "$20",
    "donate.choose_school": "Choose a school",
    # payment methods screen
    "cards.title": "Payment methods",
    "cards.intro": "Your cards are kept by our card processor, Elavon Converge. We store only "
    "the card type, the last four digits and the expiry date.",
    "cards.empty": "No saved cards yet",
    "cards.add": "Add a card",
    "cards.saving": "Saving your card…",
    "cards.ending": "ending in",
    "cards.expires": "Expires",
    "cards.delete": "Delete",
    "cards.delete_label": "Delete this card",
    "cards.confirm_title": "Are you sure?",
    "cards.confirm_text": "This card will be removed from your account. You can add it again "
    "later.",
    "cards.confirm_yes": "Yes, delete",
    "cards.confirm_no": "Cancel",
    "cards.back_to_account": "Back to my account",
}

FR: dict[str, str] = {
    "payment_not_found": "Paiement introuvable",
    "payment_not_open": "Ce paiement est déjà en cours de traitement",
    "payment_unavailable": "Les paiements par carte sont indisponibles pour le moment. "
    "Veuillez réessayer dans quelques minutes.",
    "payment_already_paid": "Ce paiement a déjà été effectué",
    "payment_not_verified": "Nous n'avons pas pu vérifier ce paiement auprès du processeur de "
    "cartes; il n'a donc pas été enregistré",
    "payment_conflict": "Ce paiement vient d'être mis à jour. Veuillez réessayer.",
    "payment_order_not_found": "Commande introuvable",
    "payment_purpose_invalid": "Veuillez choisir ce que vous payez",
    "refund_exceeds_paid": "Le remboursement dépasse le montant encore remboursable",
    "refund_not_found": "Remboursement introuvable",
    "card_not_found": "Carte introuvable",
    "money_unit_ambiguous": (
        'Veuillez envoyer {name} en texte, en dollars ("5.00"), ou le don en cents dans '
        "donation_cents (500 pour 5,00 $) : un nombre seul est ambigu"
    ),
    "card_not_verified": "Cette carte n'a pas pu être vérifiée",
    "card_limit": "Vous pouvez enregistrer au plus {max} cartes",
    "card_delete_failed": "La carte n'a pas pu être supprimée pour le moment. Veuillez réessayer.",
    "donation_amount_range": "Veuillez saisir un montant de {min}\u00a0$ à {max}\u00a0$",
    "pay.session_ready": "Session de paiement sécurisée prête",
    "pay.approved": "Merci! Votre paiement de {amount} a été approuvé.",
    "pay.pending": "Nous confirmons encore votre paiement auprès du processeur de cartes. "
    "Veuillez vérifier dans quelques minutes; vous ne serez pas débité deux fois.",
    "pay.declined": "Votre carte a été refusée. Aucun montant n'a été prélevé. "
    "Veuillez essayer une autre carte.",
    "pay.cancelled": "Paiement annulé. Aucun montant n'a été prélevé.",
    "pay.not_confirmed": "Nous n'avons pas pu confirmer le paiement ; vous n'avez pas été "
    "débité deux fois. Si le processeur de cartes a tout de même effectué le paiement, il "
    "compte et vous le verrez dans votre historique ; sinon, vous pouvez réessayer.",
    "pay.error": "Le paiement n'a pas pu être effectué ({reason}). Veuillez réessayer.",
    "pay.card_saved": "Carte enregistrée",
    "pay.card_deleted": "Carte supprimée",
    "pay.donation_thanks": "Merci! Votre don de {amount} à {school} a été reçu.",
    "donate.title": "Faire un don à votre école",
    "donate.intro": "Chaque don va à la communauté de l'école de votre enfant. Payez en toute "
    "sécurité par carte; nous ne voyons ni ne conservons jamais votre numéro de carte.",
    "donate.amount": "Montant",
    "donate.other": "Autre montant",
    "donate.other_label": "Autre montant en dollars (de 1\u00a0$ à 500\u00a0$)",
    "donate.school": "École",
    "donate.no_school": "Ajoutez d'abord un enfant : les dons vont à l'école de votre enfant.",
    "donate.submit": "Faire un don",
    "donate.opening": "Ouverture du paiement sécurisé…",
    "donate.confirming": "Confirmation de votre paiement…",
    "donate.history": "Vos dons",
    "donate.col_date": "Date",
    "donate.col_school": "École",
    "donate.col_amount": "Montant",
    "donate.col_card": "Carte",
    "donate.manage_cards": "Gérer les modes de paiement",
    "donate.preset_5": "5\u00a0$",
    "donate.preset_10": "10\u00a0$",
    "donate.preset_20": "20\u00a0$",
    "donate.choose_school": "Choisissez une école",
    "cards.title": "Modes de paiement",
    "cards.intro": "Vos cartes sont conservées par notre processeur de cartes, Elavon "
    "Converge. Nous n'enregistrons que le type de carte, les quatre derniers chiffres et la "
    "date d'expiration.",
    "cards.empty": "Aucune carte enregistrée pour l'instant",
    "cards.add": "Ajouter une carte",
    "cards.saving": "Enregistrement de votre carte…",
    "cards.ending": "se terminant par",
    "cards.expires": "Expire",
    "cards.delete": "Supprimer",
    "cards.delete_label": "Supprimer cette carte",
    "cards.confirm_title": "Voulez-vous vraiment continuer?",
    "cards.confirm_text": "Cette carte sera retirée de votre compte. Vous pourrez l'ajouter de "
    "nouveau plus tard.",
    "cards.confirm_yes": "Oui, supprimer",
    "cards.confirm_no": "Annuler",
    "cards.back_to_account": "Retour à mon compte",
}
