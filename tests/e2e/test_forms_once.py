"""The account forms in Chromium at 390 px, in English and in French: one tap is one record
on every account form that writes. Each button is double-tapped (or tapped twice in one task, before
any answer could arrive) and the database then holds one record: add-child (sign-up's
/add-child and /add-another-child), the allergy profile, Make default, "Yes, delete", the
profile, an alternate e-mail added and removed, Contact us and Manage notification. On the
way, the messages a parent reads are the catalog's, in the page's language: names as
Canadians write them (Émilie, Jean-Luc, O'Neil, Zoë) and a digit refused with the usual
message, allergy levels most severe first and a Major allergy on the child card, "Make
default" saying whose, another account's phone number refused, the alternate e-mail field
gone at the limit of 3, the contact message's required text, a new password equal to the
current one refused, and with no children one "Add a child" call to action."""

from __future__ import annotations

import json
import re
import sqlite3
import uuid
from contextlib import closing

import httpx
import pytest
from playwright.sync_api import Page, expect

from hotmeals.domain.allergy import BY_SEVERITY
from tests.e2e.cartdata import rows
from tests.e2e.helpers import close_toasts, msg, open_page, use_language, wait_hydrated
from tests.e2e.server import AppServer
from tests.e2e.smtp import SmtpServer

PASSWORD = "Lunch@2026"
DEMO_PHONE = "613-555-0142"  # the demo parent's
API_HEADERS = {"api-key": "hotmeals-dev-key", "app": "P", "content-type": "text/plain"}


@pytest.fixture
def viewport() -> str:
    """These tests run at the phone width only (the double tap is a phone's), in EN and FR."""
    return "phone"


def _api(app: AppServer, path: str, body: dict, token: str | None = None) -> dict:
    headers = {**API_HEADERS, **({"token": token} if token else {})}
    answer = httpx.post(
        f"{app.base_url}/api/v1{path}", content=json.dumps(body), headers=headers, timeout=30
    ).json()
    assert answer["code"] == 1, answer
    return answer["data"]


def _new_parent(app: AppServer, smtp: SmtpServer) -> tuple[str, int, str]:
    """A parent just verified (sign-up step ADD_CHILD): its token, id and phone."""
    email = f"e2e-once-{uuid.uuid4().hex[:10]}@example.com"
    phone = f"613-553-{uuid.uuid4().int % 10_000:04d}"
    _api(
        app,
        "/Parent/auth/Signup",
        {
            "first_name": "Zoë",
            "last_name": "O'Neil",
            "email": email,
            "phone": phone,
            "password": PASSWORD,
            "confirm_password": PASSWORD,
            "terms": True,
        },
    )
    data = _api(
        app, "/Parent/auth/VerifyOtp", {"email": email, "otp": smtp.inbox.wait_for_code(email)}
    )
    parent_id = rows(app, "SELECT id FROM parent WHERE email = ?", email)[0][0]
    return data["token"], parent_id, phone


def _children(app: AppServer, parent_id: int) -> dict[str, bool]:
    """The parent's active children: first name -> is the default."""
    found = rows(
        app,
        "SELECT first_name, is_default FROM child WHERE parent_id = ? AND is_active",
        parent_id,
    )
    return {name: bool(default) for name, default in found}


def _submissions(app: AppServer, parent_id: int, action: str) -> int:
    return rows(
        app,
        "SELECT COUNT(*) FROM formsubmission WHERE parent_id = ? AND action = ?",
        parent_id,
        action,
    )[0][0]


def _toast(page: Page, text: str):
    return page.locator("[data-sonner-toast]", has_text=text)


def _fill_child(page: Page, first_name: str, last_name: str) -> None:
    page.fill("#child-first_name", first_name)
    page.fill("#child-last_name", last_name)
    page.select_option("#child-city", label="Ottawa")
    expect(page.locator("#child-school option")).not_to_have_count(1)
    page.select_option("#child-school", index=1)
    expect(page.locator("#child-teacher option")).not_to_have_count(1)
    page.select_option("#child-teacher", index=1)
    expect(page.locator("#child-grade")).not_to_have_value("")


def _tap_twice_in_one_task(page: Page, selector: str) -> list:
    """Two taps before any answer could arrive; what the button was between them."""
    return page.evaluate(
        """(selector) => {
            const button = document.querySelector(selector);
            button.click();
            const between = [button.disabled, button.getAttribute('aria-busy')];
            button.click();
            return between;
        }""",
        selector,
    )


