"""The page shell in Chromium at 390 px, in English and in French (the ``lang`` fixture): what the
header, dialogs and links say to a keyboard and a screen reader, and where a signed-in parent
who opens /sign-in or /sign-up goes; the page's language, its title and its toasts; About,
Terms, Privacy and FAQ at their own addresses."""

from __future__ import annotations

import json
import re
import uuid

import httpx
import pytest
from playwright.sync_api import Page, expect

from hotmeals.db import seed_pages_en, seed_pages_fr
from tests.e2e.helpers import msg, open_page, use_language, wait_hydrated
from tests.e2e.server import AppServer
from tests.e2e.smtp import SmtpServer

PASSWORD = "Lunch@2026"
API_HEADERS = {"api-key": "hotmeals-dev-key", "app": "P", "content-type": "text/plain"}


@pytest.fixture
def viewport() -> str:
    return "phone"


def test_signed_in_visits_to_sign_in_and_sign_up_go_on(page: Page, parent_cookie, lang: str):
    page.context.add_cookies([parent_cookie])
    use_language(page, lang)
    page.goto("/parent/sign-in?next=/edit-profile/parent-edit-profile")
    page.wait_for_url(re.compile(r"/parent/edit-profile/parent-edit-profile/?$"))
    wait_hydrated(page)
    expect(page).to_have_title(msg("title.parent_edit_profile", lang))
    for path in ("/sign-up", "/sign-in-with-phone"):
        page.goto(f"/parent{path}")
        page.wait_for_url(re.compile(r"/parent/?$"))  # the parent home
        wait_hydrated(page)
        expect(page).to_have_title(msg("title.landing", lang))


def test_header_names_and_focus_back_from_dialogs(page: Page, parent_cookie, lang: str):
    """The cart has a name that says what and how many; focus returns to what
    opened the logout and delete dialogs."""
    page.context.add_cookies([parent_cookie])
    use_language(page, lang)
    open_page(page, "/edit-profile")
    # The meals to cancel (shown only when there are some) are named and pictured apart from
    # the cart in test_parent_trips.py.
    cart = page.locator("#header-cart")
    items = f"({msg('ui.header.items.one', lang)}|{msg('ui.header.items.other', lang)})"
    name = re.compile(rf"^{re.escape(msg('ui.header.cart_name', lang))}, \d+ {items}$")
    expect(cart).to_have_accessible_name(name)

    # Logout, from the account menu, by keyboard: Escape closes the dialog.
    page.locator("#profile-menu").focus()
    page.keyboard.press("Enter")
    page.get_by_role("button", name=msg("ui.header.logout", lang), exact=True).press("Enter")
    dialog = page.get_by_role("alertdialog")
    expect(dialog.get_by_role("heading")).to_have_text(msg("ui.logout.title", lang))
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(page.locator("#profile-menu")).to_be_focused()
    # Delete a child: Cancel puts the focus back on that child's Delete button.
    delete = page.get_by_role(
        "button", name=re.compile("^" + re.escape(msg("ui.common.delete", lang)) + " ")
    ).first
    delete.click()
    expect(dialog.get_by_role("heading")).to_have_text(msg("ui.child.delete_title", lang))
    dialog.get_by_role("button", name=msg("ui.common.cancel", lang)).click()
    expect(dialog).to_have_count(0)
    expect(delete).to_be_focused()


