"""Modify an order and move a meal (services/ordering/changing/modify.py and move.py, and the
/api/v1 order calls): refusals, the difference before confirming, outcomes and e-mails."""

EN: dict[str, str] = {
    # refusals (DomainError codes)
    "order_change_order_not_found": "Order not found",
    "order_change_line_not_found": "Meal not found in your orders",
    "order_change_line_not_active": "This meal was already cancelled",
    "order_change_step_not_found": "This change is no longer in your modification",
    "order_change_not_modifiable": "Order {number} can no longer be changed.",
    "order_change_cutoff_passed": (
        "The deadline to change or cancel the meal of {day} passed on {when}: it can no longer "
        "be changed."
    ),
    "order_change_target_closed": (
        "Ordering for {day} closed on {when}: please choose another date."
    ),
    "order_change_other_vendor": (
        "This meal's vendor does not serve your child's school on {day}: please choose another "
        "date."
    ),
    "order_change_meal_not_served": (
        "{meal} is not on the menu on {day}. Please choose another date, or cancel this meal and "
        "book another one."
    ),
    "order_change_same_date": "The meal is already on that date.",
    "order_change_quantity_invalid": "You can remove 1 to {max} of this meal.",
    "order_change_empty": "Nothing to confirm: add or remove a meal first.",
    "order_change_too_many": "A modification can have at most {max} changes.",
    "order_change_in_progress": (
        "A payment for a change of this order is being processed. Please wait a moment and try "
        "again."
    ),
    "order_change_price_changed": "The order changed meanwhile: please review it again.",
    # the difference before confirming
    "order_change.info_pay": "You will pay {amount} more.",
    "order_change.info_refund": "{amount} will be refunded to your card.",
    "order_change.info_even": "The total does not change.",
    # outcomes
    "order_change.applied_refund": (
        "Your order {number} is updated. {amount} is being refunded to your card."
    ),
    "order_change.applied_paid": (
        "Your order {number} is updated. {amount} was charged to your card."
    ),
    "order_change.applied_even": "Your order {number} is updated. The total is unchanged.",
    "order_change.refund_later": (
        "Your order {number} is updated. The refund of {amount} is delayed: the card "
        "processor has not confirmed it yet. We will keep trying and e-mail you."
    ),
    "order_change.pay": "Please pay {amount} to confirm the change.",
    "order_change.pending": (
        "We are confirming your payment with the card processor. Order {number} will be "
        "updated as soon as it is confirmed."
    ),
    "order_change.declined": (
        "Your card was declined. Nothing was charged and your order is unchanged."
    ),
    "order_change.attempt_voided": (
        "This payment came after your change of order {number} was set aside: the charge is "
        "cancelled and the order is as it was."
    ),
    "order_change.not_confirmed": (
        "We could not confirm the payment for order {number}; you have not been charged twice. "
        "If the card processor made the charge after all, the change is applied with it (or "
        "the charge is cancelled); otherwise your order is unchanged and you can try again."
    ),
    "order_change.not_completed": (
        "The payment was not completed. Nothing was charged and your order is unchanged."
    ),
    "order_change.dropped": (
        "Order {number} could not be changed any more (a deadline passed or the meal was "
        "cancelled): the charge of {amount} is cancelled."
    ),
    # e-mails
    "order_change.mail_removed": "Removed: {quantity} × {meal} on {day}",
    "order_change.mail_added": "Added: {quantity} × {meal} for {child} on {day}",
    "order_change.mail_moved": "Moved: {meal} from {old} to {new}",
    "order_change.mail_paid": "{amount} was charged to your card.",
    "order_change.mail_refund": "{amount} is being refunded to your card.",
    "order_change.mail_even": "The total is unchanged.",
    "mail.order_changed.subject": "Your Hot Meals order {number} was changed",
    "mail.order_changed.body": (
        "Hello {name},\n\nYour order {number} was changed:\n{changes}\n\n{money}\n"
        "Order total: {total}\n\nSee your order: {order_url}\n\nThe Hot Meals team"
    ),
    "mail.meal_moved.subject": "Your Hot Meals meal was moved (order {number})",
    "mail.meal_moved.body": (
        "Hello {name},\n\n{changes}\n\n{money}\nOrder total: {total}\n\n"
        "See your order: {order_url}\n\nThe Hot Meals team"
    ),
}

