"""The cart and order-summary states without a browser: the acting parent's own cart
grouped by child and date, a quantity change and a removal; an attacker with a session of their
own who sends the victim's cart line ids changes nothing and sees nothing; a browser without a
session gets nothing; a refused promo code says why and the stored code is checked again."""

from __future__ import annotations

import asyncio
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
import reflex as rx
from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import CartLine, MenuDay, Parent, Vendor
from hotmeals.domain.cutoff import TORONTO, cutoff_at
from hotmeals.services.ordering.cart import add_to_cart
from hotmeals.services.ordering.days import cutoff_rule
from hotmeals.services.parents import start_session
from hotmeals.services.promos import UsablePromo
from hotmeals.ui.screens.cart.state import CartState, promo_view
from hotmeals.ui.shared_state.auth import AuthState
from tests.factories import (
    make_child,
    make_meal,
    make_menu_day,
    make_parent,
    make_school,
    make_vendor,
)

DEMO_EMAIL = "parent@example.com"


# A Monday, 7 a.m. in Toronto: each test that fills a cart sets the clock here and makes its
# own school, vendor and menu days, so no test hopes that today's date finds them in the seed.
MONDAY = datetime(2026, 3, 2, 7, 0, tzinfo=TORONTO)
DAYS = (date(2026, 3, 4), date(2026, 3, 6))  # the Wednesday and Friday of that week


def _fill_cart() -> tuple[int, list[int]]:
    """A parent of two children at a school of their own, with two lines each: one on each of
    ``DAYS`` (a vendor whose orders close at 17:00 the day before), the clock at ``MONDAY``."""
    clock.set_now(MONDAY)
    with session_scope() as s:
        parent = make_parent(s, first_name="Claire")
        school = make_school(s)
        kids = [
            make_child(s, parent, school=school, first_name=name, is_default=first)
            for name, first in (("Mia", True), ("Noah", False))
        ]
        vendor = make_vendor(s, cutoff_days_before=1, cutoff_time="17:00")
        meal = make_meal(s, vendor)
        menus = [make_menu_day(s, school, vendor, day, [meal]) for day in DAYS]
        ids = [
            add_to_cart(
                session=s,
                parent_id=parent.id,
                child_id=child.id,
                meal_id=meal.id,
                menu_day_id=menu.id,
            ).cart_id
            for child in kids
            for menu in menus
        ]
        return parent.id, ids


def _cutoff_of(parent_id: int, day: date) -> datetime:
    """When the parent's cart lines on ``day`` (the cart's first date) stop being payable."""
    with session_scope() as s:
        menus = s.exec(
            select(MenuDay)
            .join(CartLine, CartLine.menu_day_id == MenuDay.id)
            .where(CartLine.parent_id == parent_id, MenuDay.meal_date == day)
        ).all()
        return max(cutoff_at(cutoff_rule(s.get(Vendor, m.vendor_id)), day) for m in menus)


async def _run(result) -> list:
    if hasattr(result, "__aiter__"):
        return [event async for event in result]
    value = await result if asyncio.iscoroutine(result) else result
    return [] if value is None else [value]


async def _signed_in(parent_id: int) -> rx.State:
    with session_scope() as session:
        token = start_session(session, session.get(Parent, parent_id), "tests")
    root = rx.State(_reflex_internal_init=True)
    auth = await root.get_state(AuthState)
    auth.token = token
    await _run(auth.require_parent())
    return root


def _quantities(ids: list[int]) -> dict[int, int]:
    with session_scope() as s:
        rows = s.exec(select(CartLine).where(CartLine.id.in_(ids))).all()
        return {r.id: r.quantity for r in rows}


