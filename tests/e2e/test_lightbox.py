"""The stand-in Lightbox (PayWithConverge.js) in the browser tests' Chromium (``browser``,
tests/e2e/conftest.py), against the simulator served over HTTP (``sim``, tests/conftest.py): its
own test page, no app server."""

from __future__ import annotations

import json
from typing import Any

from hotmeals.converge.configured import simulator_pin
from tests.payments_support import DECLINED_CARD, NOT_LUHN, VISA, SimServer


def session_token(sim: SimServer, cents: str = "12.50", invoice: str = "HM-3001") -> str:
    form = {
        "ssl_merchant_id": "000000",
        "ssl_user_id": "hotmeals",
        "ssl_pin": simulator_pin(),
        "ssl_transaction_type": "ccsale",
        "ssl_amount": cents,
        "ssl_invoice_number": invoice,
    }
    return sim.http.post(sim.settings.session_token_url, data=form).text


def open_lightbox(browser: Any, sim: SimServer, width: int = 1280) -> Any:
    page = browser.new_page(viewport={"width": width, "height": 800})
    page.goto(f"{sim.url}/_sim/lightbox?token={session_token(sim)}")
    page.click("#open")
    page.wait_for_selector("#pwc-dialog")
    return page


def callback(page: Any) -> dict[str, Any]:
    page.wait_for_function("document.getElementById('result').textContent.length > 0")
    result: dict[str, Any] = json.loads(page.text_content("#result"))
    return result


def test_payer_pays_with_the_keyboard_only(browser: Any, sim: SimServer) -> None:
    page = open_lightbox(browser, sim)
    dialog = page.locator("#pwc-dialog")
    assert dialog.get_attribute("role") == "dialog"
    assert dialog.get_attribute("aria-modal") == "true"
    assert "$12.50" in page.text_content("#pwc-summary")
    assert page.evaluate("document.activeElement.id") == "pwc-card-number"
    page.keyboard.type(VISA)
    page.keyboard.press("Tab")
    page.keyboard.type("1230")
    page.keyboard.press("Tab")
    page.keyboard.type("123")
    page.keyboard.press("Enter")
    result = callback(page)
    assert result["callback"] == "approval"
    assert result["data"]["ssl_result"] == "0"
    assert result["data"]["ssl_card_number"] == "40**********0002"
    assert result["data"]["ssl_invoice_number"] == "HM-3001"
    assert page.locator("#pwc-dialog").count() == 0
    assert page.evaluate("document.activeElement.id") == "open"
    [txn] = sim.get("transactions")
    assert (txn["amount_cents"], txn["txn_id"]) == (1250, result["data"]["ssl_txn_id"])
    page.close()


def test_escape_cancels_and_focus_stays_inside_while_open(browser: Any, sim: SimServer) -> None:
    page = open_lightbox(browser, sim)
    page.keyboard.press("Shift+Tab")  # from the first field, wraps to the last button
    assert page.evaluate("document.activeElement.id") == "pwc-pay"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "pwc-card-number"
    page.keyboard.press("Escape")
    assert callback(page) == {"callback": "cancelled", "data": None}
    assert sim.get("transactions") == []
    page.close()


def test_typo_is_shown_in_place_on_a_phone(browser: Any, sim: SimServer) -> None:
    page = open_lightbox(browser, sim, width=390)
    box = page.locator("#pwc-dialog").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.fill("#pwc-card-number", NOT_LUHN)
    page.fill("#pwc-exp-date", "1230")
    page.click("#pwc-pay")
    assert page.locator("#pwc-card-number").get_attribute("aria-invalid") == "true"
    assert page.text_content("#pwc-error")
    assert page.text_content("#result") == ""
    page.fill("#pwc-card-number", "4000 0000 0000 0002")
    page.click("#pwc-pay")
    assert callback(page)["callback"] == "approval"
    page.close()


def test_declined_card_calls_on_declined(browser: Any, sim: SimServer) -> None:
    page = open_lightbox(browser, sim)
    page.fill("#pwc-card-number", DECLINED_CARD)
    page.fill("#pwc-exp-date", "12/30")
    page.click("#pwc-pay")
    result = callback(page)
    assert result["callback"] == "declined"
    assert result["data"]["ssl_result"] == "1"
    page.close()


def test_expired_session_calls_on_error_without_opening(browser: Any, sim: SimServer) -> None:
    token = session_token(sim)
    page = browser.new_page()
    page.goto(f"{sim.url}/_sim/lightbox?token={token}")
    sim.clock.advance(minutes=16)
    page.click("#open")
    result = callback(page)
    assert result["callback"] == "error"
    assert result["data"]["errorCode"] == "4017"
    assert page.locator("#pwc-dialog").count() == 0
    page.close()
