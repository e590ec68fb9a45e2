"""The family's closure choice (what a school day closed after booking does to a meal), shown on
the family credit screen. Thin: the setting is ``services.closures`` (``closure_choice_of``,
``choose_closure``)."""

from __future__ import annotations

import reflex as rx

from hotmeals.domain.credit import ClosureChoice
from hotmeals.services import closures
from hotmeals.ui.state.auth import acting_parent
from hotmeals.ui.state.base import call_service
from hotmeals.ui.state.forms import forget_submission, one_turn, save_choice

CHOICES = tuple(c.value for c in ClosureChoice)


class ClosureChoiceState(rx.State):
    closure_choice: str = ClosureChoice.CARD.value
    busy: bool = False
    turn: int = 0  # bumped when a save ends (components.forms.once_attrs)

    _once_key: str = ""
    _once_digest: str = ""

    @rx.event
    async def load(self):
        self.busy = False
        who = await acting_parent(self)
        if who is None or not who.complete:
            return
        view = await call_service(
            closures.closure_choice_of, parent_id=who.parent_id, lang=who.lang
        )
        self.closure_choice = view["closure_choice"]
        forget_submission(self)

    @rx.event
    def set_closure_choice(self, value: str):
        if value in CHOICES:  # anything else from the browser is ignored
            self.closure_choice = value

    @rx.event
    async def save(self):
        saving = save_choice(
            self,
            name="closure_choice",
            action="closure_choice",
            fn=closures.choose_closure,
            saved="closures_ui.saved",
        )
        async for event in one_turn(self, saving):
            yield event
