"""The start of the school year: /edit-profile/school-year, one child at a time
(grade one up offered, teacher, school, allergies reviewed; or archive), and the gate that
Book meal and the cart run first. The rules are ``services/school_year.py``'s: the booking
services refuse an unconfirmed child whatever the browser does."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import reflex as rx

from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.i18n import tn
from hotmeals.services import school_year
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import (
    ActingParent,
    acting_parent,
    session_expired,
    signed_up_parent,
)
from hotmeals.ui.shared_state.forms import OnceForm, focus_field, message, one_turn, submit
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.ids import browser_id
from hotmeals.ui.shared_state.screens import load_behind_spinner
from hotmeals.ui.shared_state.toasts import failed, succeeded

ROUTE = "/edit-profile/school-year"


def _place_id(value: str) -> int:
    """A chosen school, teacher or grade as the service takes it: 0 when none is chosen (its
    "required"), -1 when the browser sent something that is no id (its "not found")."""
    if not str(value or "").strip():
        return 0
    return browser_id(value) or -1


class SchoolYearState(OnceForm, rx.State):
    loading: bool = True
    year_label: str = ""
    remaining: int = 0
    child_id: str = ""
    name: str = ""
    last_year: str = ""  # "Grade 3 · Ms. Roy · Maple Public School"
    allergies: list[dict[str, str]] = []
    graduating: bool = False
    schools: list[dict[str, str]] = []
    grades: list[dict[str, str]] = []
    all_teachers: list[dict[str, str]] = []
    school_id: str = ""
    teacher_id: str = ""
    grade_id: str = ""
    reviewed: bool = False
    reviewed_error: str = ""  # "Please confirm that you reviewed the allergies", at the box
    remaining_text: str = ""  # "2 children to confirm", the family's (not this child's)
    archive_open: bool = False  # "Left the school" tapped: asks before archiving

    @rx.var
    def teachers(self) -> list[dict[str, str]]:
        return [t for t in self.all_teachers if t["school_id"] == self.school_id]

    @rx.event
    async def gate(self) -> Any:
        """on_load of Book meal and the cart: a child to confirm sends the parent to the
        confirmation first (the services refuse to book for that child anyway)."""
        who = await signed_up_parent(self)
        if who is None:
            return None
        count = await run_in_transaction(school_year.pending_count, parent_id=who.parent_id)
        if count:
            return rx.redirect(ROUTE, replace=True)
        return None

    @rx.event
    async def load(self) -> AsyncIterator[Any]:
        async for event in load_behind_spinner(self, self._show_for):
            yield event

    async def _show_for(self, who: ActingParent) -> None:
        await self._show(who.parent_id, who.lang)

    async def _show(self, parent_id: int, lang: str) -> None:
        state = await run_in_transaction(school_year.status, parent_id=parent_id)
        self.year_label = state.year.label
        self.remaining = len(state.pending)
        self.remaining_text = tn("sy.children_to_confirm", self.remaining, lang)
        self.reviewed_error = ""
        self.grades = [{"id": str(g.id), "name": g.label(lang)} for g in state.grades]
        self.reviewed = False
        self.archive_open = False
        if not state.pending:
            self.child_id = ""
            return
        pending = state.pending[0]
        child = pending.child
        self.child_id = str(child.id)
        self.name = f"{child.first_name} {child.last_name}"
        self.last_year = " · ".join(
            part for part in (child.grade(lang), child.teacher, child.school) if part
        )
        self.allergies = [
            {"name": a.name(lang), "level": a.alert_level_label(lang), "value": a.alert_level}
            for a in child.allergies
        ]
        self.graduating = pending.graduating
        self.schools = [{"id": str(s.id), "name": s.name} for s in pending.schools]
        self.all_teachers = [
            {"id": str(t.id), "name": t.name, "school_id": str(t.school_id)}
            for t in pending.teachers
        ]
        self.school_id = str(child.school_id)
        offered = pending.offered_grade
        self.grade_id = str(offered.id) if offered else ""
        # The same teacher is kept only when the grade stays; a new grade asks for the teacher.
        same = offered is not None and offered.id == child.grade_id
        self.teacher_id = str(child.teacher_id) if same else ""

    @rx.event
    def set_school(self, value: str) -> None:
        self.school_id = str(value)
        if not any(t["id"] == self.teacher_id for t in self.teachers):
            self.teacher_id = ""

    @rx.event
    def set_teacher(self, value: str) -> None:
        self.teacher_id = str(value)

    @rx.event
    def set_grade(self, value: str) -> None:
        self.grade_id = str(value)

    @rx.event
    def set_reviewed(self, value: bool) -> None:
        self.reviewed = bool(value)
        self.reviewed_error = ""

    @rx.event
    def ask_archive(self, value: bool) -> None:
        self.archive_open = bool(value)

    @rx.event
    async def confirm(self) -> AsyncIterator[Any]:
        async for event in one_turn(self, self._act("confirm")):
            yield event

    @rx.event
    async def archive(self) -> AsyncIterator[Any]:
        async for event in one_turn(self, self._act("archive")):
            yield event

    async def _act(self, action: str) -> AsyncIterator[Any]:
        lang = (await self.get_state(I18nState)).lang
        who = await acting_parent(self)
        if who is None:
            yield session_expired(lang)
            return
        self.busy = True
        yield
        name = self.name.split(" ")[0]
        try:
            if action == "confirm":
                payload = {
                    "child_id": browser_id(self.child_id),
                    "school_id": self.school_id,
                    "teacher_id": self.teacher_id,
                    "grade_id": self.grade_id,
                    "allergies_reviewed": self.reviewed,
                }
                await submit(
                    self,
                    who,
                    ["confirm", payload],
                    "confirm_school_year",
                    school_year.confirm_child,
                    child_id=browser_id(self.child_id),
                    school_id=_place_id(self.school_id),
                    teacher_id=_place_id(self.teacher_id),
                    grade_id=_place_id(self.grade_id),
                    allergies_reviewed=self.reviewed,
                )
                done = tr("sy.confirmed", lang, name=name)
            else:
                await submit(
                    self,
                    who,
                    ["archive", self.child_id],
                    "archive_child",
                    school_year.archive_child,
                    child_id=browser_id(self.child_id),
                )
                done = tr("sy.archived", lang, name=name)
        except DomainError as err:
            self.busy = False
            if err.field == "allergies_reviewed":
                self.reviewed_error = message(err, lang)
                yield focus_field("sy-reviewed")
                return
            yield failed(message(err, lang))
            return
        await self._show(who.parent_id, lang)
        self.busy = False
        yield succeeded(done)
