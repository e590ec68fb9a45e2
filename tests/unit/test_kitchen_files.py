"""The kitchen's files (services/kitchen_files.py) from frozen labels: the PDF label sheet's text
(extracted, in both languages; a Major allergy in its box; long fields shortened without
losing an allergy; ten labels a sheet), the labels' CSV line by line, and the production
list's text and CSV."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from datetime import UTC, date, datetime

import pytest
from pypdf import PdfReader

from hotmeals.services import kitchen, kitchen_files
from hotmeals.services.kitchen import KitchenLabels, KitchenProduction, VendorDay
from hotmeals.services.kitchen_labels import Label, LabelAllergy, Named

DAY = date(2031, 3, 12)


def _label(**changes) -> Label:
    base = Label(
        order_line_id=7,
        order_number="HM-000123",
        copy=1,
        copies=2,
        child_id=3,
        first_name="Emma",
        last_initial="T",
        school="École élémentaire Les Érables",
        vendor="Lakeshore Kitchen",
        meal_date=DAY,
        teacher="Mme Bélanger",
        grade_code="2",
        grade=Named("Grade 2", "2e année"),
        meal=Named("Pasta bake", "Pâtes gratinées"),
        size="large",
        menu_option=Named("White milk", "Lait blanc"),
        meal_option=Named("Gluten-free bun", "Pain sans gluten"),
        addons=(Named("Apple", "Pomme"), Named("Cookie", "Biscuit")),
        allergies=(
            LabelAllergy("Peanuts", "Arachides", "Major", False),
            LabelAllergy("Milk", "Lait", "Low", True),
        ),
        diets=("halal",),
        meal_diets=("vegetarian", "no_pork", "no_beef"),
        unmet=("halal",),
        special_note="Cut in small pieces, please",
    )
    return replace(base, **changes)


def _noah() -> Label:
    return _label(
        order_line_id=8,
        copy=1,
        copies=1,
        child_id=4,
        first_name="Noah",
        meal=Named("Veggie curry", "Cari de légumes"),
        size="small",
        menu_option=None,
        meal_option=None,
        addons=(),
        allergies=(),
        diets=("vegetarian",),
        meal_diets=("vegan", "vegetarian"),
        unmet=(),
        special_note="",
    )


def _found(labels: list[Label]) -> KitchenLabels:
    day = VendorDay(
        school_id=1,
        school="École élémentaire Les Érables",
        vendor_id=2,
        vendor="Lakeshore Kitchen",
        meal_date=DAY,
        frozen_at=datetime(2031, 3, 11, 15, 30, tzinfo=UTC),
        labels=tuple(labels),
    )
    return KitchenLabels(school_id=1, school=day.school, meal_date=DAY, lang="fr", days=(day,))


def pdf_pages(content: bytes) -> list[str]:
    reader = PdfReader(io.BytesIO(content))
    return [" ".join((page.extract_text() or "").split()) for page in reader.pages]


def test_the_label_sheet_is_real_text_in_english():
    found = _found([_label(), replace(_label(), copy=2), _noah()])
    content = kitchen_files.labels_pdf(found, "en")
    assert content.startswith(b"%PDF-") and b"DejaVuSans" in content
    (page,) = pdf_pages(content)
    for text in (
        "Emma T.",
        "Mme Bélanger",
        "Grade 2 · École élémentaire Les Érables · Wednesday, March 12, 2031",
        "Pasta bake — 1 portion + upgrade",
        "White milk · Gluten-free bun · + Apple, Cookie",
        "MAJOR ALLERGY: PEANUTS",
        "Allergies: Milk (Low, IN THIS MEAL)",
        "Diet: Halal — NOT met: Halal",
        "Message: “Cut in small pieces, please”",
        "HM-000123 · meal 1 of 2",
        "HM-000123 · meal 2 of 2",
        "Noah T.",
        "Veggie curry — 1 portion",
        "Diet: Vegetarian — fits",
    ):
        assert text in page, text
    assert page.index("Emma T.") < page.index("Noah T.")  # the frozen order
    assert "Tremblay" not in page  # a last initial only


def test_the_label_sheet_in_french():
    (page,) = pdf_pages(kitchen_files.labels_pdf(_found([_label()]), "fr"))
    for text in (
        "2e année · École élémentaire Les Érables · mercredi 12 mars 2031",
        "Pâtes gratinées — 1 portion + upgrade",
        "Lait blanc · Pain sans gluten · + Pomme, Biscuit",
        "ALLERGIE MAJEURE : ARACHIDES",
        "Allergies : Lait (Faible, DANS CE REPAS)",
        "Régime : Halal — NON respecté : Halal",
        "Message : « Cut in small pieces, please »",
        "repas 1 sur 2",
    ):
        assert text in page, text


def test_long_fields_are_shortened_but_every_allergy_is_printed():
    many = tuple(
        LabelAllergy(f"Allergen number {n}", f"Allergène {n}", level, n % 3 == 0)
        for n, level in enumerate(["Major", "High", "Medium", "Low"] * 3)
    )
    label = _label(
        allergies=many,
        special_note="x" * 40 + " " + "long words " * 10,
        addons=tuple(Named(f"Add-on {n} with a long name", f"Supplément {n}") for n in range(8)),
    )
    (page,) = pdf_pages(kitchen_files.labels_pdf(_found([label]), "en"))
    for allergy in many:
        name = allergy.name_en.upper() if allergy.is_major else allergy.name_en
        assert name in page, name
    assert "…" in page  # the add-ons or the message shortened


def test_ten_labels_a_sheet():
    labels = [replace(_label(), copy=n + 1, copies=11) for n in range(11)]
    pages = pdf_pages(kitchen_files.labels_pdf(_found(labels), "en"))
    assert [p.count("Emma T.") for p in pages] == [10, 1]


def test_a_day_without_meals_says_so():
    (page,) = pdf_pages(kitchen_files.labels_pdf(_found([]), "fr"))
    assert "Aucun repas commandé pour ce jour." in page


def test_the_labels_csv_one_row_per_label():
    text = kitchen_files.labels_csv(_found([_label(), replace(_label(), copy=2), _noah()]), "en")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == list(kitchen_files.LABEL_COLUMNS)
    assert rows[0] == {
        "vendor": "Lakeshore Kitchen",
        "date": "2031-03-12",
        "school": "École élémentaire Les Érables",
        "teacher": "Mme Bélanger",
        "grade": "Grade 2",
        "child": "Emma T.",
        "order": "HM-000123",
        "order_line_id": "7",
        "meal_no": "1/2",
        "meal": "Pasta bake",
        "size": "large",
        "menu_option": "White milk",
        "meal_option": "Gluten-free bun",
        "add_ons": "Apple; Cookie",
        "allergies": "Peanuts:Major; Milk:Low",
        "allergens_in_meal": "Milk",
        "diets": "halal",
        "meal_diets": "vegetarian no_pork no_beef",
        "diet_fits": "no",
        "special_message": "Cut in small pieces, please",
    }
    assert rows[1]["meal_no"] == "2/2"
    assert (rows[2]["child"], rows[2]["diet_fits"], rows[2]["allergies"]) == ("Noah T.", "yes", "")
    french = list(csv.DictReader(io.StringIO(kitchen_files.labels_csv(_found([_label()]), "fr"))))
    assert (french[0]["meal"], french[0]["allergies"], french[0]["grade"]) == (
        "Pâtes gratinées",
        "Arachides:Major; Lait:Low",
        "2e année",
    )


def _production() -> KitchenProduction:
    day = _found([_label(), replace(_label(), copy=2), _noah()]).days[0]
    return KitchenProduction(
        school_id=1,
        school=day.school,
        meal_date=DAY,
        lang="fr",
        lists=(kitchen.production_list(day),),
    )


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_production_list_as_text(lang):
    text = kitchen_files.production_text(_production(), lang)
    if lang == "en":
        expected = [
            "Production list",
            "Allergies and dietary needs",
            "2 × Mme Bélanger — Emma T. — Pasta bake — 1 portion + upgrade — White milk · "
            "Gluten-free bun · + Apple, Cookie",
            "MAJOR ALLERGY: PEANUTS",
            "1 × Mme Bélanger — Noah T. — Veggie curry — 1 portion",
            "2 × Pasta bake — 1 portion + upgrade — White milk — Gluten-free bun",
            "1 × Veggie curry — 1 portion",
            "2 × Apple",
            "Total: 3 meals",
        ]
    else:
        expected = ["Liste de production", "ALLERGIE MAJEURE : ARACHIDES", "Total : 3 repas"]
    for line in expected:
        assert line in text, line
    assert text.index(expected[1]) < text.index(expected[-1])


def test_the_production_list_as_csv():
    rows = list(csv.DictReader(io.StringIO(kitchen_files.production_csv(_production(), "en"))))
    assert [(r["section"], r["child"], r["meal"], r["add_ons"], r["count"]) for r in rows] == [
        ("attention", "Emma T.", "Pasta bake", "Apple; Cookie", "2"),
        ("attention", "Noah T.", "Veggie curry", "", "1"),
        ("meal", "", "Pasta bake", "", "2"),
        ("meal", "", "Veggie curry", "", "1"),
        ("add_on", "", "", "Apple", "2"),
        ("add_on", "", "", "Cookie", "2"),
        ("total", "", "", "", "3"),
    ]
    assert rows[0]["allergies"] == "Peanuts:Major; Milk:Low" and rows[0]["diet_fits"] == "no"
