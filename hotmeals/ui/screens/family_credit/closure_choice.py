"""The closure choice on the family credit screen: what happens to a booked meal when its
school day is closed (a refund to the card, family credit, or a make-up meal)."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.forms import choice_fieldset, choice_option
from hotmeals.ui.screens.family_credit.closure_choice_state import CHOICES, ClosureChoiceState
from hotmeals.ui.shared_state.i18n import t


def closure_choice() -> rx.Component:
    return choice_fieldset(
        t("closures_ui.legend"),
        [
            choice_option(c, f"closure-{c}", t(f"closures.choice.{c}"), t(f"closures_ui.{c}_text"))
            for c in CHOICES
        ],
        ClosureChoiceState,
        field="closure_choice",
        save_id="closure-choice-save",
        on_mount=ClosureChoiceState.load,
        id="closure-choice",
    )
