"""Form states show the one rule's message (docs/product.md §5, verbatim) at the right field, in the
parent's language, and every screen text the UI uses is in both catalogs."""

from __future__ import annotations

import ast
import asyncio
import re
from pathlib import Path

import reflex as rx

import hotmeals
from hotmeals.i18n import EN, FR
from hotmeals.ui.screens.sign_up.state import SignUpState
from hotmeals.ui.shared_state.children import ChildFormState
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.settings import ChangePasswordState

UI_ROOT = Path(hotmeals.__file__).parent / "ui"
# t("key") in components; tr("key", ...) in states.
KEY_RE = re.compile(r"\b(?:t|tr)\(\s*\"([a-z_][a-z0-9_.]*)\"")
DYNAMIC_KEYS = ("ui.notif.",)


async def _run(result) -> list:
    if hasattr(result, "__aiter__"):
        return [event async for event in result]
    value = await result
    return [] if value is None else [value]


def test_every_ui_text_key_is_in_both_languages():
    used = set()
    for path in UI_ROOT.rglob("*.py"):
        used |= set(KEY_RE.findall(path.read_text(encoding="utf-8")))
    assert "ui.logout.title" in used  # the scan is not vacuous
    missing = sorted(k for k in used if k not in EN or k not in FR)
    assert not missing


def _forms(key: str) -> list[str]:
    """The catalogue keys of ``key``: itself, or a counted message's plural forms (``tn``)."""
    return [key] if key in EN or f"{key}.other" not in EN else [f"{key}.one", f"{key}.other"]


def test_keys_handed_to_helpers_are_in_both_languages():
    """A key given to a helper as a plain string (``section_title("…")``, a dialog's texts, a
    FamilyChoice's ``saved``) escapes the ``t("…")`` scan above: every string literal in ui/ shaped
    like a catalog key of a known area must be in both catalogs; one ending in ``_`` is a prefix
    joined with a value at run time, and must begin at least one key."""
    areas = {key.split(".")[0] for key in EN if "." in key}
    shaped = re.compile(r"^[a-z_]+(\.[a-z0-9_]+)+$")
    literals = {
        node.value
        for path in UI_ROOT.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and shaped.match(node.value)
        and node.value.split(".")[0] in areas
    }
    assert "credit_ui.saved" in literals  # a key only ever handed over as a string
    missing = sorted(
        key
        for key in literals
        if not (
            any(k.startswith(key) for k in EN)
            if key.endswith("_")
            else all(k in EN and k in FR for k in _forms(key))
        )
    )
    assert not missing


def test_notification_kinds_have_labels():
    from hotmeals.services.notifications import NOTIFICATION_KINDS

    for kind in NOTIFICATION_KINDS:
        assert f"ui.notif.{kind}" in EN and f"ui.notif.{kind}_text" in FR


def test_logout_dialog_texts_are_the_specs():
    assert EN["ui.logout.title"] == "Logout?"
    assert EN["ui.logout.text"] == "Are you sure you want to log out of your account?"
    assert EN["ui.logout.confirm"] == "Yes, Logout"
    assert EN["ui.child.delete_title"] == "Are you sure?"


def test_sign_up_shows_a_message_only_for_fields_the_parent_has_left():
    async def scenario():
        root = rx.State(_reflex_internal_init=True)
        form = await root.get_state(SignUpState)
        await _run(form.blur("email", "not-an-email"))
        assert form.errors == {"email": "Please enter valid email address"}
        await _run(form.blur("phone", "12345"))
        assert form.errors["phone"] == "Please enter atleast 8 digits for phone number"
        await _run(form.change("phone", "(613) 555-0142 9999"))
        assert form.errors["phone"] == "Phone number should not exceed 13 characters"
        await _run(form.blur("password", "Lunch@2026"))
        await _run(form.blur("confirm_password", "Lunch@2025"))
        assert form.errors["confirm_password"] == "Password do not match"
        await _run(form.change("confirm_password", "Lunch@2026"))
        assert "confirm_password" not in form.errors
        assert "first_name" not in form.errors  # never visited: no message yet

    asyncio.run(scenario())


def test_sign_up_submit_shows_every_message_and_terms():
    async def scenario():
        root = rx.State(_reflex_internal_init=True)
        form = await root.get_state(SignUpState)
        await _run(form.submit({}))
        assert form.errors == {
            "first_name": "Please enter first name",
            "last_name": "Please enter last name",
            "email": "Please enter email address",
            "phone": "Please enter phone number",
            "password": "Please enter password",
            "confirm_password": "Please enter confirm password",
            "terms": "Terms & condition is required",
        }
        assert not form.busy

    asyncio.run(scenario())


def test_messages_follow_the_chosen_language():
    async def scenario():
        root = rx.State(_reflex_internal_init=True)
        (await root.get_state(I18nState)).lang = "fr"
        form = await root.get_state(SignUpState)
        await _run(form.blur("email", "x"))
        assert form.errors["email"] == FR["email_invalid"]

    asyncio.run(scenario())


def test_child_names_are_letters_only_and_at_most_15():
    async def scenario():
        root = rx.State(_reflex_internal_init=True)
        form = await root.get_state(ChildFormState)
        await _run(form.blur_name("first_name", "Emma2"))
        assert form.errors["first_name"] == (
            "Please enter only letters (A-Z, a-z) with no special characters or numbers"
        )
        await _run(form.blur_name("last_name", "Abcdefghijklmnop"))
        assert form.errors["last_name"] == EN["name_too_long"]
        await _run(form.blur_name("first_name", "Emma"))
        assert "first_name" not in form.errors

    asyncio.run(scenario())


def test_the_child_forms_dietary_needs_take_known_codes_in_the_marks_order():
    async def scenario():
        root = rx.State(_reflex_internal_init=True)
        form = await root.get_state(ChildFormState)
        form.toggle_diet("halal", True)
        form.toggle_diet("vegetarian", True)
        form.toggle_diet("keto", True)  # the browser is untrusted: not a mark
        assert form.diets == ["vegetarian", "halal"]
        form.toggle_diet("halal", False)
        assert form.diets == ["vegetarian"]

    asyncio.run(scenario())


def test_change_password_shows_its_four_messages():
    async def scenario():
        root = rx.State(_reflex_internal_init=True)
        form = await root.get_state(ChangePasswordState)
        await _run(form.submit({}))
        assert form.errors == {
            "current_password": "Current password is required",
            "new_password": "New password is required",
            "confirm_password": "Confirm password is required",
        }
        await _run(
            form.submit(
                {
                    "current_password": "x",
                    "new_password": "Lunch@2026",
                    "confirm_password": "Lunch@2025",
                }
            )
        )
        assert form.errors == {"confirm_password": "Passwords do not match"}

    asyncio.run(scenario())