FR: dict[str, str] = {
    "order_change_order_not_found": "Commande introuvable",
    "order_change_line_not_found": "Repas introuvable dans vos commandes",
    "order_change_line_not_active": "Ce repas a déjà été annulé",
    "order_change_step_not_found": "Ce changement ne fait plus partie de votre modification",
    "order_change_not_modifiable": "La commande {number} ne peut plus être modifiée.",
    "order_change_cutoff_passed": (
        "La date limite pour modifier ou annuler le repas du {day} est passée (le {when}) : il ne "
        "peut plus être modifié."
    ),
    "order_change_target_closed": (
        "Les commandes pour le {day} sont fermées depuis le {when} : veuillez choisir une autre "
        "date."
    ),
    "order_change_other_vendor": (
        "Le traiteur de ce repas ne sert pas l'école de votre enfant le {day} : veuillez choisir "
        "une autre date."
    ),
    "order_change_meal_not_served": (
        "{meal} n'est pas au menu le {day}. Veuillez choisir une autre date, ou annuler ce repas "
        "et en réserver un autre."
    ),
    "order_change_same_date": "Le repas est déjà à cette date.",
    "order_change_quantity_invalid": "Vous pouvez retirer de 1 à {max} de ce repas.",
    "order_change_empty": "Rien à confirmer : ajoutez ou retirez d'abord un repas.",
    "order_change_too_many": "Une modification peut compter au plus {max} changements.",
    "order_change_in_progress": (
        "Un paiement pour une modification de cette commande est en cours de traitement. "
        "Veuillez patienter un instant et réessayer."
    ),
    "order_change_price_changed": (
        "La commande a changé entre-temps : veuillez la vérifier de nouveau."
    ),
    "order_change.info_pay": "Vous paierez {amount} de plus.",
    "order_change.info_refund": "{amount} sera remboursé sur votre carte.",
    "order_change.info_even": "Le total ne change pas.",
    "order_change.applied_refund": (
        "Votre commande {number} est modifiée. {amount} est en cours de remboursement sur votre "
        "carte."
    ),
    "order_change.applied_paid": (
        "Votre commande {number} est modifiée. {amount} a été débité de votre carte."
    ),
    "order_change.applied_even": "Votre commande {number} est modifiée. Le total est inchangé.",
    "order_change.refund_later": (
        "Votre commande {number} est modifiée. Le remboursement de {amount} est retardé : le "
        "processeur de paiement ne l'a pas encore confirmé. Nous réessaierons et vous "
        "écrirons."
    ),
    "order_change.pay": "Veuillez payer {amount} pour confirmer la modification.",
    "order_change.pending": (
        "Nous confirmons votre paiement auprès du processeur de cartes. La commande {number} "
        "sera modifiée dès sa confirmation."
    ),
    "order_change.declined": (
        "Votre carte a été refusée. Rien n'a été débité et votre commande est inchangée."
    ),
    "order_change.attempt_voided": (
        "Ce paiement est arrivé après la mise de côté de votre modification de la commande "
        "{number} : le débit est annulé et la commande reste telle quelle."
    ),
    "order_change.not_confirmed": (
        "Nous n'avons pas pu confirmer le paiement de la commande {number} ; vous n'avez pas été "
        "débité deux fois. Si le processeur de cartes a tout de même effectué le paiement, la "
        "modification est appliquée avec celui-ci (ou le paiement est annulé) ; sinon, votre "
        "commande est inchangée et vous pouvez réessayer."
    ),
    "order_change.not_completed": (
        "Le paiement n'a pas été effectué. Rien n'a été débité et votre commande est inchangée."
    ),
    "order_change.dropped": (
        "La commande {number} ne pouvait plus être modifiée (une date limite est passée ou le "
        "repas a été annulé) : le débit de {amount} est annulé."
    ),
    "order_change.mail_removed": "Retiré : {quantity} × {meal} le {day}",
    "order_change.mail_added": "Ajouté : {quantity} × {meal} pour {child} le {day}",
    "order_change.mail_moved": "Déplacé : {meal} du {old} au {new}",
    "order_change.mail_paid": "{amount} a été débité de votre carte.",
    "order_change.mail_refund": "{amount} est en cours de remboursement sur votre carte.",
    "order_change.mail_even": "Le total est inchangé.",
    "mail.order_changed.subject": "Votre commande Hot Meals {number} a été modifiée",
    "mail.order_changed.body": (
        "Bonjour {name},\n\nVotre commande {number} a été modifiée :\n{changes}\n\n{money}\n"
        "Total de la commande : {total}\n\nVoir votre commande : {order_url}\n\nL'équipe Hot Meals"
    ),
    "mail.meal_moved.subject": "Votre repas Hot Meals a été déplacé (commande {number})",
    "mail.meal_moved.body": (
        "Bonjour {name},\n\n{changes}\n\n{money}\nTotal de la commande : {total}\n\n"
        "Voir votre commande : {order_url}\n\nL'équipe Hot Meals"
    ),
}
