"""Messages of the security checks: throttled sign-ins, e-mailed sign-in codes, common
passwords, header-safe text, picture limits, request sizes, the demo banner."""

EN: dict[str, str] = {
    "rate_limited_seconds": "Too many attempts. Please try again in {seconds} seconds.",
    "login_code_sent": (
        "For your security we have sent a 6-digit sign-in code to {email}. "
        "Enter it to finish signing in."
    ),
    "password_common": (
        "This password is too common and easy to guess. Please choose another one."
    ),
    "line_break_invalid": "Please remove the line breaks from this field",
    "image_too_many_pixels": "This picture is too large. Please choose one under 40 megapixels.",
    "alt_email_taken": "This email address belongs to another account",
    "service_busy": "The service is busy. Please try again in a moment.",
    "demo_banner": "Demo — payments are simulated",
    "demo_banner_label": "Demo mode",
    "mail.otp_login.subject": "Your Hot Meals sign-in code: {otp}",
    "mail.otp_login.body": (
        "Hello {first_name},\n\n"
        "Someone signed in to your Hot Meals account with your password from a connection that "
        "failed to sign in many times. To finish signing in, enter this code:\n\n    {otp}\n\n"
        "It is valid for 10 minutes. If it was not you, change your password.\n\n"
        "The Hot Meals team"
    ),
}

FR: dict[str, str] = {
    "rate_limited_seconds": "Trop de tentatives. Veuillez réessayer dans {seconds} secondes.",
    "login_code_sent": (
        "Pour votre sécurité, nous avons envoyé un code de connexion à 6 chiffres à {email}. "
        "Saisissez-le pour terminer la connexion."
    ),
    "password_common": (
        "Ce mot de passe est trop courant et facile à deviner. Veuillez en choisir un autre."
    ),
    "line_break_invalid": "Veuillez retirer les retours à la ligne de ce champ",
    "image_too_many_pixels": (
        "Cette image est trop grande. Veuillez en choisir une de moins de 40 mégapixels."
    ),
    "alt_email_taken": "Cette adresse courriel appartient à un autre compte",
    "service_busy": "Le service est occupé. Veuillez réessayer dans un instant.",
    "demo_banner": "Démo — les paiements sont simulés",
    "demo_banner_label": "Mode démo",
    "mail.otp_login.subject": "Votre code de connexion Hot Meals : {otp}",
    "mail.otp_login.body": (
        "Bonjour {first_name},\n\n"
        "Quelqu'un s'est connecté à votre compte Hot Meals avec votre mot de passe depuis une "
        "connexion qui a échoué de nombreuses fois. Pour terminer la connexion, saisissez ce "
        "code :\n\n    {otp}\n\n"
        "Il est valide 10 minutes. Si ce n'était pas vous, changez votre mot de passe.\n\n"
        "L'équipe Hot Meals"
    ),
}
