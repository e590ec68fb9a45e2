"""Children: the list on /edit-profile (set default, delete) and the child form used by
/add-child (sign-up), /add-another-child and /edit-profile/edit-child, with the
city -> school -> teacher cascade. The rules are ``validation.CHILD_RULES`` and the service's."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import reflex as rx
from reflex.event import EventSpec

from hotmeals.domain import diet, validation
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.services import children
from hotmeals.services.children import ChildView
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import ActingParent, AuthState, acting_parent, signed_up_parent
from hotmeals.ui.shared_state.forms import (
    NameForm,
    OnceForm,
    field_messages,
    forget_submission,
    form_call,
    one_turn,
    refused_at,
    refused_in_form,
)
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.ids import browser_id
from hotmeals.ui.shared_state.screens import load_behind_spinner
from hotmeals.ui.shared_state.toasts import succeeded

PREFIX = "child-"
FIELDS = ("first_name", "last_name", "city", "school", "teacher", "grade")
SERVICE_FIELDS = {
    "city_id": "city",
    "school_id": "school",
    "teacher_id": "teacher",
    "grade_id": "grade",
}


def _option(row_id: int, name: str) -> dict[str, str]:
    return {"id": str(row_id), "name": name}


def child_row(child: ChildView, lang: str) -> dict[str, str]:
    """Display-ready strings for a child card (places and allergies named in ``lang``)."""
    return {
        "id": str(child.id),
        "first_name": child.first_name,
        "last_name": child.last_name,
        "name": f"{child.first_name} {child.last_name}",
        "initials": (child.first_name[:1] + child.last_name[:1]).upper(),
        "school": child.school,
        "teacher": child.teacher,
        "grade": child.grade(lang),
        "is_default": "1" if child.is_default else "",
        "allergies": ", ".join(
            f"{a.name(lang)} ({a.alert_level_label(lang) or a.alert_level})"
            for a in child.allergies
        ),
        "diets": ", ".join(diet.label(need, lang) for need in child.diets),
        # Major allergies stand out on the card; the service lists them first.
        "major": ", ".join(a.name(lang) for a in child.allergies if a.alert_level == "Major"),
    }


def saved_child_id(child: ChildView) -> int:
    """What the form keeps of the child it saved (also what a repeat gets back): its id."""
    return child.id


class ChildChoiceState(rx.State):
    """The chosen child id (docs/product.md §3), kept in localStorage."""

    child_id: str = rx.LocalStorage("", name="chosenChildId", sync=True)

    def _chosen(self) -> int:
        return browser_id(self.child_id)

    @rx.event
    def edit(self, child_id: str) -> Any:
        self.child_id = str(child_id)
        return rx.redirect("/edit-profile/edit-child")

    @rx.event
    def allergies(self, child_id: str) -> Any:
        self.child_id = str(child_id)
        return rx.redirect("/allergy-profile")


class ChildrenState(OnceForm, rx.State):
    kids: list[dict[str, str]] = []
    loading: bool = False
    delete_open: bool = False
    delete_name: str = ""

    _delete_id: int = 0

    async def _reload(self, who: ActingParent) -> None:
        """The children of ``who`` (the caller checked the session on this call)."""
        rows = await run_in_transaction(children.list_children, parent_id=who.parent_id)
        self.kids = [child_row(c, who.lang) for c in rows]

    @rx.event
    async def load(self) -> AsyncIterator[Any]:
        self.loading = True
        yield
        who = await signed_up_parent(self)
        if who is None:
            self.kids = []
        else:
            await self._reload(who)
        self.loading = False

    @rx.event
    async def set_default(self, child_id: str) -> AsyncIterator[Any]:
        async for event in one_turn(self, self._set_default(child_id)):
            yield event

    async def _set_default(self, child_id: str) -> AsyncIterator[Any]:
        lang = (await self.get_state(I18nState)).lang
        async with form_call(self, lang, busy=False) as call:
            # The service refuses a child of another parent ("child_not_found").
            await call.submit(
                ["set_default", str(child_id)],
                "set_default_child",
                children.set_default_child,
                child_id=browser_id(child_id),
            )
            await self._reload(call.who)
            form = await self.get_state(ChildFormState)
            if str(form.child_id) == str(child_id):
                form.is_default = True
            # Say what it did: whose meals are booked first from now on.
            name = next((k["first_name"] for k in self.kids if k["id"] == str(child_id)), "")
            yield succeeded(
                tr("ui.child.default_now", lang, name=name)
                if name
                else tr("default_child_set", lang)
            )
        if call.refusal is not None:
            yield call.refusal

    @rx.event
    def ask_delete(self, child_id: str, name: str) -> None:
        # Only remembered here: confirm_delete's service call checks whose child it is.
        self._delete_id = int(child_id) if str(child_id).isdigit() else 0
        self.delete_name = str(name)[:120]
        self.delete_open = True
        forget_submission(self)  # each time the dialog opens, one confirmation counts

    @rx.event
    def set_delete_open(self, value: bool) -> None:
        self.delete_open = value

    @rx.event
    async def confirm_delete(self) -> AsyncIterator[Any]:
        async for event in one_turn(self, self._confirm_delete()):
            yield event

    async def _confirm_delete(self) -> AsyncIterator[Any]:
        auth = await self.get_state(AuthState)
        lang = (await self.get_state(I18nState)).lang
        async with form_call(self, lang, closes=self._close_delete) as call:
            yield  # the busy mark reaches the browser
            # "Yes, delete" tapped twice: the first tap deleted and said so, the second ends
            # here.
            await call.submit(
                ["delete", self._delete_id],
                "delete_child",
                children.delete_child,
                child_id=self._delete_id,
            )
            await self._reload(call.who)
            await auth._refresh()
            yield succeeded(tr("child_deleted", lang))
            form = await self.get_state(ChildFormState)
            if form.mode == "edit" and form.child_id == self._delete_id:
                yield rx.redirect("/edit-profile")
        if call.refusal is not None:
            yield call.refusal

    def _close_delete(self) -> None:
        self.delete_open = False


class ChildFormState(NameForm, rx.State):
    mode: str = "add"  # add (sign-up step), another (logged in), edit
    child_id: int = 0
    city_id: str = ""
    school_id: str = ""
    teacher_id: str = ""
    grade_id: str = ""
    is_default: bool = False
    cities: list[dict[str, str]] = []
    schools: list[dict[str, str]] = []
    teachers: list[dict[str, str]] = []
    grades: list[dict[str, str]] = []
    errors: dict[str, str] = {}
    loading: bool = True
    missing: bool = False
    diets: list[str] = []  # the ticked dietary needs, as codes (domain.diet)

    _teacher_grades: dict[str, str] = {}

    async def _lang(self) -> str:
        return (await self.get_state(I18nState)).lang

    async def _start(self, mode: str) -> None:
        self.mode = mode
        self.errors = {}
        self.busy = False
        self.missing = False
        forget_submission(self)
        self.child_id = 0
        self.first_name = self.last_name = ""
        self.city_id = self.school_id = self.teacher_id = self.grade_id = ""
        self.diets = []
        self.schools = []
        self.teachers = []
        lang = await self._lang()
        cities = await run_in_transaction(children.list_cities)
        self.cities = [_option(city.id, city.name) for city in cities]
        grades = await run_in_transaction(children.list_grades)
        self.grades = [_option(grade.id, grade.label(lang)) for grade in grades]
        if len(self.cities) == 1:
            await self._pick_city(self.cities[0]["id"])

    @rx.event
    async def start_add(self) -> None:
        """on_load of /add-child and /add-another-child (after the guard)."""
        self.loading = True
        who = await acting_parent(self)
        if who is not None:
            await self._start("another" if who.complete else "add")
        self.loading = False

    @rx.event
    async def start_edit(self) -> AsyncIterator[Any]:
        """on_load of /edit-profile/edit-child: the chosen child (docs/product.md §3)."""
        async for event in load_behind_spinner(self, self._edit):
            yield event

    async def _edit(self, who: ActingParent) -> None:
        await self._start("edit")
        choice = await self.get_state(ChildChoiceState)
        try:
            # The chosen id is browser storage: the service looks it up among who's children.
            child_id = choice._chosen()
            if child_id:
                child = await run_in_transaction(
                    children.get_child, parent_id=who.parent_id, child_id=child_id
                )
            else:
                # No child chosen yet (a new browser): the default child, listed first.
                kids = await run_in_transaction(children.list_children, parent_id=who.parent_id)
                if not kids:
                    raise DomainError("child_not_found", field="child_id")
                child = kids[0]
        except DomainError:
            self.missing = True
            return
        self.child_id = child.id
        choice.child_id = str(child.id)
        self.first_name = child.first_name
        self.last_name = child.last_name
        self.is_default = child.is_default
        self.diets = [need.value for need in child.diets]
        await self._pick_city(str(child.city_id))
        await self._pick_school(str(child.school_id))
        self.teacher_id = str(child.teacher_id)
        self.grade_id = str(child.grade_id)

    async def _pick_city(self, city_id: str) -> None:
        self.city_id = city_id
        self.school_id = self.teacher_id = ""
        self.teachers = []
        self.schools = []
        if city_id:
            schools = await run_in_transaction(children.list_schools, city_id=browser_id(city_id))
            self.schools = [_option(school.id, school.name) for school in schools]

    async def _pick_school(self, school_id: str) -> None:
        self.school_id = school_id
        self.teacher_id = ""
        self.teachers = []
        self._teacher_grades = {}
        if school_id:
            rows = await run_in_transaction(children.list_teachers, school_id=browser_id(school_id))
            self.teachers = [_option(teacher.id, teacher.name) for teacher in rows]
            self._teacher_grades = {
                str(teacher.id): str(teacher.grade_id) for teacher in rows if teacher.grade_id
            }

    async def _check(self, fields: tuple[str, ...]) -> None:
        values = self._values()
        errors = validation.validate_all(values, {f: validation.CHILD_RULES[f] for f in fields})
        kept = {k: v for k, v in self.errors.items() if k not in fields}
        kept.update(field_messages(errors, await self._lang()))
        self.errors = kept

    def _values(self) -> dict[str, Any]:
        return {
            "first_name": self.first_name,
            "last_name": self.last_name,
            "city": self.city_id,
            "school": self.school_id,
            "teacher": self.teacher_id,
            "grade": self.grade_id,
        }

    @rx.event
    async def blur_name(self, field: str, value: str) -> None:
        if field == "first_name":
            self.first_name = value
        elif field == "last_name":
            self.last_name = value
        else:
            return
        await self._check((field,))

    @rx.event
    async def set_city(self, value: str) -> None:
        await self._pick_city(value)
        await self._check(("city",))

    @rx.event
    async def set_school(self, value: str) -> None:
        await self._pick_school(value)
        await self._check(("school",))

    @rx.event
    async def set_teacher(self, value: str) -> None:
        self.teacher_id = value
        # A class usually is one grade: suggest it, the parent can still change it.
        if value and not self.grade_id and value in self._teacher_grades:
            self.grade_id = self._teacher_grades[value]
        await self._check(("teacher",))

    @rx.event
    async def set_grade(self, value: str) -> None:
        self.grade_id = value
        await self._check(("grade",))

    @rx.event
    def toggle_diet(self, code: str, checked: bool) -> None:
        """A dietary need ticked or not; a code that is not one is ignored (the browser is
        untrusted)."""
        wanted = set(self.diets) - {str(code)}
        if checked is True and not diet.unknown_codes([str(code)]):
            wanted.add(str(code))
        self.diets = [d.value for d in diet.DIETS if d.value in wanted]

    @rx.event
    async def save(self, form_data: dict) -> AsyncIterator[Any]:
        async for event in one_turn(self, self._save(form_data)):
            yield event

    async def _save(self, form_data: dict) -> AsyncIterator[Any]:
        # What the parent sees is what is saved: the form's values win over a change event
        # still on its way.
        self.first_name = str(form_data.get("first_name", self.first_name))
        self.last_name = str(form_data.get("last_name", self.last_name))
        self.teacher_id = str(form_data.get(PREFIX + "teacher", self.teacher_id) or "")
        self.grade_id = str(form_data.get(PREFIX + "grade", self.grade_id) or "")
        await self._check(FIELDS)
        if self.errors:
            first = next(f for f in FIELDS if f in self.errors)
            yield refused_at(self, PREFIX + first)
            return
        lang = await self._lang()
        auth = await self.get_state(AuthState)
        kwargs: dict[str, Any] = {
            "first_name": self.first_name.strip(),
            "last_name": self.last_name.strip(),
            "city_id": int(self.city_id),
            "school_id": int(self.school_id),
            "teacher_id": int(self.teacher_id),
            "grade_id": int(self.grade_id),
            "diets": diet.needs_of(code for code in self.diets if not diet.unknown_codes([code])),
        }
        if self.mode == "edit":
            kwargs["child_id"] = self.child_id
        # What the submission key is taken of: the needs as sorted codes (a set's order is not
        # the same in every worker).
        payload = {**kwargs, "diets": diet.to_text(kwargs["diets"])}

        def refused(err: DomainError) -> EventSpec:
            # The service names the ids; the form's fields are their names.
            err.field = SERVICE_FIELDS.get(err.field or "", err.field)
            return refused_in_form(self, err, lang, FIELDS, PREFIX, dict(self.errors))

        async with form_call(self, lang, refused=refused) as call:
            yield  # the busy mark reaches the browser
            # Sent twice (a double tap, a repeated event), the same form is saved once: the
            # repeat ends here, the first answer already said so and moved on.
            child_id: int = await call.submit(
                payload,
                "edit_child" if self.mode == "edit" else "add_child",
                children.edit_child if self.mode == "edit" else children.add_child,
                present=saved_child_id,
                **kwargs,
            )
            choice = await self.get_state(ChildChoiceState)
            if self.mode != "another" or not choice.child_id:
                # Adding another child leaves the chosen child as it was (Book meal must
                # not switch to the new one silently); its allergy step names it instead.
                choice.child_id = str(child_id)
            await auth._refresh()
            if self.mode == "edit":
                yield succeeded(tr("child_updated", lang))
                yield rx.redirect("/edit-profile")
            else:
                yield succeeded(tr("child_added", lang))
                named = f"?child={child_id}" if self.mode == "another" else ""
                yield rx.redirect("/allergy-profile" + named)
        if call.refusal is not None:
            yield call.refusal
