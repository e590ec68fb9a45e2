"""The start of the school year and the give-back dashboard."""

EN = {
    # Service refusals.
    "school_year_unconfirmed": (
        "It's a new school year: please confirm {child}'s grade, teacher and school for "
        "{year} before booking: Book meal opens the confirmation."
    ),
    "allergies_review_required": "Please confirm that you have reviewed the allergies",
    "child_archived": "Child archived",
    # The confirmation screen.
    "title.school_year": "Start of the school year",
    "sy.heading": "Welcome to the new school year",
    "sy.intro": (
        "Before booking meals, please check each child's class for this year. "
        "It takes a minute and makes sure every lunch reaches the right classroom."
    ),
    "sy.children_to_confirm.one": "{count} child to confirm",
    "sy.children_to_confirm.other": "{count} children to confirm",
    "sy.last_year": "Last year",
    "sy.grade": "Grade this year",
    "sy.offered": "We suggest the next grade; change it if needed.",
    "sy.graduating": (
        "This was the last grade we serve. If your child has left the school, archive the "
        "profile below."
    ),
    "sy.school": "School",
    "sy.teacher": "Teacher",
    "sy.choose_teacher": "Choose a teacher",
    "sy.choose_grade": "Choose a grade",
    "sy.choose_school": "Choose a school",
    "sy.allergies": "Allergies",
    "sy.no_allergies": "No allergies recorded.",
    "sy.allergies_hint": "Something changed? Update the allergies from your account afterwards.",
    "sy.reviewed": "I have reviewed these allergies",
    "sy.confirm": "Confirm",
    "sy.archive": "Left the school: archive",
    "sy.archive_yes": "Yes, archive this child",
    "sy.archive_no": "Cancel",
    "sy.archive_hint": (
        "An archived child is hidden from booking; past orders stay in your order history."
    ),
    "sy.confirmed": "{name} is confirmed for this school year",
    "sy.archived": "{name} is archived",
    "sy.done_title": "All set for this school year",
    "sy.done_text": "Every child is confirmed. Enjoy the lunches!",
    "sy.book": "Book meal",
    "sy.account": "Back to my account",
    # The give-back dashboard.
    "gb.title": "The good your lunches do",
    "gb.year": "School year",
    "gb.intro": (
        "Every meal gives $0.50 to the school community and $0.20 to local children's "
        "nutrition programs."
    ),
    "gb.family_total": "Your family gave",
    "gb.meals": "Meals",
    "gb.school_community": "To the school community",
    "gb.nutrition": "To nutrition programs",
    "gb.donations": "Donations",
    "gb.school_yours": "From your family",
    "gb.school_total": "From all families so far",
    "gb.empty": "No meals yet this school year: your first lunch starts the count.",
}

FR = {
    "school_year_unconfirmed": (
        "C'est une nouvelle année scolaire ({year}) : avant de réserver, confirmez le niveau, "
        "l'enseignant et l'école pour {child} : Réserver un repas ouvre la confirmation."
    ),
    "allergies_review_required": "Veuillez confirmer que vous avez vérifié les allergies",
    "child_archived": "Enfant archivé",
    "title.school_year": "Rentrée scolaire",
    "sy.heading": "Bienvenue dans la nouvelle année scolaire",
    "sy.intro": (
        "Avant de réserver des repas, vérifiez la classe de chaque enfant pour cette année. "
        "Cela prend une minute et chaque repas arrive dans la bonne classe."
    ),
    "sy.children_to_confirm.one": "{count} enfant à confirmer",
    "sy.children_to_confirm.other": "{count} enfants à confirmer",
    "sy.last_year": "L'an dernier",
    "sy.grade": "Niveau cette année",
    "sy.offered": "Nous suggérons le niveau suivant ; modifiez-le au besoin.",
    "sy.graduating": (
        "C'était le dernier niveau que nous servons. Si votre enfant a quitté l'école, "
        "archivez son profil ci-dessous."
    ),
    "sy.school": "École",
    "sy.teacher": "Enseignant",
    "sy.choose_teacher": "Choisir un enseignant",
    "sy.choose_grade": "Choisir un niveau",
    "sy.choose_school": "Choisir une école",
    "sy.allergies": "Allergies",
    "sy.no_allergies": "Aucune allergie enregistrée.",
    "sy.allergies_hint": "Un changement ? Mettez les allergies à jour depuis votre compte ensuite.",
    "sy.reviewed": "J'ai vérifié ces allergies",
    "sy.confirm": "Confirmer",
    "sy.archive": "A quitté l'école : archiver",
    "sy.archive_yes": "Oui, archiver cet enfant",
    "sy.archive_no": "Annuler",
    "sy.archive_hint": (
        "Un enfant archivé n'apparaît plus à la réservation ; ses commandes passées restent "
        "dans votre historique."
    ),
    "sy.confirmed": "Confirmation enregistrée pour {name}",
    "sy.archived": "Profil archivé : {name}",
    "sy.done_title": "Tout est prêt pour cette année scolaire",
    "sy.done_text": "Chaque enfant est confirmé. Bon appétit !",
    "sy.book": "Réserver un repas",
    "sy.account": "Retour à mon compte",
    "gb.title": "Le bien que font vos repas",
    "gb.year": "Année scolaire",
    "gb.intro": (
        "Chaque repas donne 0,50 $ à la communauté scolaire et 0,20 $ aux programmes de "
        "nutrition pour enfants de la région."
    ),
    "gb.family_total": "Votre famille a donné",
    "gb.meals": "Repas",
    "gb.school_community": "À la communauté scolaire",
    "gb.nutrition": "Aux programmes de nutrition",
    "gb.donations": "Dons",
    "gb.school_yours": "De votre famille",
    "gb.school_total": "De toutes les familles à ce jour",
    "gb.empty": "Aucun repas cette année scolaire : votre premier repas lance le compte.",
}
