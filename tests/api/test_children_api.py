"""/api/v1/Parent/user/* for places, children and allergies, and the allergy suggestions."""

from __future__ import annotations

import pytest
from sqlmodel import select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import Child, ChildAllergy, City, School, Teacher
from tests.api.helpers import get, login, ok, post, refused, signed_up

NOT_FOUND = "Child not found"


def _placement(city: str = "Ottawa", school_index: int = 0) -> dict:
    """Ids of a city, one of its schools, a teacher there and that teacher's grade."""
    with session_scope() as session:
        city_row = session.exec(select(City).where(City.name == city)).one()
        schools = session.exec(
            select(School).where(School.city_id == city_row.id).order_by(School.id)
        ).all()
        school = schools[school_index]
        teacher = session.exec(
            select(Teacher).where(Teacher.school_id == school.id).order_by(Teacher.id)
        ).first()
        return {
            "city_id": city_row.id,
            "school_id": school.id,
            "teacher_id": teacher.id,
            "grade_id": teacher.grade_id,
        }


def _child_body(**changes) -> dict:
    return {"first_name": "Zoe", "last_name": "Lee", **_placement(), **changes}


@pytest.fixture(scope="module")
def family(client):
    """A fresh parent with one child, and the demo parent (whose children are 'others')."""
    token, data = signed_up(client)
    child = ok(post(client, "/Parent/user/AddChild", _child_body(), token))["data"]
    other_token = login(client)
    others = ok(get(client, "/Parent/user/GetChilds", other_token))["data"]
    return {"token": token, "child": child, "other_token": other_token, "others": others}


# --- places -------------------------------------------------------------------------------------


def test_city_school_teacher_cascade(client):
    cities = ok(post(client, "/Parent/user/get_city", {}))["data"]
    assert {c["name"] for c in cities} >= {"Ottawa", "Toronto", "Mississauga"}
    ottawa = next(c for c in cities if c["name"] == "Ottawa")
    schools = ok(post(client, "/Parent/user/GetSchool", {"city_id": ottawa["id"]}))["data"]
    assert len(schools) == 2 and all(s["address"] for s in schools)
    teachers = ok(post(client, "/Parent/user/get_teachers", {"school_id": schools[0]["id"]}))
    assert teachers["data"] and {"id", "name", "grade_id", "grade"} <= set(teachers["data"][0])
    fr = ok(post(client, "/Parent/user/get_teachers", {"school_id": schools[0]["id"]}, lang="fr"))
    assert any(
        "année" in t["grade"] or t["grade"] in ("Maternelle", "Jardin d'enfants")
        for t in fr["data"]
    )
    grades = ok(get(client, "/Parent/user/get_grades", lang="fr"))["data"]
    assert grades[0]["code"] == "JK" and grades[0]["label"] == "Maternelle"
    # string ids are accepted, as the original client sends them
    ok(post(client, "/Parent/user/GetSchool", {"city_id": str(ottawa["id"])}))


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("/Parent/user/GetSchool", {}, "Please enter city"),
        ("/Parent/user/GetSchool", {"city_id": 99999}, "Please select a city from the list"),
        ("/Parent/user/GetSchool", {"city_id": "abc"}, "Please check the value of city_id"),
        ("/Parent/user/GetSchool", {"city_id": -1}, "Please check the value of city_id"),
        ("/Parent/user/GetSchool", {"city_id": 10**30}, "Please check the value of city_id"),
        ("/Parent/user/get_teachers", {}, "Please Select School"),
        ("/Parent/user/get_teachers", {"school_id": 99999}, "Please select a school from the list"),
    ],
)
def test_place_lookups_refuse_bad_ids(client, path, body, message):
    refused(post(client, path, body), message)


def test_place_lookups_in_french(client):
    refused(post(client, "/Parent/user/GetSchool", {}, lang="fr"), "Veuillez saisir la ville")


# --- children -----------------------------------------------------------------------------------


