"""Allergy safety on the screens: who a meal is for, the child's marks, the menu's
'safe for' filter, the card's price 'from', 'In cart' and the cut-off, each option's and
add-on's mark in the meal dialog, and the sign-up allergy step that never drops picked
allergies. Kept apart from ``ui_booking.py`` so parallel work on that file merges cleanly."""

EN: dict[str, str] = {
    "ui.allergy.skip_has_items.one": (
        "You picked {count} allergy: save it, or remove it first to continue without any."
    ),
    "ui.allergy.skip_has_items.other": (
        "You picked {count} allergies: save them, or remove them first to continue without any."
    ),
    "ui.safe.for_child": "For {name}",
    "ui.safe.child_marks": "{name}'s allergies: {allergies}",
    "ui.safe.child_none": "No allergies listed for {name}",
    "ui.safe.filter": "Safe for {name}",
    "ui.safe.filter_hint": "Shows only the meals that contain none of {whose} allergens.",
    "ui.safe.hidden.one": "{count} hidden: it contains one of {whose} allergens.",
    "ui.safe.hidden.other": "{count} hidden: they contain {whose} allergens.",
    "ui.safe.all_hidden": "No meal on this day is safe for {name}.",
    "ui.safe.contains": "Contains: {allergens}",
    "ui.safe.no_allergens": "No listed allergens",
    "ui.safe.extras": "Options and add-ons: {allergens}",
    "ui.safe.from": "from {price}",
    "ui.safe.in_cart": "In cart ({count})",
    "ui.safe.order_by": "Order by {when}",
    "ui.safe.closed_at": "Ordering closed {when}",
    "ui.safe.cannot_pick": "Not available for {name}: {allergens} (Major allergy)",
    "ui.safe.needs_ack": "{allergens}: you will be asked to confirm",
    "ui.safe.notice": "{allergens}: low allergy, for your information",
    "ui.safe.option_refused": "{option} — not for {name} ({allergens})",
    "ui.safe.item_mark": "{item} · {mark}",
}

FR: dict[str, str] = {
    "ui.allergy.skip_has_items.one": (
        "Vous avez choisi {count} allergie : enregistrez-la, ou retirez-la d'abord pour "
        "continuer sans allergie."
    ),
    "ui.allergy.skip_has_items.other": (
        "Vous avez choisi {count} allergies : enregistrez-les, ou retirez-les d'abord pour "
        "continuer sans allergie."
    ),
    "ui.safe.for_child": "Pour {name}",
    "ui.safe.child_marks": "{name} est allergique à : {allergies}",
    "ui.safe.child_none": "Aucune allergie indiquée pour {name}",
    "ui.safe.filter": "Sans danger pour {name}",
    "ui.safe.filter_hint": (
        "Affiche seulement les repas qui ne contiennent aucun des allergènes {whose}."
    ),
    "ui.safe.hidden.one": "{count} repas masqué : il contient un des allergènes {whose}.",
    "ui.safe.hidden.other": "{count} repas masqués : ils contiennent des allergènes {whose}.",
    "ui.safe.all_hidden": "Aucun repas de ce jour n'est sans danger pour {name}.",
    "ui.safe.contains": "Contient : {allergens}",
    "ui.safe.no_allergens": "Aucun allergène indiqué",
    "ui.safe.extras": "Options et suppléments : {allergens}",
    "ui.safe.from": "à partir de {price}",
    "ui.safe.in_cart": "Au panier ({count})",
    "ui.safe.order_by": "Commandez avant le {when}",
    "ui.safe.closed_at": "Commandes fermées le {when}",
    "ui.safe.cannot_pick": "Non offert pour {name} : {allergens} (allergie majeure)",
    "ui.safe.needs_ack": "{allergens} : il vous sera demandé de confirmer",
    "ui.safe.notice": "{allergens} : allergie faible, à titre d'information",
    "ui.safe.option_refused": "{option} — pas pour {name} ({allergens})",
    "ui.safe.item_mark": "{item} · {mark}",
}
