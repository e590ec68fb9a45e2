"""WCAG 2.1 AA checks with axe-core (npm, injected through Playwright): no serious or critical
violation on the screens parents see, at 1280 and 390 px, in English and French."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.helpers import open_page

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
VISITOR_PATHS = ["/", "/sign-in", "/sign-up", "/sign-in-with-phone"]
PARENT_PATHS = [
    "/edit-profile",
    "/edit-profile/parent-edit-profile",
    "/edit-profile/edit-child",
    "/add-another-child",
    "/edit-profile/donate-payment",
]


def serious_violations(page: Page) -> list[dict]:
    if not AXE.exists():
        pytest.fail("axe-core is missing: run `make e2e-tools` (npm ci in tests/e2e)")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """async () => await axe.run(document, {
            runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']},
        })"""
    )
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "targets": [n["target"] for n in v["nodes"]][:5],
        }
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def _check(page: Page, path: str, lang: str) -> list[dict]:
    page.add_init_script(f"window.localStorage.setItem('lang', '{lang}')")
    open_page(page, path)
    page.wait_for_timeout(300)  # let late-rendered parts (selects, dialogs) settle
    return serious_violations(page)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_visitor_screens_have_no_serious_axe_violation(page: Page, lang: str):
    found = {p: v for p in VISITOR_PATHS if (v := _check(page, p, lang))}
    assert not found, json.dumps(found, indent=1)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_parent_screens_have_no_serious_axe_violation(page: Page, parent_cookie: dict, lang):
    page.context.add_cookies([parent_cookie])
    found = {p: v for p in PARENT_PATHS if (v := _check(page, p, lang))}
    assert not found, json.dumps(found, indent=1)
