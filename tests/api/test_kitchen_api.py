"""/api/v1/Admin/ProductionList and Admin/Labels (SQLite and PostgreSQL): the operator's key
required (the parents' api-key refused), refused before the cut-off in the caller's language,
and after it the production list as JSON and the labels as a PDF or CSV file in the school's
language or the one asked. The labels' rules: tests/integration/test_kitchen.py; the files:
tests/unit/test_kitchen_files.py."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

import pytest
from pypdf import PdfReader

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.settings import get_settings
from tests.api.helpers import API_KEY, ok, post, refused
from tests.kitchen_support import AFTER, BEFORE, DAY, World, kitchen_world

ADMIN_KEY = "operator-secret-of-at-least-24-chars"


@pytest.fixture
def admin_key(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("HOTMEALS_ADMIN_API_KEY", ADMIN_KEY)
    get_settings.cache_clear()
    yield ADMIN_KEY
    monkeypatch.delenv("HOTMEALS_ADMIN_API_KEY")
    get_settings.cache_clear()


@pytest.fixture
def world(database) -> World:
    with session_scope() as s:
        return kitchen_world(s, french_school=True)


def _call(client, path: str, body: dict, key: str | None, *, lang: str = "en"):
    more = {"admin-key": key} if key else {}
    return post(client, path, body, lang=lang, **more)


def test_the_kitchen_calls_need_the_admin_key(client, admin_key, world):
    clock.set_now(AFTER)
    body = {"school": world.school_id, "date": DAY.isoformat()}
    for path in ("/Admin/ProductionList", "/Admin/Labels"):
        refused(_call(client, path, body, None), "Invalid admin key.", status=403)
        refused(_call(client, path, body, API_KEY), "Invalid admin key.", status=403)
        refused(_call(client, path, body, "x" + ADMIN_KEY), "Invalid admin key.", status=403)


def test_before_the_cut_off_the_calls_refuse_in_the_callers_language(client, admin_key, world):
    clock.set_now(BEFORE)
    body = {"school": str(world.school_id), "date": DAY.isoformat()}
    answer = refused(_call(client, "/Admin/Labels", body, admin_key))
    assert answer["message"].startswith(f"The kitchen's list and labels for {world.vendor}")
    assert answer["data"] == {"field": "date"}
    answer = refused(_call(client, "/Admin/ProductionList", body, admin_key, lang="fr"))
    assert answer["message"].startswith("La liste de production et les étiquettes")
    clock.set_now(AFTER)
    refused(
        _call(client, "/Admin/Labels", {**body, "format": "docx"}, admin_key),
        "Choose the labels' format: pdf or csv",
    )
    refused(_call(client, "/Admin/Labels", {**body, "lang": "de"}, admin_key))
    refused(_call(client, "/Admin/ProductionList", {"date": DAY.isoformat()}, admin_key))


def test_the_production_list_as_json_in_the_schools_language(client, admin_key, world):
    clock.set_now(AFTER)
    body = {"school": world.school, "date": DAY.isoformat(), "vendor": world.vendor}
    data = ok(_call(client, "/Admin/ProductionList", body, admin_key))["data"]
    assert (data["school_id"], data["date"], data["lang"]) == (world.school_id, "2031-03-12", "fr")
    assert data["day"] == "mercredi 12 mars 2031"
    (listed,) = data["lists"]
    assert listed["vendor"] == world.vendor and listed["total"] == 5
    emma, noah = listed["attention"]
    assert (emma["child"], emma["teacher"], emma["count"], emma["meal"]) == (
        "Emma T.",
        "Mme Bélanger",
        2,
        "Pâtes gratinées",
    )
    assert emma["allergies"][0] == {
        "allergen": "Arachides",
        "level": "Major",
        "level_label": "Majeur",
        "major": True,
        "in_meal": False,
    }
    assert emma["diets"] == [{"code": "halal", "label": "Halal"}] and emma["fits"] is False
    assert emma["add_ons"] == ["Pomme", "Biscuit"]
    assert emma["special_note"] == "Cut in small pieces, please"
    assert (noah["child"], noah["fits"], noah["count"]) == ("Noah T.", True, 2)
    assert [(m["meal"], m["size"], m["count"]) for m in listed["meals"]] == [
        ("Pâtes gratinées", "large", 2),
        ("Cari de légumes", "small", 2),
        ("Roulé au poulet", "small", 1),
    ]
    assert listed["add_ons"] == [{"name": "Pomme", "count": 2}, {"name": "Biscuit", "count": 2}]
    english = ok(_call(client, "/Admin/ProductionList", {**body, "lang": "en"}, admin_key))
    assert english["data"]["lists"][0]["meals"][0]["meal"] == "Pasta bake"


def test_the_labels_as_pdf_and_csv(client, admin_key, world):
    clock.set_now(AFTER)
    body = {"school": str(world.school_id), "date": DAY.isoformat()}
    pdf = _call(client, "/Admin/Labels", body, admin_key)
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert "attachment" in pdf.headers["content-disposition"]
    text = " ".join(PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text().split())
    assert "ALLERGIE MAJEURE : ARACHIDES" in text and "Emma T." in text  # the school's French
    english = _call(client, "/Admin/Labels", {**body, "lang": "en"}, admin_key)
    assert (
        "MAJOR ALLERGY: PEANUTS" in PdfReader(io.BytesIO(english.content)).pages[0].extract_text()
    )
    answer = _call(client, "/Admin/Labels", {**body, "format": "csv", "lang": "en"}, admin_key)
    assert answer.headers["content-type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(answer.content.decode("utf-8"))))
    assert [(r["child"], r["meal"], r["meal_no"]) for r in rows] == [
        ("Emma T.", "Pasta bake", "1/2"),
        ("Emma T.", "Pasta bake", "2/2"),
        ("Noah T.", "Veggie curry", "1/2"),
        ("Noah T.", "Veggie curry", "2/2"),
        ("Léa C.", "Chicken wrap", "1/1"),
    ]
    assert rows[0]["allergies"] == "Peanuts:Major; Milk:Low"


def test_openapi_describes_the_kitchen_calls(client):
    doc = client.get("/api/v1/openapi.json").json()
    for path in ("/api/v1/Admin/ProductionList", "/api/v1/Admin/Labels"):
        operation = doc["paths"][path]["post"]
        assert operation["summary"] and "Admin" in operation["tags"]
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        assert {"school", "date", "vendor", "lang"} <= set(schema["properties"])
        assert {"AdminKey"} <= {name for item in operation.get("security", []) for name in item}
    labels = doc["paths"]["/api/v1/Admin/Labels"]["post"]
    assert set(labels["responses"]["200"]["content"]) == {"application/pdf", "text/csv"}