def test_sign_up_steps_follow_the_child_and_allergies(client):
    token, data = signed_up(client)
    assert data["signup_step"] == "ADD_CHILD"
    assert ok(get(client, "/Parent/user/GetChilds", token))["message"] == "No data found"
    child = ok(post(client, "/Parent/user/AddChild", _child_body(), token))
    assert child["message"] == "Child added successfully"
    assert child["data"]["is_default"] is True
    profile = ok(get(client, "/Parent/user/GetUserDetails", token))["data"]
    assert profile["signup_step"] == "ALLERGY" and profile["active_child_count"] == 1
    saved = ok(
        post(
            client,
            "/Parent/user/Add_Child_Allergicingredients",
            {"child_id": child["data"]["id"], "allergies": []},
            token,
        )
    )
    assert saved["data"]["allergies"] == []
    profile = ok(get(client, "/Parent/user/GetUserDetails", token))["data"]
    assert profile["signup_step"] == "COMPLETE" and profile["isLoginData"] is True
    # a second child does not move the step back
    second = ok(post(client, "/Parent/user/AddChild", _child_body(first_name="Max"), token))
    assert second["data"]["is_default"] is False
    assert ok(get(client, "/Parent/user/GetUserDetails", token))["data"]["signup_step"] == (
        "COMPLETE"
    )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"first_name": ""}, "Please enter first name"),
        (
            {"last_name": "L33"},
            "Please enter only letters (A-Z, a-z) with no special characters or numbers",
        ),
        ({"first_name": "Abcdefghijklmnop"}, "Name should not exceed 15 characters"),
        ({"city_id": None}, "Please enter city"),
        ({"school_id": None}, "Please Select School"),
        ({"teacher_id": None}, "Please enter teacher name"),
        ({"grade_id": None}, "Please enter grade"),
        ({"city_id": 99999}, "Please select a city from the list"),
        ({"grade_id": 99999}, "Please select a grade from the list"),
        ({"teacher_id": 99999}, "Please select a teacher from the list"),
    ],
)
def test_add_child_refuses_each_bad_field(client, family, changes, message):
    refused(post(client, "/Parent/user/AddChild", _child_body(**changes), family["token"]), message)


def test_add_child_refuses_a_school_of_another_city_and_a_teacher_of_another_school(client, family):
    toronto = _placement("Toronto")
    body = _child_body(school_id=toronto["school_id"])
    refused(
        post(client, "/Parent/user/AddChild", body, family["token"]),
        "Please select a school from the list",
    )
    other_school = _placement("Ottawa", 1)
    body = _child_body(teacher_id=other_school["teacher_id"])
    refused(
        post(client, "/Parent/user/AddChild", body, family["token"]),
        "Please select a teacher from the list",
    )
    refused(
        post(client, "/Parent/user/AddChild", body, family["token"], lang="fr"),
        "Veuillez choisir un enseignant ou une enseignante dans la liste",
    )


def test_edit_get_default_and_delete_a_child(client):
    token, _ = signed_up(client)
    first = ok(post(client, "/Parent/user/AddChild", _child_body(first_name="Ana"), token))["data"]
    second = ok(post(client, "/Parent/user/AddChild", _child_body(first_name="Ben"), token))["data"]
    edited = ok(
        post(
            client,
            "/Parent/user/EditChild",
            _child_body(child_id=second["id"], first_name="Bea", **_placement("Toronto")),
            token,
        )
    )
    assert edited["message"] == "Child updated successfully"
    assert edited["data"]["first_name"] == "Bea" and edited["data"]["city"] == "Toronto"
    one = ok(post(client, "/Parent/user/GetOneChildInfo", {"child_id": second["id"]}, token))
    assert one["data"] == edited["data"]
    ok(post(client, "/Parent/user/SetDefaultChild", {"child_id": second["id"]}, token))
    kids = ok(get(client, "/Parent/user/GetChilds", token))["data"]
    assert [k["first_name"] for k in kids] == ["Bea", "Ana"]
    assert [k["is_default"] for k in kids] == [True, False]
    deleted = ok(post(client, "/Parent/user/DeleteChild", {"child_id": second["id"]}, token))
    assert deleted["message"] == "Child deleted successfully"
    kids = ok(get(client, "/Parent/user/GetChilds", token))["data"]
    assert [(k["id"], k["is_default"]) for k in kids] == [(first["id"], True)]
    refused(
        post(client, "/Parent/user/GetOneChildInfo", {"child_id": second["id"]}, token), NOT_FOUND
    )
    with session_scope() as session:
        assert session.get(Child, second["id"]).is_active is False  # history is kept


