"""Messages of accounts, children, content, notifications and their e-mails.

'You have been logout successfully' and 'Password Changed' are docs/product.md §8's texts.
Mail templates are ``mail.<template>.subject`` / ``mail.<template>.body``.
"""

EN: dict[str, str] = {
    # sessions and sign-in
    "unauthorized": "Your session has expired. Please sign in again.",
    "login_invalid": "Invalid email or password",
    "login_phone_invalid": "Invalid phone number or password",
    "email_not_verified": (
        "Please verify your email address. We have sent a 6-digit code to {email}."
    ),
    "login_success": "Logged in successfully",
    "logout_success": "You have been logout successfully",
    "rate_limited": "Too many attempts. Please try again in {minutes} minutes.",
    "password_too_long": "Password should not exceed 128 characters",
    # one-time codes
    "otp_required": "Please enter the verification code",
    "otp_invalid": "Invalid or expired verification code",
    "otp_too_many_attempts": "Too many wrong codes. Please ask for a new code.",
    "otp_cooldown": "Please wait {seconds} seconds before asking for a new code",
    "otp_purpose_invalid": "Unknown verification type",
    "otp_sent": "We have sent a 6-digit code to {email}. It is valid for 10 minutes.",
    # Said where the address may belong to nobody (sign-up, resend): true either way.
    "otp_on_its_way": (
        "If an account can use {email}, a new 6-digit code is on its way. "
        "It is valid for 10 minutes."
    ),
    "signup_success": (
        "Thank you for signing up! If an account can use {email}, a 6-digit code is on its "
        "way to verify the address."
    ),
    "email_verified": "Your email address is verified",
    "otp_valid": "The code is correct. Please choose a new password.",
    # passwords
    "forgot_password_sent": (
        "If an account exists for {email}, a 6-digit code to reset the password is on its way."
    ),
    "password_reset_success": (
        "Your password has been reset. Please sign in with your new password."
    ),
    "password_changed": "Password Changed",
    "current_password_wrong": "Current password is incorrect",
    # profile
    "parent_not_found": "Account not found",
    "profile_updated": "Profile updated successfully",
    "profile_loaded": "Profile details",
    "alt_email_is_primary": "This is already your main email address",
    "alt_email_exists": "This alternate email address is already added",
    "alt_email_limit": "You can add at most {max} alternate email addresses",
    "alt_email_not_found": "This alternate email address is not on your profile",
    "alt_email_verified": "Alternate email address verified",
    "image_too_large": "The picture must be 2 MB or smaller",
    "image_type_invalid": "Please choose a PNG, JPEG or WebP picture",
    "language_invalid": "Please choose English or French",
    "language_updated": "Language updated",
    # children
    "child_not_found": "Child not found",
    "city_not_found": "Please select a city from the list",
    "school_not_found": "Please select a school from the list",
    "teacher_not_found": "Please select a teacher from the list",
    "grade_not_found": "Please select a grade from the list",
    "child_limit": "You can add at most {max} children",
    "ingredient_not_found": "Please select ingredients from the list",
    "allergy_limit": "You can add at most {max} allergic ingredients",
    "child_added": "Child added successfully",
    "child_updated": "Child updated successfully",
    "child_deleted": "Child deleted successfully",
    "default_child_set": "Default child updated",
    "allergies_saved": "Allergy profile saved",
    # content
    "page_not_found": "Page not found",
    "faq_title": "Frequently asked questions",
    "subject_too_long": "Subject should not exceed 200 characters",
    "description_too_long": "Description should not exceed 5000 characters",
    "contact_sent": "Thank you! Your message has been sent. We will get back to you soon.",
    # notifications
    "notification_kind_invalid": "Unknown notification type",
    "notifications_updated": "Notification preferences saved",
    # API request context
    "success": "Success",
    "no_data_found": "No data found",
    "api_app_invalid": "Unknown app identifier.",
    "field_invalid": "Please check the value of {field}",
    "body_too_large": "The request is too large.",
    # mail
    "mail.otp_verify.subject": "Your Hot Meals verification code: {otp}",
    "mail.otp_verify.body": (
        "Hello {first_name},\n\n"
        "Welcome to Hot Meals! Your verification code is:\n\n    {otp}\n\n"
        "It is valid for 10 minutes. If you did not sign up, you can ignore this email.\n\n"
        "The Hot Meals team"
    ),
    "mail.otp_reset.subject": "Reset your Hot Meals password: code {otp}",
    "mail.otp_reset.body": (
        "Hello {first_name},\n\n"
        "We received a request to reset your password. Your code is:\n\n    {otp}\n\n"
        "It is valid for 10 minutes. If you did not ask for it, you can ignore this email: "
        "your password stays the same.\n\n"
        "The Hot Meals team"
    ),
    "mail.otp_alt_email.subject": "Confirm your alternate email address: code {otp}",
    "mail.otp_alt_email.body": (
        "Hello {first_name},\n\n"
        "Please confirm this address as an alternate email for your Hot Meals account. "
        "Your code is:\n\n    {otp}\n\n"
        "It is valid for 10 minutes. If you did not ask for it, you can ignore this email.\n\n"
        "The Hot Meals team"
    ),
    "mail.account_exists.subject": "Your Hot Meals account",
    "mail.account_exists.body": (
        "Hello {first_name},\n\n"
        "Someone tried to sign up for Hot Meals with this email address, which already has an "
        "account. If it was you, please sign in, or use 'Forgot password' to choose a new "
        "password. If it was not you, you can ignore this email.\n\n"
        "The Hot Meals team"
    ),
    "mail.password_changed.subject": "Your Hot Meals password was changed",
    "mail.password_changed.body": (
        "Hello {first_name},\n\n"
        "The password of your Hot Meals account was just changed, and other devices were "
        "signed out. If this was not you, please reset your password now with 'Forgot "
        "password' and contact us.\n\n"
        "The Hot Meals team"
    ),
    "mail.contact.subject": "Contact form: {subject}",
    "mail.contact.body": (
        "A parent wrote through the contact form.\n\n"
        "Name: {first_name} {last_name}\nEmail: {email}\nPhone: {phone}\n"
        "Account: {account}\nLanguage: {parent_language}\n\nSubject: {subject}\n\n{description}\n"
    ),
}

