"""After the purchase (services/ordering/: queries, cancel, cancel_order, cancel_cart; the /api/v1
order history, order detail and cancel calls): refusals, outcomes, line and refund states, and
the 'Order Cancelled' e-mail."""

EN: dict[str, str] = {
    # refusals (DomainError codes)
    "order_not_found": "No data found",
    "order_line_not_found": "No data found",
    "cancel_cart_line_not_found": "No data found",
    "invalid_history_tab": "Please choose future or past orders",
    "cancel_cutoff_passed": (
        "The cancellation deadline for {day} has passed: this meal can no longer be cancelled."
    ),
    "cancel_order_not_cancellable": "Order {number} can no longer be cancelled.",
    "cancel_nothing_selected": "Please choose at least one meal to cancel.",
    "cancel_cart_empty": "Your cancel cart is empty.",
    "cancel_reason_required": "Please choose a reason for the cancellation.",
    "cancel_other_text_required": "Please tell us why you are cancelling.",
    "cancel_other_text_too_long": "Please keep the reason under {max} characters.",
    "cancel_request_key_invalid": "Please try again.",
    "cancel_cart_line_blocked": "{reason} Please remove it from your cancel cart.",
    "cancel_quantity_invalid": "Please choose a quantity between 1 and {max}.",
    "cancel_refund_failed": (
        "Your cancellation is recorded, but the card processor has not confirmed the refund yet: "
        "we will keep trying and e-mail you."
    ),
    # outcomes
    "orders_after.cancelled": "Order Cancelled",
    "orders_after.refund_notice": (
        "A refund of {amount} will go back to your card. Refunds follow our refund policy and "
        "may take a few business days to appear."
    ),
    "orders_after.no_refund": "No refund is due for this cancellation.",
    "orders_after.added_to_cancel_cart": "Added to cancel cart",
    "orders_after.cancel_cart_updated": "Cancel cart updated",
    "orders_after.cancel_cart_removed": "Removed from cancel cart",
    "orders_after.total_refund": "Total refund",
    # line states
    "orders_after.line_active": "Active",
    "orders_after.line_delivered": "Delivered",
    "orders_after.line_cancelled": "Cancelled",
    "orders_after.line_moved": "Moved",
    # refund states
    "orders_after.refund_succeeded": "Refunded",
    "orders_after.refund_to_credit": "To family credit",
    "orders_after.refund_pending": "Refund in progress",
    "orders_after.refund_unknown": "Refund in progress",
    "orders_after.refund_failed": "Refund failed",
    "orders_after.voided_attempt": (
        "A second charge of {amount} on {day} did not pay for this order: {state}."
    ),
    "orders_after.refund_delayed": "Refund delayed: we are sending it again",
    "orders_after.refund_attention": "Refund delayed: our team is looking into it",
    "orders_after.reason_other": "Other",
    # the e-mail
    "orders_after.mail_line": "  {child}: {quantity} × {meal} ({size}), {day}",
    "orders_after.mail_refund_due": (
        "A refund of {amount} is due for these meals. We will e-mail you as soon as it is back "
        "on your card."
    ),
    "orders_after.mail_refund_due_quiet": (
        "A refund of {amount} is due for these meals. You can follow it on the order's details."
    ),
    "mail.refund_made.subject": "Refund made: {number}",
    "mail.refund_made.body": (
        "Hello {name},\n\n"
        "{amount} has been refunded to your card for your order {number}. Refunds follow our "
        "refund policy and may take a few business days to appear on your statement.\n\n"
        "See your order: {order_url}\n\nThe Hot Meals team"
    ),
    "mail.refund_delayed.subject": "Refund delayed: {number}",
    "mail.refund_delayed.body": (
        "Hello {name},\n\n"
        "Your refund of {amount} for your order {number} is delayed: the card processor "
        "refused it several times. It is still owed to you, and our team is looking into it; "
        "we will e-mail you as soon as it is made.\n\n"
        "See your order: {order_url}\n\nThe Hot Meals team"
    ),
    "mail.refund_processing.subject": "Refund in progress: {number}",
    "mail.refund_processing.body": (
        "Hello {name},\n\n"
        "Your refund of {amount} for your order {number} is being processed: the card "
        "processor has not confirmed it yet. We keep trying and will e-mail you as soon as it "
        "is made.\n\n"
        "See your order: {order_url}\n\nThe Hot Meals team"
    ),
    "mail.order_cancelled.subject": "Order Cancelled: {number}",
    "mail.order_cancelled.body": (
        "Hello {name},\n\n"
        "Order Cancelled. These meals of your order {number} are cancelled:\n\n"
        "{lines}\n\n"
        "{refund}\n\n"
        "See your order: {order_url}\n\nThe Hot Meals team"
    ),
}

