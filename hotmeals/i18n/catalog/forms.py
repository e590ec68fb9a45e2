"""Messages of the form fixes: repeated submissions, phone numbers one account owns,
and the labels that name what a control does."""

EN: dict[str, str] = {
    "idempotency_key_invalid": (
        "The Idempotency-Key must be 1 to 64 letters, digits, '-', '_', '.' or ':'"
    ),
    "idempotency_key_reused": "This Idempotency-Key was already used for another action",
    "phone_taken": "This phone number is already used by another account",
    "ui.header.cart_name": "Cart",
    "ui.header.cancel_cart_name": "Meals to cancel",
    "ui.child.major_allergy": "Major allergy",
    "ui.form.show_password": "Show password",
    "ui.alt_email.limit_reached": (
        "You have the most alternate addresses an account can have (3). Remove one to add another."
    ),
    "ui.form.hide_password": "Hide password",
    "ui.child.default_now": "{name} is now the default child",
    "ui.toast.close": "Close message",
    "ui.toast.region": "Messages",
    "ui.brand.home": "Hot Meals home",
    # Tab titles, per language (the page's <title>).
    "title.landing": "Hot Meals — hot school lunches in Ontario",
    "title.sign_up": "Sign up — Hot Meals",
    "title.sign_in": "Log in — Hot Meals",
    "title.sign_in_phone": "Log in with phone — Hot Meals",
    "title.add_child": "Add your child — Hot Meals",
    "title.allergy": "Allergy profile — Hot Meals",
    "title.add_another_child": "Add a child — Hot Meals",
    "title.edit_profile": "My profile — Hot Meals",
    "title.parent_edit_profile": "Edit profile — Hot Meals",
    "title.edit_child": "Edit child — Hot Meals",
    "title.donate": "Donate — Hot Meals",
    "title.payment_methods": "Payment methods — Hot Meals",
    "title.not_found": "Page not found — Hot Meals",
    "title.about": "About us — Hot Meals",
    "title.terms": "Terms and conditions — Hot Meals",
    "title.privacy": "Privacy policy — Hot Meals",
    "title.faq": "Frequently asked questions — Hot Meals",
}

FR: dict[str, str] = {
    "idempotency_key_invalid": (
        "L'Idempotency-Key doit compter de 1 à 64 lettres, chiffres, « - », « _ », « . » ou « : »"
    ),
    "idempotency_key_reused": "Cette Idempotency-Key a déjà servi pour une autre action",
    "phone_taken": "Ce numéro de téléphone est déjà utilisé par un autre compte",
    "ui.header.cart_name": "Panier",
    "ui.header.cancel_cart_name": "Repas à annuler",
    "ui.child.major_allergy": "Allergie majeure",
    "ui.form.show_password": "Afficher le mot de passe",
    "ui.alt_email.limit_reached": (
        "Vous avez le nombre maximal d'adresses secondaires (3). Retirez-en une pour en "
        "ajouter une autre."
    ),
    "ui.form.hide_password": "Masquer le mot de passe",
    "ui.child.default_now": "{name} est maintenant l'enfant par défaut",
    "ui.toast.close": "Fermer le message",
    "ui.toast.region": "Messages",
    "ui.brand.home": "Accueil Hot Meals",
    "title.landing": "Hot Meals — repas chauds à l'école en Ontario",
    "title.sign_up": "Inscription — Hot Meals",
    "title.sign_in": "Connexion — Hot Meals",
    "title.sign_in_phone": "Connexion par téléphone — Hot Meals",
    "title.add_child": "Ajoutez votre enfant — Hot Meals",
    "title.allergy": "Profil d'allergies — Hot Meals",
    "title.add_another_child": "Ajouter un enfant — Hot Meals",
    "title.edit_profile": "Mon profil — Hot Meals",
    "title.parent_edit_profile": "Modifier le profil — Hot Meals",
    "title.edit_child": "Modifier l'enfant — Hot Meals",
    "title.donate": "Faire un don — Hot Meals",
    "title.payment_methods": "Modes de paiement — Hot Meals",
    "title.not_found": "Page introuvable — Hot Meals",
    "title.about": "À propos — Hot Meals",
    "title.terms": "Conditions d'utilisation — Hot Meals",
    "title.privacy": "Politique de confidentialité — Hot Meals",
    "title.faq": "Questions fréquentes — Hot Meals",
}