CHILD_CALLS = [
    ("/Parent/user/EditChild", lambda child_id: _child_body(child_id=child_id, first_name="Evil")),
    ("/Parent/user/DeleteChild", lambda child_id: {"child_id": child_id}),
    ("/Parent/user/SetDefaultChild", lambda child_id: {"child_id": child_id}),
    ("/Parent/user/GetOneChildInfo", lambda child_id: {"child_id": child_id}),
    (
        "/Parent/user/Add_Child_Allergicingredients",
        lambda child_id: {"child_id": child_id, "allergies": []},
    ),
]


@pytest.mark.parametrize(("path", "make_body"), CHILD_CALLS, ids=[p for p, _ in CHILD_CALLS])
def test_another_parents_child_is_not_found(client, family, path, make_body):
    theirs = family["others"][0]
    with session_scope() as session:
        before = session.get(Child, theirs["id"]).model_dump()
        allergies_before = len(
            session.exec(select(ChildAllergy).where(ChildAllergy.child_id == theirs["id"])).all()
        )
    body = refused(post(client, path, make_body(theirs["id"]), family["token"]), NOT_FOUND)
    unknown = refused(post(client, path, make_body(999_999), family["token"]), NOT_FOUND)
    assert body == unknown  # the same answer as a child that does not exist
    refused(
        post(client, path, make_body(theirs["id"]), family["token"], lang="fr"),
        "Enfant introuvable",
    )
    refused(post(client, path, make_body(None), family["token"]), NOT_FOUND)
    with session_scope() as session:
        assert session.get(Child, theirs["id"]).model_dump() == before
        assert allergies_before == len(
            session.exec(select(ChildAllergy).where(ChildAllergy.child_id == theirs["id"])).all()
        )
    # and their list never shows it
    mine = ok(get(client, "/Parent/user/GetChilds", family["token"]))["data"]
    assert theirs["id"] not in {k["id"] for k in mine}


# --- allergies ----------------------------------------------------------------------------------


def test_allergic_ingredients_and_suggestions(client):
    items = ok(get(client, "/Parent/user/Allergicingredients"))["data"]
    assert items[0]["is_priority"] is True and not items[-1]["is_priority"]
    assert "Peanuts" in {i["name"] for i in items}
    fr = ok(get(client, "/Parent/user/Allergicingredients", lang="fr"))["data"]
    assert "Arachides" in {i["name"] for i in fr}
    found = ok(post(client, "/Admin/allergy_suggestions/list", {"search": "pea"}))["data"]
    assert found[0]["name"] == "Peanuts"
    eggs = ok(post(client, "/Admin/allergy_suggestions/list", {"search": "oeu"}, lang="fr"))
    assert [i["name"] for i in eggs["data"]] == ["Œufs"]
    some = ok(post(client, "/Admin/allergy_suggestions/list", {"limit": 3}))["data"]
    assert len(some) == 3
    none = ok(post(client, "/Admin/allergy_suggestions/list", {"search": "zzzz"}))
    assert none["data"] == [] and none["message"] == "No data found"
    refused(
        post(client, "/Admin/allergy_suggestions/list", {"limit": 0}),
        "Please check the value of limit",
    )