FR: dict[str, str] = {
    "unauthorized": "Votre session a expiré. Veuillez vous reconnecter.",
    "login_invalid": "Courriel ou mot de passe invalide",
    "login_phone_invalid": "Numéro de téléphone ou mot de passe invalide",
    "email_not_verified": (
        "Veuillez vérifier votre adresse courriel. Nous avons envoyé un code à 6 chiffres à "
        "{email}."
    ),
    "login_success": "Connexion réussie",
    "logout_success": "Vous avez été déconnecté avec succès",
    "rate_limited": "Trop de tentatives. Veuillez réessayer dans {minutes} minutes.",
    "password_too_long": "Le mot de passe ne doit pas dépasser 128 caractères",
    "otp_required": "Veuillez saisir le code de vérification",
    "otp_invalid": "Code de vérification invalide ou expiré",
    "otp_too_many_attempts": "Trop de codes erronés. Veuillez demander un nouveau code.",
    "otp_cooldown": "Veuillez attendre {seconds} secondes avant de demander un nouveau code",
    "otp_purpose_invalid": "Type de vérification inconnu",
    "otp_sent": "Nous avons envoyé un code à 6 chiffres à {email}. Il est valide 10 minutes.",
    "otp_on_its_way": (
        "Si un compte peut utiliser {email}, un nouveau code à 6 chiffres est en route. "
        "Il est valide 10 minutes."
    ),
    "signup_success": (
        "Merci de votre inscription! Si un compte peut utiliser {email}, un code à 6 chiffres "
        "est en route pour vérifier l'adresse."
    ),
    "email_verified": "Votre adresse courriel est vérifiée",
    "otp_valid": "Le code est correct. Veuillez choisir un nouveau mot de passe.",
    "forgot_password_sent": (
        "Si un compte existe pour {email}, un code à 6 chiffres pour réinitialiser le mot de "
        "passe est en route."
    ),
    "password_reset_success": (
        "Votre mot de passe a été réinitialisé. Veuillez vous connecter avec votre nouveau "
        "mot de passe."
    ),
    "password_changed": "Mot de passe modifié",
    "current_password_wrong": "Le mot de passe actuel est incorrect",
    "parent_not_found": "Compte introuvable",
    "profile_updated": "Profil mis à jour",
    "profile_loaded": "Détails du profil",
    "alt_email_is_primary": "C'est déjà votre adresse courriel principale",
    "alt_email_exists": "Cette adresse courriel secondaire est déjà ajoutée",
    "alt_email_limit": "Vous pouvez ajouter au plus {max} adresses courriel secondaires",
    "alt_email_not_found": "Cette adresse courriel secondaire n'est pas dans votre profil",
    "alt_email_verified": "Adresse courriel secondaire vérifiée",
    "image_too_large": "La photo doit faire 2 Mo ou moins",
    "image_type_invalid": "Veuillez choisir une photo PNG, JPEG ou WebP",
    "language_invalid": "Veuillez choisir le français ou l'anglais",
    "language_updated": "Langue mise à jour",
    "child_not_found": "Enfant introuvable",
    "city_not_found": "Veuillez choisir une ville dans la liste",
    "school_not_found": "Veuillez choisir une école dans la liste",
    "teacher_not_found": "Veuillez choisir un enseignant ou une enseignante dans la liste",
    "grade_not_found": "Veuillez choisir une année d'études dans la liste",
    "child_limit": "Vous pouvez ajouter au plus {max} enfants",
    "ingredient_not_found": "Veuillez choisir des ingrédients dans la liste",
    "allergy_limit": "Vous pouvez ajouter au plus {max} ingrédients allergènes",
    "child_added": "Enfant ajouté",
    "child_updated": "Enfant mis à jour",
    "child_deleted": "Enfant supprimé",
    "default_child_set": "Enfant par défaut mis à jour",
    "allergies_saved": "Profil d'allergies enregistré",
    "page_not_found": "Page introuvable",
    "faq_title": "Foire aux questions",
    "subject_too_long": "L'objet ne doit pas dépasser 200 caractères",
    "description_too_long": "La description ne doit pas dépasser 5000 caractères",
    "contact_sent": "Merci! Votre message a été envoyé. Nous vous répondrons bientôt.",
    "notification_kind_invalid": "Type de notification inconnu",
    "notifications_updated": "Préférences de notification enregistrées",
    "success": "Succès",
    "no_data_found": "Aucune donnée trouvée",
    "api_app_invalid": "Identifiant d'application inconnu.",
    "field_invalid": "Veuillez vérifier la valeur de {field}",
    "body_too_large": "La requête est trop volumineuse.",
    "mail.otp_verify.subject": "Votre code de vérification Hot Meals : {otp}",
    "mail.otp_verify.body": (
        "Bonjour {first_name},\n\n"
        "Bienvenue chez Hot Meals! Votre code de vérification est :\n\n    {otp}\n\n"
        "Il est valide 10 minutes. Si vous ne vous êtes pas inscrit, ignorez ce courriel.\n\n"
        "L'équipe Hot Meals"
    ),
    "mail.otp_reset.subject": "Réinitialiser votre mot de passe Hot Meals : code {otp}",
    "mail.otp_reset.body": (
        "Bonjour {first_name},\n\n"
        "Nous avons reçu une demande de réinitialisation de votre mot de passe. Votre code "
        "est :\n\n    {otp}\n\n"
        "Il est valide 10 minutes. Si vous n'avez rien demandé, ignorez ce courriel : votre "
        "mot de passe reste le même.\n\n"
        "L'équipe Hot Meals"
    ),
    "mail.otp_alt_email.subject": "Confirmez votre adresse courriel secondaire : code {otp}",
    "mail.otp_alt_email.body": (
        "Bonjour {first_name},\n\n"
        "Veuillez confirmer cette adresse comme courriel secondaire de votre compte Hot Meals. "
        "Votre code est :\n\n    {otp}\n\n"
        "Il est valide 10 minutes. Si vous n'avez rien demandé, ignorez ce courriel.\n\n"
        "L'équipe Hot Meals"
    ),
    "mail.account_exists.subject": "Votre compte Hot Meals",
    "mail.account_exists.body": (
        "Bonjour {first_name},\n\n"
        "Quelqu'un a essayé de s'inscrire à Hot Meals avec cette adresse courriel, qui a déjà "
        "un compte. Si c'était vous, connectez-vous, ou utilisez « Mot de passe oublié » pour "
        "choisir un nouveau mot de passe. Sinon, ignorez ce courriel.\n\n"
        "L'équipe Hot Meals"
    ),
    "mail.password_changed.subject": "Votre mot de passe Hot Meals a été modifié",
    "mail.password_changed.body": (
        "Bonjour {first_name},\n\n"
        "Le mot de passe de votre compte Hot Meals vient d'être modifié et vos autres appareils "
        "ont été déconnectés. Si ce n'était pas vous, réinitialisez votre mot de passe "
        "maintenant avec « Mot de passe oublié » et communiquez avec nous.\n\n"
        "L'équipe Hot Meals"
    ),
    "mail.contact.subject": "Formulaire de contact : {subject}",
    "mail.contact.body": (
        "Un parent a écrit par le formulaire de contact.\n\n"
        "Nom : {first_name} {last_name}\nCourriel : {email}\nTéléphone : {phone}\n"
        "Compte : {account}\nLangue : {parent_language}\n\nObjet : {subject}\n\n{description}\n"
    ),
}
