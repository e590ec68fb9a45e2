"""The start-of-school-year screen's state without a browser: a child added last
school year is shown to confirm with the grade one up offered and the teacher asked again;
confirming needs the allergy review box ticked, then records the year, the grade and the
teacher; "Left the school" asks first, then archives; Book meal's gate sends the parent to the
screen while a child waits. Another parent's child sent by hand is refused and left as it
was; no session gets nothing. The rule itself is tests/unit/test_domain_school_year.py's and
the API's tests/api/test_school_year_api.py."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import timedelta
from pathlib import Path

import reflex as rx
from reflex.istate.data import ReflexURL
from sqlmodel import select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import Child, ChildSchoolYear, Parent
from hotmeals.services import school_year
from hotmeals.services.parents import start_session
from hotmeals.ui.screens.school_year.state import ROUTE, SchoolYearState
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.i18n import I18nState
from tests import factories as f
from tests.unit.test_ui_orders_state import _run, database, sqlite_only  # noqa: F401

BASE = "http://localhost/parent"


async def _root(parent_id: int | None) -> rx.State:
    root = rx.State(_reflex_internal_init=True)
    root.router = dataclasses.replace(root.router, url=ReflexURL(BASE + ROUTE))
    if parent_id is not None:
        with session_scope() as session:
            token = start_session(session, session.get(Parent, parent_id), "tests")
        auth = await root.get_state(AuthState)
        auth.token = token
        await _run(auth.require_parent())
    return root


def _last_year_family(tag: str, names: tuple[str, ...] = ("Noah",)) -> dict:
    """A parent whose children (Grade 3, a peanut allergy) were added before this school year
    began, a Grade 4 teacher at their school and a second school in the same city."""
    with session_scope() as s:
        parent = f.make_parent(s, email=f"sy-{tag}@example.com")
        school = f.make_school(s)
        kids = []
        for i, name in enumerate(names):
            kid = f.make_child(
                s,
                parent,
                school=school,
                first_name=name,
                grade_code="3",
                is_default=i == 0,
                allergies={"Peanuts": "Major"},
            )
            kid.created_at = school_year.current().starts_at - timedelta(days=60)
            s.add(kid)
            kids.append(kid)
        teacher = f.make_teacher(s, school, grade_code="4", name=f"Mr. Next {tag}")
        s.flush()
        other = f.make_school(s)
        return {
            "parent_id": parent.id,
            "child_ids": [k.id for k in kids],
            "school_id": school.id,
            "other_school_id": other.id,
            "teacher_id": teacher.id,
            "grade3": f.get_grade(s, "3").id,
            "grade4": f.get_grade(s, "4").id,
        }


def _child(child_id: int) -> Child:
    with session_scope() as s:
        child = s.get(Child, child_id)
        s.expunge(child)
        return child


def _confirmed(child_id: int) -> bool:
    year = school_year.current().year
    with session_scope() as s:
        return (
            s.exec(
                select(ChildSchoolYear).where(
                    ChildSchoolYear.child_id == child_id, ChildSchoolYear.school_year == year
                )
            ).first()
            is not None
        )


@sqlite_only
def test_the_parent_confirms_a_child_one_grade_up_after_reviewing_allergies(
    database: Path,  # noqa: F811
) -> None:
    async def scenario():
        home = _last_year_family("confirm")
        (noah,) = home["child_ids"]
        root = await _root(home["parent_id"])
        page = await root.get_state(SchoolYearState)
        redirect = await _run(page.gate())
        assert len(redirect) == 1 and ROUTE in str(redirect[0])

        await _run(page.load())
        assert not page.loading and page.remaining == 1
        assert page.year_label == school_year.current().label
        assert page.child_id == str(noah) and page.name.startswith("Noah ")
        assert page.last_year.startswith("Grade 3 · ")
        assert page.allergies == [{"name": "Peanuts", "level": "Major", "value": "Major"}]
        assert not page.graduating
        assert page.grade_id == str(home["grade4"])  # one grade up offered
        assert page.teacher_id == ""  # a new grade: the teacher is asked again
        assert str(home["school_id"]) in [x["id"] for x in page.schools]
        assert str(home["teacher_id"]) in [t["id"] for t in page.teachers]

        # A teacher of another school is dropped when the school changes.
        page.set_teacher(str(home["teacher_id"]))
        page.set_school(str(home["other_school_id"]))
        assert page.teacher_id == "" and page.teachers == [
            t for t in page.all_teachers if t["school_id"] == str(home["other_school_id"])
        ]
        page.set_school(str(home["school_id"]))
        page.set_teacher(str(home["teacher_id"]))
        page.set_school(str(home["school_id"]))  # the same school keeps its teacher
        assert page.teacher_id == str(home["teacher_id"])

        # The allergy review box is required: refused, nothing recorded.
        turn = page.turn
        said = await _run(page.confirm())
        # said at the box (not in a toast), and the focus goes there
        assert page.reviewed_error == "Please confirm that you have reviewed the allergies"
        assert "sy-reviewed" in str(said) and "toast" not in str(said)
        assert not page.busy and page.turn == turn + 1
        assert not _confirmed(noah) and _child(noah).grade_id == home["grade3"]

        page.set_reviewed(True)
        assert page.reviewed_error == ""  # ticking the box clears it
        said = await _run(page.confirm())
        assert "Noah is confirmed for this school year" in str(said)
        assert _confirmed(noah)
        child = _child(noah)
        assert (child.grade_id, child.teacher_id, child.school_id) == (
            home["grade4"],
            home["teacher_id"],
            home["school_id"],
        )
        assert page.child_id == "" and page.remaining == 0 and not page.busy
        assert await _run(page.gate()) == []  # Book meal opens now

    asyncio.run(scenario())


@sqlite_only
def test_archive_asks_first_then_the_next_child_is_shown(database: Path) -> None:  # noqa: F811
    async def scenario():
        home = _last_year_family("archive", ("Ava", "Zoe"))
        ava, zoe = home["child_ids"]
        root = await _root(home["parent_id"])
        (await root.get_state(I18nState)).lang = "fr"
        page = await root.get_state(SchoolYearState)
        await _run(page.load())
        assert page.child_id == str(ava) and page.remaining == 2

        page.ask_archive(True)  # "Left the school": the dialog asks, nothing archived yet
        assert page.archive_open and _child(ava).is_active
        page.ask_archive(False)
        assert not page.archive_open and _child(ava).is_active

        page.ask_archive(True)
        said = await _run(page.archive())
        assert "Profil archivé : Ava" in str(said)
        assert not _child(ava).is_active and not _confirmed(ava)
        assert _child(zoe).is_active and not _confirmed(zoe)
        assert page.child_id == str(zoe) and page.remaining == 1 and not page.archive_open

    asyncio.run(scenario())


@sqlite_only
def test_another_parents_child_is_refused(database: Path) -> None:  # noqa: F811
    async def scenario():
        victim = _last_year_family("victim")
        mallory = _last_year_family("mallory")
        (target,) = victim["child_ids"]
        root = await _root(mallory["parent_id"])
        page = await root.get_state(SchoolYearState)
        await _run(page.load())
        assert page.child_id == str(mallory["child_ids"][0])

        # Every field is the browser's: the victim's child with a valid placement.
        page.child_id = str(target)
        page.school_id, page.teacher_id = str(victim["school_id"]), str(victim["teacher_id"])
        page.set_grade(str(victim["grade4"]))
        page.set_reviewed(True)
        assert page.reviewed_error == ""  # ticking the box clears it
        said = await _run(page.confirm())
        assert "Child not found" in str(said) and not page.busy
        page.child_id = str(target)
        said = await _run(page.archive())
        assert "Child not found" in str(said)
        victim_child = _child(target)
        assert victim_child.is_active and not _confirmed(target)
        assert victim_child.grade_id == victim["grade3"]
        assert not _confirmed(mallory["child_ids"][0])

    asyncio.run(scenario())


@sqlite_only
def test_no_session_gets_nothing(database: Path) -> None:  # noqa: F811
    async def scenario():
        home = _last_year_family("nosession")
        (noah,) = home["child_ids"]
        root = await _root(None)
        page = await root.get_state(SchoolYearState)
        assert await _run(page.gate()) == []
        await _run(page.load())
        assert page.loading and page.child_id == "" and page.name == ""
        page.child_id, page.reviewed = str(noah), True
        for handler in (page.confirm, page.archive):
            said = await _run(handler())
            assert "Your session has expired" in str(said) and not page.busy
        assert _child(noah).is_active and not _confirmed(noah)

    asyncio.run(scenario())
