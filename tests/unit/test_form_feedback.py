"""What the forms say back, without a browser: allergy levels by severity (Major first) and a Major
allergy named on the child card, sign-in's every error at once, a success toast that clears
the ones before it. (In the browser: tests/e2e/test_sign_in_forms.py.)"""

from __future__ import annotations

from dataclasses import replace

from hotmeals.domain.allergy import BY_SEVERITY, AlertLevel, severity_rank
from hotmeals.services.accounts import validate_login
from hotmeals.services.children import ChildAllergyView, ChildView, list_alert_levels
from hotmeals.ui.shared_state.children import child_row
from hotmeals.ui.shared_state.toasts import succeeded


def test_levels_are_offered_most_severe_first():
    assert [level.value for level in BY_SEVERITY] == [
        "Major",
        "High",
        "Medium",
        "Low",
        "Non-allergic",
    ]
    assert set(BY_SEVERITY) == set(AlertLevel)
    assert [level.value for level in list_alert_levels()] == [lv.value for lv in BY_SEVERITY]
    assert severity_rank("Major") < severity_rank("High") < severity_rank("Low")
    assert severity_rank("something old") == len(BY_SEVERITY)


def test_the_child_card_names_its_major_allergies():
    child = ChildView(
        id=3,
        first_name="Zoë",
        last_name="Dubé",
        is_default=True,
        city_id=1,
        city="",
        school_id=1,
        school="",
        teacher_id=1,
        teacher="",
        grade_id=1,
        grade_en="",
        grade_fr="",
        allergies=(
            ChildAllergyView(1, "Peanuts", "Arachides", "Major"),
            ChildAllergyView(2, "Sesame", "Sésame", "Major"),
            ChildAllergyView(3, "Milk", "Lait", "Low"),
        ),
    )
    assert child_row(child, "en")["major"] == "Peanuts, Sesame"
    assert child_row(child, "fr")["major"] == "Arachides, Sésame"
    assert child_row(replace(child, allergies=child.allergies[2:]), "en")["major"] == ""


def test_sign_in_gives_every_error_at_once():
    both = validate_login(identifier="", password="", by_phone=True)
    assert {f: e.code for f, e in both.items()} == {
        "identifier": "phone_required",
        "password": "password_required",
    }
    bad = validate_login(identifier="not-an-email", password="", by_phone=False)
    assert {f: e.code for f, e in bad.items()} == {
        "identifier": "email_invalid",
        "password": "password_required",
    }
    assert validate_login(identifier="a@b.ca", password="x", by_phone=False) == {}


def test_a_success_clears_the_toasts_before_it():
    dismiss, success = succeeded("Saved")
    assert "dismiss" in str(dismiss) and "success" in str(success)


def test_the_alternate_address_field_goes_once_the_limit_is_reached():
    import asyncio

    import reflex as rx

    from hotmeals.ui.screens.parent_edit_profile.state import ParentEditState

    async def scenario():
        root = rx.State(_reflex_internal_init=True)
        form = await root.get_state(ParentEditState)
        rows = [{"email": f"a{n}@example.org", "verified": ""} for n in range(3)]
        form.alt_emails = rows[:2]
        assert form.can_add_alt
        form.alt_emails = rows
        assert not form.can_add_alt

    asyncio.run(scenario())
