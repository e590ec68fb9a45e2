"""A confirmed delivery as the parent sees it, in Chromium at 390 px in French and 1280 px in
English, axe clean: a placed order of two days at a school of its own (written by the
factories); the first day's delivery confirmed (the operator's command, its clock at that day)
shows that meal "Delivered" / "Livré" with no cancel or change action (in its details and in
Modify order) while the later one can still be cancelled; the second day confirmed, the order
is "Delivered" / "Livrée" in its details and in My orders' Past tab."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from datetime import date, timedelta

import httpx
import pytest
from playwright.sync_api import Page, expect

from hotmeals import clock
from hotmeals.db.engine import make_engine, session_scope
from tests import factories as f
from tests.e2e.helpers import BOTH_WIDTHS, msg, open_page, shot, use_language
from tests.e2e.server import ROOT, AppServer
from tests.e2e.test_accessibility import serious_violations
from tests.e2e.test_payments import API_HEADERS, logged_in


@pytest.fixture
def two_days(app: AppServer) -> dict:
    """A parent (signed in by the API) whose placed order has a meal two days ago and one in
    two weeks, at a school and vendor of their own."""
    email = f"delivered-{uuid.uuid4().hex[:8]}@example.com"
    first = clock.today() - timedelta(days=2)
    later = clock.today() + timedelta(days=14)
    engine = make_engine(f"sqlite:///{app.data_dir}/e2e.db")
    try:
        with session_scope(engine) as s:
            school = f.make_school(s, name=f"Delivered PS {uuid.uuid4().hex[:6]}")
            vendor = f.make_vendor(s, cutoff_days_before=1, cutoff_time="10:00")
            meal = f.make_meal(s, vendor, name_en="Pasta", name_fr="Pâtes")
            days = [f.make_menu_day(s, school, vendor, d, [meal]) for d in (first, later)]
            parent = f.make_parent(s, email=email, first_name="Dana", last_name="Delivered")
            child = f.make_child(s, parent, school=school, first_name="Emma", is_default=True)
            placed = clock.now() - timedelta(days=10)  # ordered before its first day
            order = f.make_placed_order(
                s, parent, [(child, day, meal) for day in days], placed_at=placed
            )
            made = {
                "school": str(school.id),
                "order_id": int(order.id or 0),
                "number": order.number,
                "first": first,
                "later": later,
            }
    finally:
        engine.dispose()
    answer = httpx.post(
        f"{app.base_url}/api/v1/Parent/auth/Login",
        content=json.dumps({"email": email, "password": f.DEFAULT_PASSWORD}),
        headers=API_HEADERS,
        timeout=30,
    ).json()
    assert answer["code"] == 1, answer
    return {**made, "token": answer["data"]["token"]}


def _confirm(app: AppServer, school: str, day: date) -> None:
    """The school's word on the day, through the operator's command, its clock at that day
    (``HOTMEALS_NOW``: the command's, not the server's)."""
    env = {**app.env, "HOTMEALS_NOW": str(day)}
    env.pop("HOTMEALS_NOW_SINCE", None)
    done = subprocess.run(
        [sys.executable, "-m", "hotmeals.admin", "confirm-delivery", "--school", school]
        + ["--date", day.isoformat()],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "1 meal delivered" in done.stdout, done.stdout


def _axe_clean(page: Page) -> None:
    found = serious_violations(page)
    assert not found, json.dumps(found, indent=1)


@BOTH_WIDTHS
def test_delivered_meals_and_orders_are_shown_delivered(
    page: Page, app: AppServer, two_days: dict, lang: str
) -> None:
    use_language(page, lang)
    logged_in(page, app, two_days)
    details = f"/edit-profile/order-details?id={two_days['order_id']}"

    _confirm(app, two_days["school"], two_days["first"])
    open_page(page, details)
    lines = page.locator(".hm-order-line")
    expect(lines).to_have_count(2)
    delivered, later = lines.nth(0), lines.nth(1)
    expect(delivered).to_have_attribute("data-state", "delivered")
    expect(delivered.locator(".hm-line-state")).to_have_text(
        msg("orders_after.line_delivered", lang)
    )
    expect(delivered.locator(".hm-add-cancel")).to_have_count(0)
    expect(delivered.locator(".hm-manage-meal")).to_have_count(0)
    expect(delivered.locator(".hm-closed")).to_have_count(0)
    expect(later).to_have_attribute("data-state", "active")
    expect(later.locator(".hm-add-cancel")).to_be_visible()
    expect(page.locator("#order-status")).to_have_text(msg("orderpay.status_placed", lang))
    shot(page, f"delivered-first-day-{lang}")
    _axe_clean(page)
    # Modify order keeps the delivered meal as it is: its badge, no Remove.
    open_page(page, f"/edit-profile/modify-order?id={two_days['order_id']}")
    kept, open_ = page.locator("[data-line]").nth(0), page.locator("[data-line]").nth(1)
    expect(kept).to_contain_text(msg("orders_after.line_delivered", lang))
    expect(kept).to_contain_text(f"{msg('ui.change.quantity', lang)} 1 ")  # as handed out
    expect(kept.locator("[id^='remove-line-']")).to_have_count(0)
    expect(open_.locator("[id^='remove-line-']")).to_be_visible()
    shot(page, f"delivered-modify-{lang}")

    _confirm(app, two_days["school"], two_days["later"])
    open_page(page, details)
    expect(page.locator('.hm-order-line[data-state="delivered"]')).to_have_count(2)
    expect(page.locator("#order-status")).to_have_text(msg("orderpay.status_delivered", lang))
    expect(page.locator(".hm-add-cancel")).to_have_count(0)
    expect(page.locator("#modify-order")).to_have_count(0)
    expect(page.locator("#cancel-order")).to_have_count(0)
    shot(page, f"delivered-order-{lang}")
    _axe_clean(page)

    open_page(page, "/edit-profile/order-history?tab=past")
    card = page.locator(f'.hm-order-card[data-order-id="{two_days["order_id"]}"]')
    expect(card).to_contain_text(two_days["number"])
    expect(card.locator(".hm-order-status")).to_have_text(msg("orderpay.status_delivered", lang))
    shot(page, f"delivered-history-{lang}")
    _axe_clean(page)
