"""Demo FAQ, cancel reasons, promo codes, notification kinds and the demo family."""

from __future__ import annotations

from datetime import date

FAQ_EN: tuple[tuple[str, str], ...] = (
    (
        "How do I order a meal?",
        "Sign in, choose your child, then open **Book meal**. Pick a date, a meal and its size, "
        "add a drink or add-ons if you like, and add it to your cart. Pay by card from the cart "
        "to confirm the order.",
    ),
    (
        "When is the order cut-off?",
        "Each caterer has its own cut-off, shown on the menu for every day — for example 5:00 "
        "p.m. two days before, or noon three school days before. After the cut-off the day "
        "can no longer be ordered, changed or cancelled.",
    ),
    (
        "Can I change or cancel an order?",
        "Yes, before the cut-off. From **My orders** you can cancel a whole order or some "
        "meals, change a meal, or move it to another day on which the same caterer serves your "
        "school.",
    ),
    (
        "How do refunds work?",
        "Refunds go back to the card you paid with. Most banks show them within 5–10 business "
        "days. Meals cancelled after the cut-off are not refunded.",
    ),
    (
        "How are allergies handled?",
        "Add your child's allergies to their profile. Meals containing those ingredients are "
        "flagged on the menu and the allergy alert is printed on the meal label. Kitchens may "
        "handle other allergens, so always check the allergen list.",
    ),
    (
        "How much does a meal cost?",
        "Meals start at $5.00 per portion, and the upsized portion is never more than $7.25. "
        "Drinks, add-ons and some options cost extra, as shown on the menu.",
    ),
    (
        "Where does the money go?",
        "From every meal, $0.50 goes to your child's school community and $0.20 to local "
        "children's nutrition programs.",
    ),
    (
        "What happens on PA days and snow days?",
        "No meals are served on PA days; they are shown as closed on the menu. If a school "
        "closes unexpectedly and meals are not delivered, they are refunded to your card.",
    ),
    (
        "Can I add a note for my child?",
        "Yes. A special message is printed on your child's meal label for $1.00 per message.",
    ),
)

FAQ_FR: tuple[tuple[str, str], ...] = (
    (
        "Comment commander un repas?",
        "Connectez-vous, choisissez votre enfant, puis ouvrez **Réserver un repas**. Choisissez "
        "une date, un repas et sa taille, ajoutez une boisson ou des extras au besoin, puis "
        "ajoutez-le au panier. Payez par carte depuis le panier pour confirmer la commande.",
    ),
    (
        "Quelle est l'heure limite de commande?",
        "Chaque traiteur a sa propre heure limite, affichée au menu pour chaque jour — par "
        "exemple 17 h deux jours avant, ou midi trois jours d'école avant. Après l'heure "
        "limite, on ne peut plus commander, modifier ni annuler ce jour-là.",
    ),
    (
        "Puis-je modifier ou annuler une commande?",
        "Oui, avant l'heure limite. Dans **Mes commandes**, vous pouvez annuler une commande "
        "complète ou certains repas, changer un repas ou le déplacer à un autre jour où le "
        "même traiteur dessert votre école.",
    ),
    (
        "Comment fonctionnent les remboursements?",
        "Les remboursements sont versés sur la carte utilisée pour payer. La plupart des "
        "banques les affichent dans un délai de 5 à 10 jours ouvrables. Les repas annulés "
        "après l'heure limite ne sont pas remboursés.",
    ),
    (
        "Comment les allergies sont-elles gérées?",
        "Inscrivez les allergies de votre enfant à son profil. Les repas qui contiennent ces "
        "ingrédients sont signalés au menu et l'alerte est imprimée sur l'étiquette. Les "
        "cuisines peuvent manipuler d'autres allergènes : vérifiez toujours la liste.",
    ),
    (
        "Combien coûte un repas?",
        "Les repas commencent à 5,00 $ la portion, et la portion agrandie ne coûte jamais plus "
        "de 7,25 $. Les boissons, extras et certaines options sont en sus, comme indiqué au "
        "menu.",
    ),
    (
        "Où va l'argent?",
        "Sur chaque repas, 0,50 $ va à la communauté scolaire de votre enfant et 0,20 $ aux "
        "programmes locaux de nutrition pour enfants.",
    ),
    (
        "Que se passe-t-il lors des journées pédagogiques et des tempêtes?",
        "Aucun repas n'est servi lors des journées pédagogiques; elles apparaissent comme "
        "fermées au menu. Si une école ferme de façon imprévue et que les repas ne sont pas "
        "livrés, ils sont remboursés sur votre carte.",
    ),
    (
        "Puis-je ajouter un mot pour mon enfant?",
        "Oui. Un message spécial est imprimé sur l'étiquette du repas pour 1,00 $ par message.",
    ),
)

# (code, English label, French label, is_other)
CANCEL_REASONS: tuple[tuple[str, str, str, bool], ...] = (
    ("CHILD_ABSENT", "My child will be absent", "Mon enfant sera absent", False),
    ("FIELD_TRIP", "Field trip or school event", "Sortie éducative ou activité scolaire", False),
    ("WRONG_MEAL", "I ordered the wrong meal", "J'ai commandé le mauvais repas", False),
    ("DIETARY", "Allergy or dietary concern", "Allergie ou restriction alimentaire", False),
    ("PLANS_CHANGED", "Our plans changed", "Nos plans ont changé", False),
    ("OTHER", "Other", "Autre", True),
)

DEMO_PARENT = {
    "email": "parent@example.com",
    "password": "Lunch@2026",
    "first_name": "Maria",
    "last_name": "Tremblay",
    "phone": "613-555-0142",
    "phone_digits": "6135550142",
    "language": "en",
}

# (first name, last name, grade code, is_default, ((allergen key, alert level), ...)); both
# children attend the first Ottawa school, each in their grade's class.
DEMO_CHILDREN: tuple[tuple[str, str, str, bool, tuple[tuple[str, str], ...]], ...] = (
    ("Emma", "Tremblay", "3", True, (("peanuts", "Major"),)),
    ("Lucas", "Tremblay", "SK", False, (("strawberries", "Low"),)),
)

# code -> fields; "parent" marks the code tied to the demo parent.
PROMO_CODES: dict[str, dict] = {
    "WELCOME10": {
        "description_en": "10% off your order",
        "description_fr": "10 % de rabais sur votre commande",
        "percent_bps": 1000,
    },
    "LUNCH2": {
        "description_en": "$2 off orders of $10 or more",
        "description_fr": "2 $ de rabais sur les commandes de 10 $ ou plus",
        "amount_off_cents": 200,
        "min_order_cents": 1000,
    },
    "SUMMER25": {
        "description_en": "25% off summer camp lunches (expired)",
        "description_fr": "25 % de rabais sur les dîners du camp d'été (expiré)",
        "percent_bps": 2500,
        "valid_from": date(2025, 6, 1),
        "valid_until": date(2025, 8, 31),
    },
    "TREMBLAY5": {
        "description_en": "$5 off for the Tremblay family, orders of $20 or more",
        "description_fr": "5 $ de rabais pour la famille Tremblay, commandes de 20 $ ou plus",
        "amount_off_cents": 500,
        "min_order_cents": 2000,
        "max_uses": 1,
        "parent": True,
    },
}
