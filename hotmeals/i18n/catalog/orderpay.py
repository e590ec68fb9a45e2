"""The checkout's server side (services/ordering/checkout.py and the /api/v1 order calls):
refusals, outcomes, order statuses and the order confirmation e-mail."""

EN: dict[str, str] = {
    # refusals (DomainError codes)
    "orderpay_cutoff_passed": (
        "The ordering deadline for {day} has passed: this meal can no longer be paid and nothing "
        "was charged. Please remove it from your cart."
    ),
    "orderpay_purpose_order_only": "Please pay for your cart from the payment page",
    # outcomes (CheckoutResult.message)
    "orderpay.placed": "Thank you! Your order {number} is placed.",
    "orderpay.pending": (
        "We are confirming your payment with the card processor. Order {number} will be placed "
        "as soon as it is confirmed, and you will receive an e-mail."
    ),
    "orderpay.declined": (
        "Your card was declined. Nothing was charged and your cart is unchanged: you "
        "can try again with another card."
    ),
    "orderpay.not_confirmed": (
        "We could not confirm the payment for order {number}; you have not been charged twice. "
        "If the card processor made the charge after all, the order is placed with it and you "
        "will receive an e-mail; otherwise your cart is unchanged and you can pay again."
    ),
    "orderpay.voided": (
        "Order {number} could no longer be placed, so the charge of {amount} was cancelled."
    ),
    "orderpay.voided_cutoff": (
        "The ordering deadline for {day} passed before your payment was confirmed: order "
        "{number} was not placed and the charge of {amount} was cancelled."
    ),
    "orderpay.void_later": (
        "Order {number} could no longer be placed: the charge of {amount} will be refunded to "
        "your card."
    ),
    "orderpay.void_later_cutoff": (
        "The ordering deadline for {day} passed before your payment was confirmed: order "
        "{number} was not placed and the charge of {amount} will be refunded to your card."
    ),
    "orderpay.duplicate_voided": (
        "Order {number} was already paid: this second charge of {amount} was cancelled."
    ),
    "orderpay.session_ready": "Enter your card to pay {amount} for order {number}",
    # order statuses
    "orderpay.status_pending_payment": "Waiting for payment",
    "orderpay.status_placed": "Placed",
    "orderpay.status_partially_cancelled": "Partially cancelled",
    "orderpay.status_cancelled": "Cancelled",
    "orderpay.status_delivered": "Delivered",
    "orderpay.status_payment_failed": "Payment failed",
    # charges (docs/product.md §3)
    "orderpay.charge_meal_net": "Meal net amount",
    "orderpay.charge_note_fees": "Special note fees",
    "orderpay.charge_discount": "Discount",
    "orderpay.charge_processing": "Processing fee",
    "orderpay.charge_tax": "Tax",
    "orderpay.charge_donation": "School donation",
    "orderpay.charge_additional": "Additional charge",
    "orderpay.charge_total": "Total paid",  # a paid order's (confirmation, details, mail)
    # the confirmation e-mail
    "orderpay.mail_group": "{child}, {day}",
    "orderpay.mail_line": "  {quantity} × {meal} ({size}): {amount}",
    "orderpay.mail_with": "with {items}",
    "orderpay.mail_note": "note: {note}",
    "orderpay.mail_charge": "{label}: {amount}",
    # the tables of a mail's HTML part (services/mail_html.py)
    "orderpay.mail_meal": "{meal} ({size})",
    "mail.caption.meals": "Your meals",
    "mail.caption.cancelled": "Cancelled meals",
    "mail.caption.charges": "Payment",
    "mail.col.meal": "Meal",
    "mail.col.quantity": "Quantity",
    "mail.col.amount": "Amount",
    "mail.col.charge": "Description",
    "mail.order_confirmation.subject": "Your Hot Meals order {number}",
    "mail.order_confirmation.body": (
        "Hello {name},\n\n"
        "Thank you! Your order {number} is placed.\n\n"
        "{lines}\n\n"
        "{charges}\n\n"
        "Total paid: {total}\n\n"
        "{giveback}.\n\n"
        "See your order: {order_url}\n\nThe Hot Meals team"
    ),
}

