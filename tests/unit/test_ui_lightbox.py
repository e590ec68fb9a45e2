"""The Lightbox handshake every paying state shares (``ui/shared_state/lightbox.py``), without a
browser: only the Lightbox this tab opened is settled, once; a callback the browser sends
with no Lightbox open (forged, or repeated) settles nothing and says nothing. The paying
screens themselves run in tests/e2e/test_payments.py, test_checkout_flow.py and
test_order_changes_flow.py."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from hotmeals.services.payment_outcome import Settled
from hotmeals.ui.screens.donate_payment import state as donate_state
from hotmeals.ui.screens.donate_payment.state import DonateState
from hotmeals.ui.screens.payment_methods import state as cards_state
from hotmeals.ui.screens.payment_methods.state import CardsState
from hotmeals.ui.shared_state.lightbox import lightbox_result
from tests.unit.test_ui_orders_state import (  # noqa: F401
    _placed_order,
    _run,
    _signed_in,
    background,
    database,
    sqlite_only,
)

APPROVAL = {"outcome": "approval", "txn_id": "123456", "token": "tok", "message": ""}


def test_the_browsers_answer_is_read_as_bounded_strings() -> None:
    assert lightbox_result(None) == {"outcome": "", "txn_id": "", "token": "", "message": ""}
    read = lightbox_result({"outcome": "approval", "txn_id": 7, "message": "x" * 500})
    assert read["txn_id"] == "7" and len(read["message"]) == 200 and read["token"] == ""


@sqlite_only
def test_only_the_lightbox_this_tab_opened_is_settled_once(
    database: Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settled: list[int] = []

    async def settle_lightbox(**kwargs):
        settled.append(kwargs["payment_id"])
        return Settled("declined", "Declined")

    async def settle_card_lightbox(**kwargs):
        settled.append(-1)
        return Settled("declined", "Declined")

    monkeypatch.setattr(donate_state, "settle_lightbox", settle_lightbox)
    monkeypatch.setattr(cards_state, "settle_card_lightbox", settle_card_lightbox)

    async def scenario():
        parent_id, _, _ = _placed_order("HM-LB-0001")
        root = await _signed_in(parent_id)
        donate = await root.get_state(DonateState)
        cards = await root.get_state(CardsState)

        # No Lightbox open on this tab: a forged approval settles nothing, says nothing.
        for state in (donate, cards):
            said = await _run(background(state, "lightbox_closed", APPROVAL))
            assert said == [] and settled == []
            assert not state.busy and state.status == "" and state.turn == 1

        # The tab's own Lightbox: settled once; the same answer again finds nothing.
        donate.busy, donate._lightbox_open, donate._payment_id = True, True, 42
        await _run(background(donate, "lightbox_closed", APPROVAL))
        assert settled == [42] and not donate.busy and donate.status == "declined"
        await _run(background(donate, "lightbox_closed", APPROVAL))
        assert settled == [42]

    asyncio.run(scenario())
