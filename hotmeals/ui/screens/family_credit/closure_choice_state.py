"""The family's closure choice (what a school day closed after booking does to a meal), shown on
the family credit screen. Thin: the setting is ``services.closures`` (``closure_choice``,
``choose_closure``)."""

from __future__ import annotations

import reflex as rx

from hotmeals.domain.credit import ClosureChoice
from hotmeals.services import closures
from hotmeals.ui.shared_state.forms import FamilyChoice, FamilyChoiceForm

CHOICES = tuple(c.value for c in ClosureChoice)
CHOICE = FamilyChoice(
    name="closure_choice",
    allowed=CHOICES,
    action="closure_choice",
    view=closures.closure_choice,
    chosen=lambda chosen: chosen.value,
    save_fn=closures.choose_closure,
    saved="closures_ui.saved",
)


class ClosureChoiceState(FamilyChoiceForm, rx.State):
    closure_choice: str = ClosureChoice.CARD.value

    def _choice(self) -> FamilyChoice:
        return CHOICE

    @rx.event
    def set_closure_choice(self, value: str) -> None:
        CHOICE.set(self, value)
