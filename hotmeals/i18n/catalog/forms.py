"""Messages of issue 12's form fixes: repeated submissions, phone numbers one account owns,
and the labels that name what a control does."""

EN: dict[str, str] = {
    "idempotency_key_invalid": (
        "The Idempotency-Key must be 1 to 64 letters, digits, '-', '_', '.' or ':'"
    ),
    "idempotency_key_reused": "This Idempotency-Key was already used for another action",
    "phone_taken": "This phone number is already used by another account",
    "ui.header.cart_name": "Cart",
    "ui.header.cancel_cart_name": "Cancel cart",
    "ui.header.item": "item",
}

FR: dict[str, str] = {
    "idempotency_key_invalid": (
        "L'Idempotency-Key doit compter de 1 à 64 lettres, chiffres, « - », « _ », « . » ou « : »"
    ),
    "idempotency_key_reused": "Cette Idempotency-Key a déjà servi pour une autre action",
    "phone_taken": "Ce numéro de téléphone est déjà utilisé par un autre compte",
    "ui.header.cart_name": "Panier",
    "ui.header.cancel_cart_name": "Panier d'annulation",
    "ui.header.item": "article",
}