def test_visitor_links_are_one_element_and_the_terms_give_focus_back(page: Page, lang: str):
    """Sign up, Login, Get started and I have an account are one link each; the landing
    picture speaks the page's language; the terms dialog gives the focus back."""
    use_language(page, lang)
    open_page(page, "/")
    expect(page).to_have_title(msg("title.landing", lang))
    for key in ("landing.cta_start", "landing.cta_login", "nav.login", "nav.sign_up"):
        # (Sign up is in the header from 520 px; at 390 px the menu has it.)
        control = page.get_by_role(
            "link", name=msg(key, lang), exact=True, include_hidden=key == "nav.sign_up"
        )
        expect(control).to_have_count(1)
        expect(control.locator("button")).to_have_count(0)
    expect(page.locator("a button, button a")).to_have_count(0)
    # The brand links home, named in the page's language.
    home = page.locator("header").get_by_role("link", name=msg("ui.brand.home", lang), exact=True)
    expect(home).to_have_count(1)
    # The picture: no English word drawn in it, its text in the page's language.
    expect(page.get_by_role("img", name=msg("landing.hero_image_alt", lang))).to_be_visible()

    open_page(page, "/sign-up")
    opener = page.get_by_role("button", name=msg("ui.signup.read_terms", lang))
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(opener).to_be_focused()


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
    expect(page).to_have_title(msg("title.sign_in", "fr"))
    page.locator("#lang-switch").first.click()
    expect(page.locator("html")).to_have_attribute("lang", "en-CA")
    expect(page).to_have_title(msg("title.sign_in", "en"))


def test_toasts_speak_the_page_s_language_leave_the_header_alone_and_do_not_contradict(
    page: Page, app: AppServer, smtp: SmtpServer, lang: str
):
    token = _complete_parent(app, smtp)
    page.context.add_cookies([{"name": "hm_token", "value": token, "url": app.base_url}])
    use_language(page, lang)

    # A picture of another type is refused in the page's language (not the library's English),
    # and the refusal leaves with the screen.
    open_page(page, "/edit-profile/parent-edit-profile")
    page.locator("#profile-picture input[type=file]").set_input_files(
        {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"not a picture"}
    )
    refusal = page.locator("[data-sonner-toast]", has_text=msg("image_type_invalid", lang))
    expect(refusal).to_be_visible()
    # The pointer rests on the toast, which holds its own 5 s countdown (the library pauses
    # it): only leaving the screen can close it. The parent leaves by keyboard.
    refusal.hover()
    page.locator("a[href$='/edit-profile']").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/parent/edit-profile/?$"))
    expect(refusal).to_have_count(0)

    # Settings > Manage notification > Save: a success toast, in the page's language.
    page.locator("#step-6").click()
    page.click("#settings-notifications")
    page.click("#notifications-save")
    toast = page.locator("[data-sonner-toast]")
    expect(toast).to_have_count(1)
    expect(toast).to_contain_text(msg("notifications_updated", lang))
    expect(toast.locator("button[data-close-button]")).to_have_attribute(
        "aria-label", msg("ui.toast.close", lang)
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
    other = "en" if lang == "fr" else "fr"
    page.locator(f"label[for=lang-{other}]").click()
    expect(page.get_by_text(msg("language_updated", other))).to_be_visible()
    expect(toast).to_have_count(1)


def test_about_terms_privacy_and_faq_have_addresses(page: Page, lang: str):
    """Each at its own address, titled and headed in the page's language (the terms page has
    one name: the tab, the heading and the footer agree), with no serious axe violation."""
    from tests.e2e.test_accessibility import serious_violations

    use_language(page, lang)
    cms = (seed_pages_en if lang == "en" else seed_pages_fr).PAGES
    for slug in ("about", "terms", "privacy", "faq"):
        open_page(page, f"/{slug}")
        expect(page).to_have_title(msg(f"title.{slug}", lang))
        heading = msg("ui.faq.title", lang) if slug == "faq" else cms[slug][0]
        expect(page.get_by_role("heading", level=1)).to_have_text(heading)
        if slug == "faq":
            expect(page.locator("#public-content details").first).to_be_visible()
        else:
            expect(page.locator("#public-content .hm-prose")).not_to_be_empty()
        assert serious_violations(page) == [], slug
    if lang == "fr":  # one name for the terms: "Conditions d'utilisation" everywhere
        terms = msg("footer.terms", lang)
        assert msg("title.terms", lang).startswith(terms) and cms["terms"][0] == terms
        expect(page.locator("footer")).to_contain_text(terms)
        expect(page.locator("body")).not_to_contain_text("Conditions générales")