FR: dict[str, str] = {
    "order_not_found": "Aucune donnée trouvée",
    "order_line_not_found": "Aucune donnée trouvée",
    "cancel_cart_line_not_found": "Aucune donnée trouvée",
    "invalid_history_tab": "Veuillez choisir les commandes à venir ou passées",
    "cancel_cutoff_passed": (
        "La date limite d'annulation pour le {day} est passée : ce repas ne peut plus être annulé."
    ),
    "cancel_order_not_cancellable": "La commande {number} ne peut plus être annulée.",
    "cancel_nothing_selected": "Veuillez choisir au moins un repas à annuler.",
    "cancel_cart_empty": "Votre panier d'annulation est vide.",
    "cancel_reason_required": "Veuillez choisir un motif d'annulation.",
    "cancel_other_text_required": "Veuillez nous dire pourquoi vous annulez.",
    "cancel_other_text_too_long": "Veuillez limiter le motif à {max} caractères.",
    "cancel_request_key_invalid": "Veuillez réessayer.",
    "cancel_cart_line_blocked": "{reason} Veuillez le retirer de votre panier d'annulation.",
    "cancel_quantity_invalid": "Veuillez choisir une quantité entre 1 et {max}.",
    "cancel_refund_failed": (
        "Votre annulation est enregistrée, mais le processeur de paiement n'a pas encore "
        "confirmé le remboursement : nous réessaierons et vous écrirons."
    ),
    "orders_after.cancelled": "Commande annulée",
    "orders_after.refund_notice": (
        "Un remboursement de {amount} sera versé sur votre carte. Les remboursements suivent "
        "notre politique de remboursement et peuvent prendre quelques jours ouvrables."
    ),
    "orders_after.no_refund": "Aucun remboursement n'est dû pour cette annulation.",
    "orders_after.added_to_cancel_cart": "Ajouté au panier d'annulation",
    "orders_after.cancel_cart_updated": "Panier d'annulation mis à jour",
    "orders_after.cancel_cart_removed": "Retiré du panier d'annulation",
    "orders_after.total_refund": "Remboursement total",
    "orders_after.line_active": "Actif",
    "orders_after.line_delivered": "Livré",
    "orders_after.line_cancelled": "Annulé",
    "orders_after.line_moved": "Déplacé",
    "orders_after.refund_succeeded": "Remboursé",
    "orders_after.refund_to_credit": "En crédit familial",
    "orders_after.refund_pending": "Remboursement en cours",
    "orders_after.voided_attempt": (
        "Un deuxième paiement de {amount} le {day} n'a pas servi à cette commande : {state}."
    ),
    "orders_after.refund_unknown": "Remboursement en cours",
    "orders_after.refund_failed": "Remboursement échoué",
    "orders_after.refund_delayed": "Remboursement retardé : nous le renvoyons",
    "orders_after.refund_attention": "Remboursement retardé : notre équipe s'en occupe",
    "orders_after.reason_other": "Autre",
    "orders_after.mail_line": "  {child}: {quantity} × {meal} ({size}), {day}",
    "orders_after.mail_refund_due": (
        "Un remboursement de {amount} vous est dû pour ces repas. Nous vous écrirons dès qu'il "
        "sera de retour sur votre carte."
    ),
    "orders_after.mail_refund_due_quiet": (
        "Un remboursement de {amount} vous est dû pour ces repas. Vous pouvez le suivre dans le "
        "détail de la commande."
    ),
    "mail.refund_made.subject": "Remboursement effectué : {number}",
    "mail.refund_made.body": (
        "Bonjour {name},\n\n"
        "{amount} a été remboursé sur votre carte pour votre commande {number}. Les "
        "remboursements suivent notre politique de remboursement et peuvent prendre quelques "
        "jours ouvrables avant de paraître sur votre relevé.\n\n"
        "Voir votre commande : {order_url}\n\nL'équipe Hot Meals"
    ),
    "mail.refund_delayed.subject": "Remboursement retardé : {number}",
    "mail.refund_delayed.body": (
        "Bonjour {name},\n\n"
        "Votre remboursement de {amount} pour votre commande {number} est retardé : le "
        "processeur de paiement l'a refusé plusieurs fois. Il vous est toujours dû et notre "
        "équipe s'en occupe ; nous vous écrirons dès qu'il sera effectué.\n\n"
        "Voir votre commande : {order_url}\n\nL'équipe Hot Meals"
    ),
    "mail.refund_processing.subject": "Remboursement en cours : {number}",
    "mail.refund_processing.body": (
        "Bonjour {name},\n\n"
        "Votre remboursement de {amount} pour votre commande {number} est en cours : le "
        "processeur de paiement ne l'a pas encore confirmé. Nous réessayons et vous écrirons "
        "dès qu'il sera effectué.\n\n"
        "Voir votre commande : {order_url}\n\nL'équipe Hot Meals"
    ),
    "mail.order_cancelled.subject": "Commande annulée : {number}",
    "mail.order_cancelled.body": (
        "Bonjour {name},\n\n"
        "Commande annulée. Ces repas de votre commande {number} sont annulés :\n\n"
        "{lines}\n\n"
        "{refund}\n\n"
        "Voir votre commande : {order_url}\n\nL'équipe Hot Meals"
    ),
}
