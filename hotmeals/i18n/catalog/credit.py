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
}