def test_the_parent_sees_changes_and_removes_own_lines(database: Path) -> None:
    async def scenario():
        parent_id, ids = _fill_cart()
        assert len(ids) == 4
        root = await _signed_in(parent_id)
        cart = await root.get_state(CartState)
        await _run(cart.load_cart())
        assert cart.line_count == 4 and len(cart.groups) >= 2
        assert {line.cart_id for g in cart.groups for line in g.lines} == {str(i) for i in ids}
        auth = await root.get_state(AuthState)
        assert auth.shown_cart_count == 4

        await _run(cart.change_quantity(str(ids[0]), 1))
        assert _quantities([ids[0]]) == {ids[0]: 2}
        await _run(cart.change_quantity(str(ids[0]), -1))
        await _run(cart.change_quantity(str(ids[0]), -1))  # not below 1
        assert _quantities([ids[0]]) == {ids[0]: 1}

        await _run(cart.ask_delete(str(ids[3])))
        assert cart.delete_open
        await _run(cart.confirm_delete())
        assert ids[3] not in _quantities(ids)
        assert cart.line_count == 3 and auth.shown_cart_count == 3

        await _run(cart.load_summary())
        await _run(cart.set_promo_input("NOSUCHCODE"))
        await _run(cart.apply_promo())
        assert cart.promo_error == "This promo code does not exist" and cart.promo_code == ""
        await _run(cart.use_promo("welcome10"))
        assert cart.promo_code == "WELCOME10" and cart.charges["discount"].startswith("−$")
        # A stored code that no longer holds is dropped, saying why.
        cart.promo_code = "EXPIREDORFORGED"
        await _run(cart.load_summary())
        assert cart.promo_code == "" and cart.promo_error

    asyncio.run(scenario())


def test_another_parents_line_ids_change_and_show_nothing(database: Path) -> None:
    async def scenario():
        victim_id, ids = _fill_cart()
        before = _quantities(ids)
        with session_scope() as session:
            attacker = make_parent(session, first_name="Eve", last_name="Attacker")
            make_child(session, attacker, is_default=True)
            attacker_id = attacker.id
        root = await _signed_in(attacker_id)
        cart = await root.get_state(CartState)
        await _run(cart.load_cart())
        assert cart.line_count == 0 and cart.groups == []
        for line_id in ids:
            await _run(cart.change_quantity(str(line_id), 1))
            await _run(cart.ask_delete(str(line_id)))
            assert not cart.delete_open  # not a line on this parent's screen
            cart.delete_id = str(line_id)  # even forced, the service refuses it
            await _run(cart.confirm_delete())
        assert _quantities(ids) == before

        anonymous = rx.State(_reflex_internal_init=True)
        stranger = await anonymous.get_state(CartState)
        await _run(stranger.load_cart())
        await _run(stranger.load_summary())
        assert stranger.groups == [] and not stranger.loaded
        assert victim_id != attacker_id

    asyncio.run(scenario())


def test_a_line_past_its_cutoff_is_flagged_and_the_rest_stays_payable(
    database: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario():
        parent_id, _ = _fill_cart()
        root = await _signed_in(parent_id)
        cart = await root.get_state(CartState)
        await _run(cart.load_cart())
        first_day = min(g.key.split("-", 1)[1] for g in cart.groups)
        assert cart.payable_count == cart.line_count
        # The clock moves one minute past the first day's cut-off (17:00 the day before); the
        # second day's, two days later, has not passed.
        later = _cutoff_of(parent_id, date.fromisoformat(first_day)) + timedelta(minutes=1)
        clock.set_now(later)
        await _run(cart.load_cart())
        flagged = [line for g in cart.groups if g.key.endswith(first_day) for line in g.lines]
        assert flagged and all(not line.payable for line in flagged)
        assert all("ordering deadline" in line.problems for line in flagged)
        assert cart.has_unpayable and 0 < cart.payable_count < cart.line_count
        before = _quantities([int(flagged[0].cart_id)])
        await _run(cart.change_quantity(flagged[0].cart_id, 1))
        assert _quantities([int(flagged[0].cart_id)]) == before

    asyncio.run(scenario())


def test_a_usable_promo_reads_in_the_parents_language() -> None:
    lunch = UsablePromo(
        code="LUNCH2",
        description_en="$2 off orders of $10 or more",
        description_fr="2 $ de rabais sur les commandes de 10 $ ou plus",
        percent_bps=0,
        amount_off_cents=200,
        min_order_cents=1000,
        valid_until=date(2027, 6, 30),
        personal=False,
    )
    assert promo_view(lunch, "en") == {
        "code": "LUNCH2",
        "description": "$2 off orders of $10 or more",
        "detail": "$2.00 off meals, minimum order $10.00, until Wednesday, June 30, 2027",
    }
    french = promo_view(lunch, "fr")
    assert french["description"] == "2 $ de rabais sur les commandes de 10 $ ou plus"
    assert french["detail"] == (
        "2,00\xa0$ de rabais sur les repas, commande minimale de 10,00\xa0$,"
        " jusqu'au mercredi 30 juin 2027"
    )
    tenth = UsablePromo("WELCOME10", "10 % off", "10 % de rabais", 1050, 0, 0, None, False)
    assert promo_view(tenth, "fr")["detail"] == "10,5 % de rabais sur les repas"
