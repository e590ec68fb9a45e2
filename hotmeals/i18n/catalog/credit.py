"""Family credit: the ledger's messages (hotmeals/domain/credit.py, services/credit.py)."""

EN = {
    "credit_amount_invalid": "Enter an amount in dollars and cents, more than $0.00",
    "credit_insufficient": "Your family credit does not cover this amount",
    "credit_reason_required": "Say why the credit is adjusted",
    "refund_destination_invalid": "Choose where refunds go: your card or family credit",
    "credit.kind.refund": "Refund to family credit",
    "credit.kind.spend": "Paid with family credit",
    "credit.kind.restore": "Family credit given back (cancelled)",
    "credit.kind.adjust": "Adjustment",
    "credit.about_order": "Order {number}",
    "credit.reason.demo": "Demo credit",
    "credit.reason.goodwill": "Goodwill credit",
    "credit.reason.correction": "A correction of your balance",
    "credit.refund_notice": (
        "{amount} has been added to your family credit. It is used first at your next checkout."
    ),
    "credit.refund_ahead": (
        "{amount} will be added to your family credit at once. It is used first at your next "
        "checkout."
    ),
    "credit.refund_notice_split": (
        "{credit} goes back to your family credit at once and {card} to your card. Card "
        "refunds may take a few business days to appear."
    ),
    "credit.change_refund": "Your order {number} is updated. {notice}",
    "credit.change_paid": (
        "Your order {number} is updated. {amount} was paid with your family credit."
    ),
    "credit.placed": "Thank you! Order {number} is placed, paid with {amount} of family credit.",
    "credit.summary_credit": "Family credit",
    "credit.summary_card": "To pay by card",
    "credit.summary_card_paid": "Paid by card",
    "credit.summary_available": "Family credit available: {amount}",
    "credit.summary_covers": "Your family credit pays for this order: no card needed.",
    "mail.refund_to_credit.subject": "Refund to family credit: {number}",
    "mail.refund_to_credit.body": (
        "Hello {name},\n\n"
        "{amount} from your order {number} has been added to your family credit. It is used "
        "first at your next checkout; you can see it on your account page.\n\n"
        "See your order: {order_url}\n\nThe Hot Meals team"
    ),
}

FR = {
    "credit_amount_invalid": "Entrez un montant en dollars et en cents, supérieur à 0,00 $",
    "credit_insufficient": "Votre crédit familial ne couvre pas ce montant",
    "credit_reason_required": "Indiquez la raison de l'ajustement du crédit",
    "refund_destination_invalid": (
        "Choisissez où vont les remboursements : votre carte ou le crédit familial"
    ),
    "credit.kind.refund": "Remboursement en crédit familial",
    "credit.kind.spend": "Payé avec le crédit familial",
    "credit.kind.restore": "Crédit familial rendu (annulation)",
    "credit.kind.adjust": "Ajustement",
    "credit.about_order": "Commande {number}",
    "credit.reason.demo": "Crédit de démonstration",
    "credit.reason.goodwill": "Crédit de courtoisie",
    "credit.reason.correction": "Une correction de votre solde",
    "credit.refund_notice": (
        "{amount} a été ajouté à votre crédit familial. Il sera utilisé en premier lors de "
        "votre prochain paiement."
    ),
    "credit.refund_ahead": (
        "{amount} sera ajouté tout de suite à votre crédit familial. Il sera utilisé en premier "
        "lors de votre prochain paiement."
    ),
    "credit.refund_notice_split": (
        "{credit} retourne tout de suite à votre crédit familial et {card} à votre carte. Les "
        "remboursements sur carte peuvent prendre quelques jours ouvrables."
    ),
    "credit.change_refund": "Votre commande {number} est mise à jour. {notice}",
    "credit.change_paid": (
        "Votre commande {number} est modifiée. {amount} a été payé avec votre crédit familial."
    ),
    "credit.placed": (
        "Merci ! La commande {number} est passée, payée avec {amount} de crédit familial."
    ),
    "credit.summary_credit": "Crédit familial",
    "credit.summary_card": "À payer par carte",
    "credit.summary_card_paid": "Payé par carte",
    "credit.summary_available": "Crédit familial disponible : {amount}",
    "credit.summary_covers": "Votre crédit familial paie cette commande : aucune carte requise.",
    "mail.refund_to_credit.subject": "Remboursement en crédit familial : {number}",
    "mail.refund_to_credit.body": (
        "Bonjour {name},\n\n"
        "{amount} de votre commande {number} a été ajouté à votre crédit familial. Il sera "
        "utilisé en premier lors de votre prochain paiement ; vous le voyez sur la page de "
        "votre compte.\n\n"
        "Voir votre commande : {order_url}\n\nL'équipe Hot Meals"
    ),
}
