"""Issue 12 in Chromium at 390 px, EN and FR: what the header, dialogs and links say to a
keyboard and a screen reader, and where a signed-in parent who opens /sign-in or /sign-up
goes; the French page, its title and its toasts."""

from __future__ import annotations

import json
import re
import uuid

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import open_page, wait_hydrated
from tests.e2e.server import AppServer
from tests.e2e.smtp import SmtpServer

PASSWORD = "Lunch@2026"
API_HEADERS = {"api-key": "hotmeals-dev-key", "app": "P", "content-type": "text/plain"}


@pytest.fixture
def viewport() -> str:
    return "phone"


def test_signed_in_visits_to_sign_in_and_sign_up_go_on(page: Page, parent_cookie):
    page.context.add_cookies([parent_cookie])
    page.goto("/parent/sign-in?next=/edit-profile/parent-edit-profile")
    page.wait_for_url(re.compile(r"/parent/edit-profile/parent-edit-profile/?$"))
    wait_hydrated(page)
    expect(page).to_have_title(re.compile("^Edit profile"))
    for path in ("/sign-up", "/sign-in-with-phone"):
        page.goto(f"/parent{path}")
        page.wait_for_url(re.compile(r"/parent/?$"))  # the parent home
        wait_hydrated(page)
        expect(page).to_have_title(re.compile("^Hot Meals"))


def test_cart_and_cancel_cart_have_names_that_tell_them_apart(page: Page, parent_cookie):
    page.context.add_cookies([parent_cookie])
    open_page(page, "/edit-profile")
    cart, cancel = page.locator("#header-cart"), page.locator("#header-cancel-cart")
    expect(cart).to_have_accessible_name(re.compile(r"^Cart, \d+ items?$"))
    expect(cancel).to_have_accessible_name(re.compile(r"^Cancel cart, \d+ items?$"))
    icons = [c.locator("svg").first.get_attribute("class") for c in (cart, cancel)]
    assert icons[0] != icons[1]  # two pictures, not one
    page.evaluate("localStorage.setItem('lang', 'fr')")  # the stored choice (docs §1)
    page.reload()
    wait_hydrated(page)
    expect(cart).to_have_accessible_name(re.compile(r"^Panier, \d+ articles?$"))
    expect(cancel).to_have_accessible_name(re.compile(r"^Panier d'annulation, \d+ articles?$"))


def test_focus_returns_to_what_opened_a_dialog(page: Page, parent_cookie):
    page.context.add_cookies([parent_cookie])
    open_page(page, "/edit-profile")
    # Logout, from the account menu, by keyboard: Escape closes the dialog.
    page.locator("#profile-menu").focus()
    page.keyboard.press("Enter")
    page.get_by_role("menuitem", name="Logout").press("Enter")
    dialog = page.get_by_role("alertdialog")
    expect(dialog.get_by_role("heading")).to_have_text("Logout?")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(page.locator("#profile-menu")).to_be_focused()
    # Delete a child: Cancel puts the focus back on that child's Delete button.
    delete = page.get_by_role("button", name=re.compile(r"^Delete ")).first
    delete.click()
    expect(dialog.get_by_role("heading")).to_have_text("Are you sure?")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(delete).to_be_focused()


def test_focus_returns_to_the_button_that_opened_the_terms(page: Page):
    open_page(page, "/sign-up")
    opener = page.get_by_role("button", name=re.compile("terms", re.IGNORECASE)).first
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(opener).to_be_focused()


def test_links_that_look_like_buttons_are_one_element(page: Page):
    open_page(page, "/")
    for name in ("Get started", "I have an account", "Login"):
        control = page.get_by_role("link", name=name, exact=True)
        expect(control).to_have_count(1)
        expect(control.locator("button")).to_have_count(0)
    expect(page.locator("a button, button a")).to_have_count(0)


def _complete_parent(app: AppServer, smtp: SmtpServer) -> str:
    """A parent through sign-up (a child, no allergies): its session token."""
    email = f"e2e-shell-{uuid.uuid4().hex[:10]}@example.com"
    _api(
        app,
        "/Parent/auth/Signup",
        {
            "first_name": "Émilie",
            "last_name": "Dubé",
            "email": email,
            "phone": f"613-551-{uuid.uuid4().int % 10_000:04d}",
            "password": PASSWORD,
            "confirm_password": PASSWORD,
            "terms": True,
        },
    )
    token = _api(
        app, "/Parent/auth/VerifyOtp", {"email": email, "otp": smtp.inbox.wait_for_code(email)}
    )["token"]
    city = _api(app, "/Parent/user/get_city", {})[0]
    school = _api(app, "/Parent/user/GetSchool", {"city_id": city["id"]})[0]
    teacher = _api(app, "/Parent/user/get_teachers", {"school_id": school["id"]})[0]
    child = _api(
        app,
        "/Parent/user/AddChild",
        {
            "first_name": "Zoë",
            "last_name": "Dubé",
            "city_id": city["id"],
            "school_id": school["id"],
            "teacher_id": teacher["id"],
            "grade_id": teacher["grade_id"],
        },
        token,
    )
    _api(
        app,
        "/Parent/user/Add_Child_Allergicingredients",
        {"child_id": child["id"], "allergies": []},
        token,
    )
    return token


