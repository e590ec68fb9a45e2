"""The order summary's payment choice (one Pay on the summary): the card a payment
starts with is the parent's default saved card (the one saved last, not expired), a pick of
their own holds while it is still theirs, and the summary's choice lists only the acting
parent's cards."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
import reflex as rx

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import Parent, StoredCard
from hotmeals.services.cards import CardView, default_card
from hotmeals.services.parents import start_session
from hotmeals.ui.screens.payment.state import CheckoutState
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.card_choice import NEW_CARD, preselected
from tests.databases import app_database
from tests.factories import make_child, make_parent


def _card(card_id: int, expiry: str) -> CardView:
    return CardView(
        id=card_id, brand="VISA", masked="40**0002", last4="0002", expiry=expiry, created_at=""
    )


def test_the_default_card_is_the_one_saved_last_that_has_not_expired() -> None:
    today = date(2026, 11, 26)
    assert default_card([], today) is None
    assert default_card([_card(3, "12/30"), _card(7, "01/29")], today).id == 7
    # Expired last month: the older valid card; this month's expiry still pays.
    assert default_card([_card(3, "12/30"), _card(7, "10/26")], today).id == 3
    assert default_card([_card(3, "12/30"), _card(7, "11/26")], today).id == 7
    assert default_card([_card(7, "10/26")], today) is None
    # No expiry known: counted as valid.
    assert default_card([_card(3, "12/30"), _card(9, "")], today).id == 9


def test_the_parents_own_pick_holds_while_it_is_theirs() -> None:
    ids = ["3", "7"]
    assert preselected(NEW_CARD, False, ids, "7") == "7"  # nothing picked: the default
    assert preselected(NEW_CARD, False, [], "") == NEW_CARD  # no card: a new one
    assert preselected(NEW_CARD, True, ids, "7") == NEW_CARD  # "new card" picked
    assert preselected("3", True, ids, "7") == "3"
    assert preselected("3", True, ["7"], "7") == "7"  # the picked card was deleted
    assert preselected("99", True, ids, "") == NEW_CARD  # not one of the parent's
    assert preselected("3", False, ids, "") == NEW_CARD  # no default (all expired)


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Iterator[Path]:
    with app_database("sqlite", tmp_path_factory.mktemp("ui-checkout-choice"), "created") as f:
        yield f


async def _run(result) -> list:
    if hasattr(result, "__aiter__"):
        return [event async for event in result]
    value = await result if asyncio.iscoroutine(result) else result
    return [] if value is None else [value]


async def _checkout(parent_id: int) -> CheckoutState:
    with session_scope() as session:
        token = start_session(session, session.get(Parent, parent_id), "tests")
    root = rx.State(_reflex_internal_init=True)
    auth = await root.get_state(AuthState)
    auth.token = token
    await _run(auth.require_parent())
    return await root.get_state(CheckoutState)


def test_the_summary_starts_with_the_default_card_and_keeps_a_pick(database: Path) -> None:
    year = clock.today().year % 100
    with session_scope() as s:
        parent = make_parent(s)
        make_child(s, parent, is_default=True)
        other = make_parent(s, first_name="Eve", last_name="Other")
        cards = [
            StoredCard(parent_id=parent.id, converge_token="tok1", masked="40**1111",
                       brand="VISA", exp_month=12, exp_year=2000 + year + 3),
            StoredCard(parent_id=parent.id, converge_token="tok2", masked="51**2222",
                       brand="MC", exp_month=12, exp_year=2000 + year + 2),
            StoredCard(parent_id=other.id, converge_token="tok3", masked="40**3333",
                       brand="VISA", exp_month=12, exp_year=2000 + year + 4),
        ]  # fmt: skip
        s.add_all(cards)
        s.flush()
        first, second, foreign = (str(c.id) for c in cards)
        parent_id = parent.id

    async def scenario() -> None:
        state = await _checkout(parent_id)
        await _run(state.load_choice())
        assert [c["id"] for c in state.cards] == [first, second]  # not the other parent's
        assert state.card_choice == second  # saved last
        assert state.loaded and state.total == ""  # the summary prices the cart itself
        await _run(state.set_card_choice(NEW_CARD))
        await _run(state.load_choice())
        assert state.card_choice == NEW_CARD  # the parent's pick holds
        await _run(state.set_card_choice(foreign))
        await _run(state.load_choice())
        assert state.card_choice == second  # another parent's card is never kept

    asyncio.run(scenario())