def test_every_account_form_records_a_double_tap_once(
    page: Page, app: AppServer, smtp: SmtpServer, lang: str
):
    token, parent_id, phone = _new_parent(app, smtp)
    page.context.add_cookies([{"name": "hm_token", "value": token, "url": app.base_url}])
    use_language(page, lang)

    # Sign-up's step, /add-child. A digit is refused with the usual message and the refusal
    # releases the button; accents and a hyphen are a name.
    open_page(page, "/add-child")
    expect(page).to_have_title(msg("title.add_child", lang))
    _fill_child(page, "Émilie2", "Dubé")
    page.locator("#child-submit").click()
    expect(page.locator("#child-first_name-error")).to_have_text(msg("name_letters_only", lang))
    expect(page.locator("#child-submit")).to_be_enabled()
    page.fill("#child-first_name", "Émilie")
    page.locator("#child-submit").dblclick()
    page.wait_for_url(re.compile(r"/parent/allergy-profile/?$"))
    wait_hydrated(page)
    expect(_toast(page, msg("child_added", lang))).to_have_count(1)
    assert _children(app, parent_id) == {"Émilie": True}
    emilie = rows(app, "SELECT id FROM child WHERE parent_id = ?", parent_id)[0][0]

    # The allergy profile: levels most severe first, in the page's language; saved once.
    page.fill("#allergy-search", "sesa")
    page.locator("#allergy-suggestions button").first.click()
    level = page.locator(".hm-allergy-row select").first
    expect(level.locator("option")).to_have_text([msg(lv.label_key, lang) for lv in BY_SEVERITY])
    expect(level).to_have_value(BY_SEVERITY[0].value)  # Major
    page.locator("#allergy-save").dblclick()
    page.wait_for_url(re.compile(r"/parent/edit-profile/?$"))
    wait_hydrated(page)
    expect(_toast(page, msg("allergies_saved", lang))).to_have_count(1)
    assert rows(app, "SELECT COUNT(*) FROM childallergy WHERE child_id = ?", emilie) == [(1,)]
    assert _submissions(app, parent_id, "set_child_allergies") == 1
    # ... and the Major allergy stands out on the child card.
    expect(page.locator(".hm-major-allergy")).to_contain_text(
        msg("ui.child.major_allergy", lang) + msg("checkout.colon", lang)
    )

    # Signed in, /add-another-child: two taps in one task; the button is busy from the first.
    open_page(page, "/add-another-child")
    _fill_child(page, "Jean-Luc", "O'Neil")
    assert _tap_twice_in_one_task(page, "#child-submit") == [True, "true"]
    # The new child is named in the address: the chosen child stays as it was.
    page.wait_for_url(re.compile(r"/parent/allergy-profile/?\?child=\d+$"))
    wait_hydrated(page)
    assert _children(app, parent_id) == {"Émilie": True, "Jean-Luc": False}
    assert _submissions(app, parent_id, "add_child") == 2  # one per child

    # Make default, double-tapped: says whose, once.
    open_page(page, "/edit-profile")
    make_default = page.get_by_role(
        "button", name=f"{msg('ui.child.make_default', lang)} Jean-Luc O'Neil"
    )
    make_default.dblclick()
    expect(_toast(page, msg("ui.child.default_now", lang, name="Jean-Luc"))).to_have_count(1)
    expect(make_default).to_have_count(0)
    assert _children(app, parent_id) == {"Émilie": False, "Jean-Luc": True}
    assert _submissions(app, parent_id, "set_default_child") == 1

    # "Yes, delete", double-tapped: one child deleted, no "Child not found".
    page.get_by_role("button", name=f"{msg('ui.common.delete', lang)} Jean-Luc O'Neil").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog.get_by_role("heading")).to_have_text(msg("ui.child.delete_title", lang))
    dialog.get_by_role("button", name=msg("ui.child.delete_confirm", lang)).dblclick()
    expect(_toast(page, msg("child_deleted", lang))).to_have_count(1)
    expect(page.locator("[data-sonner-toast][data-type=error]")).to_have_count(0)
    assert list(_children(app, parent_id)) == ["Émilie"]
    assert _submissions(app, parent_id, "delete_child") == 1

    # The profile: another account's phone is refused at the field; a name with a hyphen and
    # a diaeresis and the parent's own number written the Canadian way are saved, once.
    open_page(page, "/edit-profile/parent-edit-profile")
    page.fill("#profile-phone", DEMO_PHONE)
    page.click("#profile-save")
    expect(page.locator("#profile-phone-error")).to_have_text(msg("phone_taken", lang))
    page.fill("#profile-phone", "+1 (" + phone[:3] + ") " + phone[4:])
    page.fill("#profile-first_name", "Zoë-Anne")
    page.locator("#profile-save").dblclick()
    expect(_toast(page, msg("profile_updated", lang))).to_have_count(1)
    assert rows(app, "SELECT first_name FROM parent WHERE id = ?", parent_id) == [("Zoë-Anne",)]
    assert _submissions(app, parent_id, "edit_profile") == 1

    # An alternate e-mail added (one code sent) and removed, each double-tapped.
    alternate = f"e2e-alt-{uuid.uuid4().hex[:10]}@example.com"
    page.fill("#profile-alt_email", alternate)
    page.locator("#alt-add").dblclick()
    smtp.inbox.wait_for_mail(alternate)
    expect(page.get_by_role("dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    remove = page.get_by_role("button", name=f"{msg('ui.common.remove', lang)} {alternate}")
    remove.dblclick()
    expect(remove).to_have_count(0)
    expect(page.locator("[data-sonner-toast][data-type=error]")).to_have_count(0)
    assert _submissions(app, parent_id, "add_alt_email") == 1
    assert _submissions(app, parent_id, "remove_alt_email") == 1
    assert len(smtp.inbox.mails_to(alternate)) == 1
    alternates = "SELECT COUNT(*) FROM parentaltemail WHERE parent_id = ?"
    assert rows(app, alternates, parent_id) == [(0,)]
    # With 3 alternate addresses (the limit), the field gives way to a note.
    with closing(sqlite3.connect(app.data_dir / "e2e.db", timeout=30)) as conn, conn:
        conn.executemany(
            "INSERT INTO parentaltemail (parent_id, email, created_at) "
            "VALUES (?, ?, CURRENT_TIMESTAMP)",
            [(parent_id, f"e2e-alt{i}-{uuid.uuid4().hex[:8]}@example.com") for i in range(3)],
        )
    open_page(page, "/edit-profile/parent-edit-profile")
    expect(page.locator("#alt-limit")).to_have_text(msg("ui.alt_email.limit_reached", lang))
    expect(page.locator("#profile-alt_email")).to_have_count(0)

    # Contact us: the required text names the field as the screen does; sent once.
    open_page(page, "/edit-profile?step=8")
    page.click("#contact-submit")
    expect(page.locator("#contact-description-error")).to_have_text(
        msg("description_required", lang)
    )
    page.fill("#contact-subject", "Lunch on Friday")
    page.fill("#contact-description", "Émilie's meal without onions, please.")
    page.locator("#contact-submit").dblclick()
    expect(_toast(page, msg("contact_sent", lang))).to_have_count(1)
    assert rows(app, "SELECT COUNT(*) FROM contactmessage WHERE parent_id = ?", parent_id) == [(1,)]
    close_toasts(page)  # on a phone it lies over the step tabs

    # Settings: Manage notification saved once; Change password refuses the current password.
    page.click("#step-6")
    page.click("#settings-notifications")
    page.locator("#notifications-save").dblclick()
    expect(_toast(page, msg("notifications_updated", lang))).to_have_count(1)
    assert _submissions(app, parent_id, "update_notifications") == 1
    close_toasts(page)
    page.go_back()
    page.click("#settings-password")
    page.fill("#password-current_password", PASSWORD)
    page.fill("#password-new_password", PASSWORD)
    page.fill("#password-confirm_password", PASSWORD)
    page.click("#password-submit")
    expect(page.locator("#password-new_password-error")).to_have_text(
        msg("new_password_same", lang)
    )

    # The last child deleted: one "Add a child" call to action, not two.
    open_page(page, "/edit-profile?step=1")
    page.get_by_role("button", name=f"{msg('ui.common.delete', lang)} Émilie Dubé").click()
    dialog.get_by_role("button", name=msg("ui.child.delete_confirm", lang)).click()
    expect(page.get_by_text(msg("ui.profile.no_children", lang))).to_be_visible()
    expect(page.locator("main a[href$='/add-another-child']")).to_have_count(1)
    assert _children(app, parent_id) == {}
