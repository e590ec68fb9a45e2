"""The give-back figures and the start of the school year on /api/v1 (SQLite and PostgreSQL):
GiveBack, SchoolYear, ConfirmSchoolYear and ArchiveChild with a token; AddToCart refused for a child
not confirmed for this school year, with the message that points to the confirmation."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import Child, Parent
from hotmeals.services import school_year
from tests import factories as f
from tests.api.helpers import DEMO_EMAIL, get, ok, post, quick_token, refused


def _last_year_family() -> tuple[str, int, int, int]:
    """A parent whose child was added before this school year began: (token, child id,
    school id, a teacher id of the next grade)."""
    with session_scope() as s:
        parent = f.make_parent(s)
        kid = f.make_child(s, parent, first_name="Noah", grade_code="3")
        kid.created_at = school_year.current().starts_at - timedelta(days=60)
        s.add(kid)
        teacher = f.make_teacher(s, f.child_school(s, kid), grade_code="4", name="Mr. Next")
        email, child_id, school_id, teacher_id = parent.email, kid.id, kid.school_id, teacher.id
    return quick_token(email), child_id, school_id, teacher_id


def test_giveback_needs_a_token_and_answers_the_family_figures(client):
    assert get(client, "/Parent/user/GiveBack").status_code == 401
    data = ok(get(client, "/Parent/user/GiveBack", quick_token(), lang="fr"))["data"]
    assert data["school_year_label"] == school_year.current().label
    assert data["total_cents"] == (
        data["school_cents"] + data["nutrition_cents"] + data["donation_cents"]
    )
    assert data["school_cents"] == 50 * data["meals"]
    with session_scope() as s:
        parent = s.exec(select(Parent).where(Parent.email == DEMO_EMAIL)).one()
        schools = {c.school_id for c in s.exec(select(Child).where(Child.parent_id == parent.id))}
    assert schools <= {row["school_id"] for row in data["schools"]}
    assert all(row["total"].endswith("$") for row in data["schools"])  # French money


def test_the_demo_family_is_confirmed_for_this_school_year(client):
    data = ok(get(client, "/Parent/user/SchoolYear", quick_token()))["data"]
    assert data["pending_count"] == 0 and data["pending"] == []


def test_confirm_after_the_rollover_then_booking_is_open(client):
    token, child_id, school_id, teacher_id = _last_year_family()
    body = {"child_id": child_id, "meal_id": 1, "date": "2030-01-07"}
    answer = refused(post(client, "/Parent/cart/AddToCart", body, token))
    assert "Noah" in answer["message"] and "Book meal opens the confirmation" in answer["message"]

    state = ok(get(client, "/Parent/user/SchoolYear", token))["data"]
    (child,) = state["pending"]
    assert child["grade"] == "Grade 3" and child["offered_grade"] == "Grade 4"
    confirm = {
        "child_id": child_id,
        "school_id": school_id,
        "teacher_id": teacher_id,
        "grade_id": child["offered_grade_id"],
    }
    refused(
        post(client, "/Parent/user/ConfirmSchoolYear", confirm, token),
        "Please confirm that you have reviewed the allergies",
    )
    done = ok(
        post(
            client,
            "/Parent/user/ConfirmSchoolYear",
            {**confirm, "allergies_reviewed": True},
            token,
        )
    )
    assert done["data"]["pending_count"] == 0
    assert done["data"]["child"]["teacher"] == "Mr. Next"
    # Booking now goes through to the cart's own rules (no menu that day, not the school year).
    answer = refused(post(client, "/Parent/cart/AddToCart", body, token))
    assert "school year" not in answer["message"]


def test_archive_a_child_who_left(client):
    token, child_id, _school_id, _teacher_id = _last_year_family()
    other_token, *_ = _last_year_family()
    refused(post(client, "/Parent/user/ArchiveChild", {"child_id": child_id}, other_token))
    done = ok(post(client, "/Parent/user/ArchiveChild", {"child_id": child_id}, token))
    assert done["data"] == {"pending_count": 0}
    assert ok(get(client, "/Parent/user/GetChilds", token))["data"] == []
