"""Form validation messages (``hotmeals.domain.validation``).

The English texts are docs/product.md §5's, verbatim, spelling included ('atleast', 'Password do not
match', 'Please Select School'): parents and support staff know them. ``name_too_long`` is ours.
"""

EN: dict[str, str] = {
    "phone_required": "Please enter phone number",
    "phone_invalid": "Please enter valid phone number",
    "phone_too_long": "Phone number should not exceed 13 characters",
    "phone_too_short": "Please enter atleast 8 digits for phone number",
    "email_required": "Please enter email address",
    "email_invalid": "Please enter valid email address",
    "password_required": "Please enter password",
    "password_weak": (
        "Password must contain at least 8 characters, one uppercase, one number and one "
        "special case character"
    ),
    "confirm_password_required": "Please enter confirm password",
    "password_mismatch": "Password do not match",
    "current_password_required": "Current password is required",
    "new_password_required": "New password is required",
    "confirm_new_password_required": "Confirm password is required",
    "passwords_do_not_match": "Passwords do not match",
    "new_password_same": "The new password must be different from the current password",
    "name_letters_only": (
        "Please enter only letters (A-Z, a-z) with no special characters or numbers"
    ),
    "name_too_long": "Name should not exceed 15 characters",
    "first_name_required": "Please enter first name",
    "last_name_required": "Please enter last name",
    "city_required": "Please enter city",
    "school_required": "Please Select School",
    "teacher_required": "Please enter teacher name",
    "grade_required": "Please enter grade",
    "subject_required": "Please enter subject",
    "description_required": "Please tell us how we can help",
    "terms_required": "Terms & condition is required",
}

FR: dict[str, str] = {
    "phone_required": "Veuillez saisir le numéro de téléphone",
    "phone_invalid": "Veuillez saisir un numéro de téléphone valide",
    "phone_too_long": "Le numéro de téléphone ne doit pas dépasser 13 caractères",
    "phone_too_short": "Veuillez saisir au moins 8 chiffres pour le numéro de téléphone",
    "email_required": "Veuillez saisir l'adresse courriel",
    "email_invalid": "Veuillez saisir une adresse courriel valide",
    "password_required": "Veuillez saisir le mot de passe",
    "password_weak": (
        "Le mot de passe doit contenir au moins 8 caractères, dont une majuscule, un chiffre "
        "et un caractère spécial"
    ),
    "confirm_password_required": "Veuillez confirmer le mot de passe",
    "password_mismatch": "Les mots de passe ne correspondent pas",
    "current_password_required": "Le mot de passe actuel est requis",
    "new_password_required": "Le nouveau mot de passe est requis",
    "confirm_new_password_required": "La confirmation du mot de passe est requise",
    "passwords_do_not_match": "Les mots de passe ne correspondent pas",
    "new_password_same": "Le nouveau mot de passe doit être différent du mot de passe actuel",
    "name_letters_only": (
        "Veuillez saisir uniquement des lettres (A-Z, a-z), sans caractères spéciaux ni chiffres"
    ),
    "name_too_long": "Le nom ne doit pas dépasser 15 caractères",
    "first_name_required": "Veuillez saisir le prénom",
    "last_name_required": "Veuillez saisir le nom de famille",
    "city_required": "Veuillez saisir la ville",
    "school_required": "Veuillez sélectionner l'école",
    "teacher_required": "Veuillez saisir le nom de l'enseignant ou de l'enseignante",
    "grade_required": "Veuillez saisir l'année d'études",
    "subject_required": "Veuillez saisir l'objet",
    "description_required": "Veuillez nous dire comment nous pouvons vous aider",
    "terms_required": "Vous devez accepter les conditions d'utilisation",
}