def _api(app: AppServer, path: str, body: dict, token: str | None = None):
    headers = {**API_HEADERS, **({"token": token} if token else {})}
    answer = httpx.post(
        f"{app.base_url}/api/v1{path}", content=json.dumps(body), headers=headers, timeout=30
    ).json()
    assert answer["code"] == 1, answer
    return answer["data"]


def _in_french(page: Page) -> None:
    page.add_init_script("window.localStorage.setItem('lang', 'fr')")


def test_a_french_page_says_so_to_the_browser(page: Page):
    _in_french(page)
    open_page(page, "/sign-in")
    expect(page.locator("html")).to_have_attribute("lang", "fr-CA")
    expect(page).to_have_title("Connexion — Hot Meals")
    page.locator("#lang-switch").first.click()
    expect(page.locator("html")).to_have_attribute("lang", "en-CA")
    expect(page).to_have_title("Log in — Hot Meals")


def test_toasts_speak_french_leave_the_header_alone_and_do_not_contradict(
    page: Page, app: AppServer, smtp: SmtpServer
):
    token = _complete_parent(app, smtp)
    page.context.add_cookies([{"name": "hm_token", "value": token, "url": app.base_url}])
    _in_french(page)
    open_page(page, "/edit-profile")
    # Settings > Manage notification > Save: a success toast, in French.
    page.locator("#step-6").click()
    page.click("#settings-notifications")
    page.click("#notifications-save")
    toast = page.locator("[data-sonner-toast]")
    expect(toast).to_have_count(1)
    expect(toast.locator("button[data-close-button]")).to_have_attribute(
        "aria-label", "Fermer le message"
    )
    # Once it has slid in, it sits below the header, which stays visible.
    page.wait_for_function(
        """() => {
            const toast = document.querySelector('[data-sonner-toast][data-mounted=true]');
            const header = document.querySelector('header');
            return toast && header
                && toast.getBoundingClientRect().top >= header.getBoundingClientRect().bottom;
        }"""
    )
    # A success clears what the screen said before it. (The toast lies over the step pills
    # for its 5 s: the keyboard reaches them.)
    page.locator("#step-6").focus()
    page.keyboard.press("Enter")
    page.locator("label[for=lang-en]").click()
    expect(page.get_by_text("Language updated")).to_be_visible()
    expect(toast).to_have_count(1)


def test_a_picture_of_another_type_is_refused_in_french_and_the_refusal_leaves_with_the_screen(
    page: Page, app: AppServer, smtp: SmtpServer
):
    token = _complete_parent(app, smtp)
    page.context.add_cookies([{"name": "hm_token", "value": token, "url": app.base_url}])
    _in_french(page)
    open_page(page, "/edit-profile/parent-edit-profile")
    page.locator("#profile-picture input[type=file]").set_input_files(
        {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"not a picture"}
    )
    refusal = page.locator("[data-sonner-toast]", has_text="Veuillez choisir une photo PNG")
    expect(refusal).to_be_visible()
    # The pointer rests on the toast, which holds its own 5 s countdown (the library pauses
    # it): only leaving the screen can close it. The parent leaves by keyboard.
    refusal.hover()
    page.locator("a[href$='/edit-profile']").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/parent/edit-profile/?$"))
    expect(refusal).to_have_count(0)


@pytest.mark.parametrize(
    ("path", "heading"),
    [
        ("/about", "À propos de nous"),
        ("/terms", "Conditions d'utilisation"),
        ("/privacy", "Politique de confidentialité"),
        ("/faq", "FAQ"),
    ],
)
def test_about_terms_privacy_and_faq_have_addresses(page: Page, path: str, heading: str):
    from tests.e2e.test_accessibility import serious_violations

    _in_french(page)
    open_page(page, path)
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    if path == "/faq":
        expect(page.locator("#public-content details").first).to_be_visible()
    else:
        expect(page.locator("#public-content .hm-prose")).not_to_be_empty()
    assert serious_violations(page) == []
