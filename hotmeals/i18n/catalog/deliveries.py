"""A school day's delivery confirmed (services/deliveries.py, api/deliveries.py, the operator's
``confirm-delivery``), and the refusal of a change to a meal already delivered."""

EN = {
    "meal_delivered": (
        "This meal was delivered on {day}: it can no longer be cancelled or changed."
    ),
    "delivery_too_early": (
        "The meals of {date} can be confirmed as delivered from that day on (it is {today} "
        "in Toronto)."
    ),
    "delivery_busy": "This day's delivery is being confirmed by another call: please try again.",
}

FR = {
    "meal_delivered": ("Ce repas a été livré le {day} : il ne peut plus être annulé ni modifié."),
    "delivery_too_early": (
        "Les repas du {date} peuvent être confirmés comme livrés à partir de ce jour-là (nous "
        "sommes le {today} à Toronto)."
    ),
    "delivery_busy": (
        "La livraison de ce jour est en cours de confirmation par un autre appel : veuillez "
        "réessayer."
    ),
}
