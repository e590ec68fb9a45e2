"""A child's allergy profile (docs/product.md §3): ingredients picked from the admin's list with
type-ahead suggestions, each with an alert level (Major, Medium, Low, High, Non-allergic).

During sign-up this is the ALLERGY step: saving (or skipping) completes the sign-up, and the
parent lands in /edit-profile (docs/product.md §2 "After sign-in")."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import reflex as rx

from hotmeals.domain.allergy import AlertLevel
from hotmeals.i18n import t as tr
from hotmeals.i18n import tn
from hotmeals.services import children
from hotmeals.services.reference import IngredientRef
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import (
    ActingParent,
    AuthState,
    acting_parent,
    after_login_path,
    session_expired,
)
from hotmeals.ui.shared_state.children import ChildChoiceState, saved_child_id
from hotmeals.ui.shared_state.forms import (
    OnceForm,
    forget_submission,
    form_call,
    one_turn,
)
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.ids import query_id
from hotmeals.ui.shared_state.screens import load_behind_spinner
from hotmeals.ui.shared_state.toasts import failed, succeeded

DEFAULT_LEVEL = AlertLevel.MAJOR.value


def _suggestion(row: IngredientRef, lang: str) -> dict[str, str]:
    priority = "1" if row.is_priority else ""
    return {"id": str(row.id), "name": row.name(lang), "priority": priority}


class AllergyState(OnceForm, rx.State):
    child_id: int = 0
    child_name: str = ""
    query: str = ""
    suggestions: list[dict[str, str]] = []
    items: list[dict[str, str]] = []  # ingredient_id, name, alert_level
    in_signup: bool = False
    loading: bool = True
    missing: bool = False

    async def _lang(self) -> str:
        return (await self.get_state(I18nState)).lang

    @rx.event
    async def start(self) -> AsyncIterator[Any]:
        """on_load of /allergy-profile (after the guard): the chosen child, or during sign-up
        the child just added."""
        self.missing = False
        self.query = ""
        forget_submission(self)
        async for event in load_behind_spinner(self, self._show, parent=acting_parent):
            yield event

    async def _show(self, who: ActingParent) -> None:
        self.in_signup = not who.complete
        lang = who.lang
        choice = await self.get_state(ChildChoiceState)
        kids = await run_in_transaction(children.list_children, parent_id=who.parent_id)
        by_id = {k.id: k for k in kids}
        # The child the address names (the one just added: adding a child does not change the
        # chosen one), then the chosen child (only among who's own); else, during sign-up, the
        # child just added; else the default child.
        fallback = (kids[-1] if self.in_signup else kids[0]) if kids else None
        wanted = query_id(self, "child")
        child = by_id.get(wanted) or by_id.get(choice._chosen()) or fallback
        if child is None:
            self.missing = True
            return
        self.child_id = child.id
        self.child_name = child.first_name
        self.items = [
            {
                "ingredient_id": str(a.ingredient_id),
                "name": a.name(lang),
                "alert_level": a.alert_level,
            }
            for a in child.allergies
        ]
        await self._suggest("")

    async def _suggest(self, query: str) -> None:
        lang = await self._lang()
        rows = await run_in_transaction(
            children.allergy_suggestions, query=query.strip(), lang=lang, limit=12
        )
        chosen = {i["ingredient_id"] for i in self.items}
        self.suggestions = [_suggestion(r, lang) for r in rows if str(r.id) not in chosen]

    @rx.event
    async def search(self, query: str) -> None:
        self.query = query
        await self._suggest(query)

    @rx.event
    def add(self, ingredient_id: str, name: str) -> None:
        if any(i["ingredient_id"] == ingredient_id for i in self.items):
            return
        self.items = [
            *self.items,
            {"ingredient_id": ingredient_id, "name": name, "alert_level": DEFAULT_LEVEL},
        ]
        self.suggestions = [s for s in self.suggestions if s["id"] != ingredient_id]

    @rx.event
    async def remove(self, ingredient_id: str) -> None:
        self.items = [i for i in self.items if i["ingredient_id"] != ingredient_id]
        await self._suggest(self.query)

    @rx.event
    def set_level(self, ingredient_id: str, level: str) -> None:
        self.items = [
            {**i, "alert_level": level} if i["ingredient_id"] == ingredient_id else i
            for i in self.items
        ]

    async def _finish(self, lang: str, toast_key: str) -> AsyncIterator[Any]:
        auth = await self.get_state(AuthState)
        was_signup = self.in_signup
        await auth._refresh()
        yield succeeded(tr(toast_key, lang))
        if was_signup:
            yield rx.redirect(after_login_path(auth.signup_step, auth.is_parent))
        else:
            yield rx.redirect("/edit-profile")

    @rx.event
    async def save(self) -> AsyncIterator[Any]:
        async for event in one_turn(self, self._save()):
            yield event

    async def _save(self) -> AsyncIterator[Any]:
        lang = await self._lang()
        # child_id was chosen among who's children by start; the service checks again.
        items = [(int(i["ingredient_id"]), i["alert_level"]) for i in self.items]
        async with form_call(self, lang) as call:
            yield  # the busy mark reaches the browser
            await call.submit(
                [self.child_id, items],
                "set_child_allergies",
                children.set_child_allergies,
                child_id=self.child_id,
                items=items,
                present=saved_child_id,
            )
            async for event in self._finish(lang, "allergies_saved"):
                yield event
        if call.refusal is not None:
            yield call.refusal

    @rx.event
    async def skip(self) -> AsyncIterator[Any]:
        """'No allergies' during sign-up completes the step without saving anything. Once an
        allergy is picked the screen no longer offers it: picked allergies are
        never dropped silently, so a call that still comes (an old page, a forged event) is
        refused with what to do instead."""
        lang = await self._lang()
        if not self.in_signup:
            yield rx.redirect("/edit-profile")
            return
        self.busy = True
        yield
        who = await acting_parent(self)
        if who is None:
            self.busy = False
            yield session_expired(lang)
            return
        if self.items:
            self.busy = False
            yield failed(tn("ui.allergy.skip_has_items", len(self.items), lang))
            return
        await run_in_transaction(children.complete_allergy_step, parent_id=who.parent_id)
        self.busy = False
        async for event in self._finish(lang, "ui.signup.complete"):
            yield event