FR: dict[str, str] = {
    "orderpay_cutoff_passed": (
        "La date limite de commande pour le {day} est passée : ce repas ne peut plus être payé "
        "et rien n'a été facturé. Veuillez le retirer de votre panier."
    ),
    "orderpay_purpose_order_only": "Veuillez payer votre panier depuis la page de paiement",
    "orderpay.placed": "Merci ! Votre commande {number} est passée.",
    "orderpay.pending": (
        "Nous confirmons votre paiement auprès du processeur de cartes. La commande {number} "
        "sera passée dès sa confirmation et vous recevrez un courriel."
    ),
    "orderpay.declined": (
        "Votre carte a été refusée. Rien n'a été facturé et votre panier est "
        "inchangé : vous pouvez réessayer avec une autre carte."
    ),
    "orderpay.not_confirmed": (
        "Nous n'avons pas pu confirmer le paiement de la commande {number} ; vous n'avez pas été "
        "débité deux fois. Si le processeur de cartes a tout de même effectué le paiement, la "
        "commande est passée avec celui-ci et vous recevrez un courriel ; sinon, votre panier "
        "est inchangé et vous pouvez payer de nouveau."
    ),
    "orderpay.voided": (
        "La commande {number} ne pouvait plus être passée : le paiement de {amount} a été annulé."
    ),
    "orderpay.voided_cutoff": (
        "La date limite de commande pour le {day} est passée avant la confirmation de votre "
        "paiement : la commande {number} n'a pas été passée et le paiement de {amount} a été "
        "annulé."
    ),
    "orderpay.void_later": (
        "La commande {number} ne pouvait plus être passée : le paiement de {amount} sera "
        "remboursé sur votre carte."
    ),
    "orderpay.void_later_cutoff": (
        "La date limite de commande pour le {day} est passée avant la confirmation de votre "
        "paiement : la commande {number} n'a pas été passée et le paiement de {amount} sera "
        "remboursé sur votre carte."
    ),
    "orderpay.duplicate_voided": (
        "La commande {number} était déjà payée : ce deuxième paiement de {amount} a été annulé."
    ),
    "orderpay.session_ready": "Entrez votre carte pour payer {amount} pour la commande {number}",
    "orderpay.status_pending_payment": "En attente de paiement",
    # Not "Passée": under the "À venir" tab it read as "past".
    "orderpay.status_placed": "Confirmée",
    "orderpay.status_partially_cancelled": "Partiellement annulée",
    "orderpay.status_cancelled": "Annulée",
    "orderpay.status_delivered": "Livrée",
    "orderpay.status_payment_failed": "Paiement refusé",
    "orderpay.charge_meal_net": "Montant net des repas",
    "orderpay.charge_note_fees": "Frais de message spécial",
    "orderpay.charge_discount": "Rabais",
    "orderpay.charge_processing": "Frais de traitement",
    "orderpay.charge_tax": "Taxe",
    "orderpay.charge_donation": "Don à l'école",
    "orderpay.charge_additional": "Frais supplémentaires",
    "orderpay.charge_total": "Total payé",
    "orderpay.mail_group": "{child}, {day}",
    "orderpay.mail_line": "  {quantity} × {meal} ({size}) : {amount}",
    "orderpay.mail_with": "avec {items}",
    "orderpay.mail_note": "message : {note}",
    "orderpay.mail_charge": "{label} : {amount}",
    "orderpay.mail_meal": "{meal} ({size})",
    "mail.caption.meals": "Vos repas",
    "mail.caption.cancelled": "Repas annulés",
    "mail.caption.charges": "Paiement",
    "mail.col.meal": "Repas",
    "mail.col.quantity": "Quantité",
    "mail.col.amount": "Montant",
    "mail.col.charge": "Description",
    "mail.order_confirmation.subject": "Votre commande Hot Meals {number}",
    "mail.order_confirmation.body": (
        "Bonjour {name},\n\n"
        "Merci ! Votre commande {number} est passée.\n\n"
        "{lines}\n\n"
        "{charges}\n\n"
        "Total payé : {total}\n\n"
        "{giveback}.\n\n"
        "Voir votre commande : {order_url}\n\nL'équipe Hot Meals"
    ),
}
