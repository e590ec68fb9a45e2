"""The family's closure choice (what a school day closed after booking does to a meal), shown on
the family credit screen. Thin: the setting is ``services.closures`` (``closure_choice_of``,
``choose_closure``)."""

from __future__ import annotations

import reflex as rx

from hotmeals.domain.credit import ClosureChoice
from hotmeals.services import closures
from hotmeals.ui.state.forms import FamilyChoice, OnceForm

CHOICES = tuple(c.value for c in ClosureChoice)
CHOICE = FamilyChoice(
    name="closure_choice",
    allowed=CHOICES,
    action="closure_choice",
    view=closures.closure_choice_of,
    save_fn=closures.choose_closure,
    saved="closures_ui.saved",
)


class ClosureChoiceState(OnceForm, rx.State):
    closure_choice: str = ClosureChoice.CARD.value

    @rx.event
    async def load(self):
        await CHOICE.load(self)

    @rx.event
    def set_closure_choice(self, value: str):
        CHOICE.set(self, value)

    @rx.event
    async def save(self):
        async for event in CHOICE.save(self):
            yield event