def test_set_child_allergies(client, family):
    items = ok(get(client, "/Parent/user/Allergicingredients"))["data"]
    peanuts = next(i for i in items if i["name"] == "Peanuts")["id"]
    milk = next(i for i in items if i["name"] == "Milk")["id"]
    child_id = family["child"]["id"]
    path = "/Parent/user/Add_Child_Allergicingredients"
    body = {
        "child_id": child_id,
        "allergies": [
            {"ingredient_id": peanuts, "alert_level": "Major"},
            {"ingredient_id": milk, "alert_level": "Non-allergic"},
        ],
    }
    saved = ok(post(client, path, body, family["token"], lang="fr"))
    assert saved["message"] == "Profil d'allergies enregistré"
    assert {
        (a["name"], a["alert_level"], a["alert_level_label"]) for a in saved["data"]["allergies"]
    } == {
        ("Arachides", "Major", "Majeur"),
        ("Lait", "Non-allergic", "Non allergique"),
    }
    # replaced, not added to
    body = {"child_id": child_id, "allergies": [{"ingredient_id": milk, "alert_level": "Low"}]}
    saved = ok(post(client, path, body, family["token"]))["data"]
    assert [(a["name"], a["alert_level"]) for a in saved["allergies"]] == [("Milk", "Low")]
    bad_level = {
        "child_id": child_id,
        "allergies": [{"ingredient_id": milk, "alert_level": "Deadly"}],
    }
    refused(post(client, path, bad_level, family["token"]), "Please check the value of allergies")
    unknown = {"child_id": child_id, "allergies": [{"ingredient_id": 99999, "alert_level": "Low"}]}
    refused(post(client, path, unknown, family["token"]), "Please select ingredients from the list")
    kept = ok(
        post(client, "/Parent/user/GetOneChildInfo", {"child_id": child_id}, family["token"])
    )["data"]
    assert [(a["name"], a["alert_level"]) for a in kept["allergies"]] == [("Milk", "Low")]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", "/Parent/user/AddChild"),
        ("post", "/Parent/user/EditChild"),
        ("post", "/Parent/user/DeleteChild"),
        ("post", "/Parent/user/SetDefaultChild"),
        ("post", "/Parent/user/GetOneChildInfo"),
        ("post", "/Parent/user/Add_Child_Allergicingredients"),
        ("get", "/Parent/user/GetChilds"),
    ],
)
def test_child_calls_need_a_session(client, method, path):
    response = post(client, path, {"child_id": 1}) if method == "post" else get(client, path)
    refused(response, "Your session has expired. Please sign in again.", status=401)


# --- dietary needs ------------------------------------------------------------------------------


def test_a_child_keeps_its_dietary_needs_and_one_without_answers_an_empty_list(client, family):
    token = family["token"]
    assert family["child"]["diets"] == []  # added without needs: the one new key, empty
    body = _child_body(first_name="Noor", diets=["halal", "vegetarian", "halal"])
    added = ok(post(client, "/Parent/user/AddChild", body, token))["data"]
    assert added["diets"] == ["vegetarian", "halal"]  # each once, in the marks' order
    edit = {"child_id": added["id"], **_child_body(first_name="Noor")}
    kept = ok(post(client, "/Parent/user/EditChild", edit, token))["data"]
    assert kept["diets"] == ["vegetarian", "halal"]  # left out: unchanged
    changed = ok(post(client, "/Parent/user/EditChild", {**edit, "diets": ["no_pork"]}, token))
    assert changed["data"]["diets"] == ["no_pork"]
    listed = ok(get(client, "/Parent/user/GetChilds", token))["data"]
    assert {c["first_name"]: c["diets"] for c in listed}["Noor"] == ["no_pork"]
    one = ok(post(client, "/Parent/user/GetOneChildInfo", {"child_id": added["id"]}, token))
    assert one["data"]["diets"] == ["no_pork"]
    cleared = ok(post(client, "/Parent/user/EditChild", {**edit, "diets": []}, token))
    assert cleared["data"]["diets"] == []


def test_an_unknown_dietary_need_is_refused_with_its_code(client, family):
    body = _child_body(first_name="Ana", diets=["vegetarian", "keto"])
    refused(
        post(client, "/Parent/user/AddChild", body, family["token"]), "Unknown dietary need: keto"
    )
    refused(
        post(client, "/Parent/user/AddChild", body, family["token"], lang="fr"),
        "Besoin alimentaire inconnu : keto",
    )
