"""The family credit screen in Chromium, in the suite's language variant (390 px in French or
1280 px in English): the balance and the movements from the ledger, and the refund choice saved
once (the busy button), said in the page's language and kept on the account."""

from __future__ import annotations

import json
import uuid

import httpx
import pytest
from playwright.sync_api import Page, expect

from hotmeals.db.engine import make_engine, session_scope
from hotmeals.domain.credit import CreditKind
from hotmeals.services import credit
from tests.e2e.helpers import msg, open_page, use_language
from tests.e2e.server import AppServer
from tests.e2e.test_payments import API_HEADERS, db_rows, logged_in
from tests.factories import DEFAULT_PASSWORD, make_child, make_parent


@pytest.fixture  # one per test: each variant changes the refund choice
def family(app: AppServer) -> dict:
    """A parent with $12.50 refunded to credit and $4.00 of it spent, signed in by the API."""
    email = f"credit-{uuid.uuid4().hex[:8]}@example.com"
    engine = make_engine(f"sqlite:///{app.data_dir}/e2e.db")
    try:
        with session_scope(engine) as session:
            parent = make_parent(session, email=email, first_name="Cam", last_name="Credit")
            make_child(session, parent, is_default=True)
            parent_id = int(parent.id or 0)
            credit.record(session, parent_id, CreditKind.REFUND, 1250, key="e2e-refund")
            credit.record(session, parent_id, CreditKind.SPEND, 400, key="e2e-spend")
    finally:
        engine.dispose()
    answer = httpx.post(
        f"{app.base_url}/api/v1/Parent/auth/Login",
        content=json.dumps({"email": email, "password": DEFAULT_PASSWORD}),
        headers=API_HEADERS,
        timeout=30,
    ).json()
    assert answer["code"] == 1, answer
    return {"id": parent_id, "token": answer["data"]["token"]}


def money(cents: int, lang: str) -> str:
    """$8.50 (en-CA) or 8,50 $ (fr-CA, a no-break space before the sign)."""
    whole, part = divmod(cents, 100)
    return f"{whole},{part:02d}\u00a0$" if lang == "fr" else f"${whole}.{part:02d}"


def test_the_balance_its_movements_and_the_refund_choice(
    page: Page, app: AppServer, family: dict, lang: str
) -> None:
    use_language(page, lang)
    open_page(logged_in(page, app, family), "/edit-profile/family-credit")
    expect(page.get_by_role("heading", level=1)).to_have_text(msg("credit_ui.title", lang))
    expect(page.locator("#credit-balance")).to_have_text(money(850, lang))
    expect(page.locator(".hm-credit-move")).to_have_count(2)
    expect(page.locator("#refund-to-card")).to_be_checked()

    page.locator("label[for='refund-to-credit']").click()
    page.click("#refund-choice-save")
    saved = page.locator("[data-sonner-toast][data-type='success']")
    expect(saved).to_contain_text(msg("credit_ui.saved", lang))
    chosen = "SELECT refund_to FROM familychoice WHERE parent_id = ?"
    assert db_rows(app, chosen, family["id"]) == [("credit",)]

    page.reload()
    expect(page.locator("#refund-to-credit")).to_be_checked()
