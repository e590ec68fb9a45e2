"""The order history, order details and cancel cart states without a browser: the
acting parent's own order in the history and the details, one meal into the cancel cart (the
header's count and its stored copy follow), a quantity and a removal; another parent with a
session of their own who sends the victim's order id, line id or cancel-cart id sees and
changes nothing; a browser without a session gets nothing; a line whose cut-off passed while
the screen was open is refused with the service's message. The refunds themselves (Converge)
are covered by tests/integration/test_cancellations.py and tests/e2e/test_orders_cancel.py.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import ClassVar

import pytest
import reflex as rx
from reflex.istate.data import ReflexURL
from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import (
    CancelCartLine,
    Child,
    MenuDay,
    MenuDayMeal,
    Order,
    OrderCancellation,
    OrderLine,
    Parent,
)
from hotmeals.demo.closure import DEMO_CLOSURE_MARK
from hotmeals.demo.seed import DEMO_ORDER_MARK
from hotmeals.domain.errors import DomainError
from hotmeals.services.ordering import queries as order_service
from hotmeals.services.ordering.cancelling import cancel_order
from hotmeals.services.parents import start_session
from hotmeals.ui.screens.cancel_cart.state import CancelCartState
from hotmeals.ui.screens.order_history.state import OrderDetailState, OrderHistoryState
from hotmeals.ui.shared_state.auth import AuthState
from tests.databases import BACKENDS, app_database
from tests.factories import make_child, make_parent, portion_of

DEMO_EMAIL = "parent@example.com"


# SQLite and PostgreSQL (a confirm tapped twice, or in two tabs, at once runs
# once, whatever the database's locking); the tests that only read or refuse run on SQLite
# (``sqlite_only``).
sqlite_only = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


@pytest.fixture(scope="module", params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[Path]:
    with app_database(request.param, tmp_path_factory.mktemp("ui-orders"), prefix="hm_ui") as f:
        yield f


def _placed_order(number: str) -> tuple[int, int, int]:
    """A placed order of the demo parent: one line of 2 meals a week or more ahead. (No
    payment: these tests are about who may see and touch what; refunds are tested elsewhere.)
    Returns (parent id, order id, line id)."""
    with session_scope() as s:
        parent = s.exec(select(Parent).where(Parent.email == DEMO_EMAIL)).one()
        child = s.exec(select(Child).where(Child.parent_id == parent.id).order_by(Child.id)).first()
        assert child is not None
        day = s.exec(
            select(MenuDay)
            .where(
                MenuDay.school_id == child.school_id,
                MenuDay.meal_date >= clock.today() + timedelta(days=7),
                MenuDay.is_closed.is_(False),
            )
            .order_by(MenuDay.meal_date)
        ).first()
        assert day is not None
        meal_id = s.exec(
            select(MenuDayMeal.meal_id).where(MenuDayMeal.menu_day_id == day.id)
        ).first()
        from hotmeals.db.models import Meal

        meal = s.get(Meal, meal_id)
        order = Order(
            number=number,
            parent_id=parent.id,
            status="placed",
            meal_net_cents=1300,
            total_pay_cents=1300,
            tax_bps=0,
            processing_fee_bps=0,
            processing_fee_fixed_cents=0,
            placed_at=clock.now(),
        )
        s.add(order)
        s.flush()
        line = OrderLine(
            order_id=order.id,
            child_id=child.id,
            menu_day_id=day.id,
            vendor_id=day.vendor_id,
            meal_id=meal.id,
            portion_id=portion_of(s, meal).id,
            meal_date=day.meal_date,
            meal_name=meal.name_en,
            size="small",
            quantity=2,
            price_tiers="1:650",
            unit_price_cents=650,
            line_total_cents=1300,
        )
        s.add(line)
        s.flush()
        return parent.id, order.id, line.id


async def _run(result) -> list:
    if hasattr(result, "__aiter__"):
        return [event async for event in result]
    value = await result if asyncio.iscoroutine(result) else result
    return [] if value is None else [value]


class _Proxy:
    """What Reflex hands a background handler instead of the state (``StateProxy``), as far
    as these tests need: ``async with self`` holds the state's lock (one per state), and
    every attribute is the state's."""

    locks: ClassVar[dict[int, asyncio.Lock]] = {}

    def __init__(self, state: rx.State) -> None:
        object.__setattr__(self, "_state", state)

    def __getattr__(self, name: str):
        return getattr(self._state, name)

    def __setattr__(self, name: str, value) -> None:
        setattr(self._state, name, value)

    async def __aenter__(self):
        await self.locks.setdefault(id(self._state), asyncio.Lock()).acquire()
        return self

    async def __aexit__(self, *exc_info) -> None:
        self.locks[id(self._state)].release()


def background(state: rx.State, name: str, *args):
    """A background handler's body run on a proxy of the state that holds the state's lock
    inside ``async with self``, as Reflex runs it (it refuses a direct call)."""
    handler = getattr(type(state), name)
    assert handler.is_background, name
    return handler.fn(_Proxy(state), *args)


async def _signed_in(parent_id: int | None, order_id: int = 0) -> rx.State:
    root = rx.State(_reflex_internal_init=True)
    root.router = dataclasses.replace(
        root.router,
        url=ReflexURL(f"http://localhost/parent/edit-profile/order-details?id={order_id}"),
    )
    if parent_id is not None:
        with session_scope() as session:
            token = start_session(session, session.get(Parent, parent_id), "tests")
        auth = await root.get_state(AuthState)
        auth.token = token
        await _run(auth.require_parent())
    return root


def _cart_rows(parent_id: int) -> list[tuple[int, int]]:
    with session_scope() as s:
        rows = s.exec(select(CancelCartLine).where(CancelCartLine.parent_id == parent_id)).all()
        return [(r.order_line_id, r.quantity) for r in rows]


@sqlite_only
def test_the_parent_sees_the_order_and_fills_the_cancel_cart(database: Path) -> None:
    async def scenario():
        parent_id, order_id, line_id = _placed_order("HM-UI-0001")
        root = await _signed_in(parent_id, order_id)
        history = await root.get_state(OrderHistoryState)
        await _run(history.load())
        # The future tab: this order and the demo data's closed day's (its make-up meal).
        with session_scope() as s:
            made_up = s.exec(
                select(Order.number).where(Order.cart_fingerprint == DEMO_CLOSURE_MARK)
            ).one()
        rows = {r.number: r for r in history.rows}
        assert sorted(rows) == sorted(["HM-UI-0001", made_up])
        assert rows["HM-UI-0001"].href == f"/edit-profile/order-details?id={order_id}"
        await _run(history.set_tab("past"))
        # The past tab: only the demo data's paid order of last week (the seed's receipt).
        with session_scope() as s:
            demo = s.exec(select(Order).where(Order.cart_fingerprint == DEMO_ORDER_MARK)).one()
        assert [r.number for r in history.rows] == [demo.number]
        # its meals are behind it: delivered, the order and each meal
        assert history.rows[0].status_label == "Delivered"
        with session_scope() as s:
            past = order_service.order_detail(s, parent_id=parent_id, order_id=demo.id, lang="fr")
        assert past.status_label == "Livrée"
        assert {x.state_label for x in past.lines} == {"Livré"}

        detail = await root.get_state(OrderDetailState)
        await _run(detail.load())
        assert detail.missing == "" and detail.number == "HM-UI-0001"
        assert [(x.line_id, x.active, x.can_cancel) for x in detail.lines] == [
            (str(line_id), 2, True)
        ]
        assert detail.total_refund == "$0.00"
        assert detail.reasons and detail.reasons[-1].is_other
        # 'Are you sure?' says what the cancel would refund (this order was never paid)
        detail.set_reason(detail.reasons[0].id)
        await _run(detail.ask_cancel_order())
        assert detail.sure_open and detail.sure_refund == "No refund is due for this cancellation."
        detail.set_sure_open(False)
        detail.set_reason("")

        detail.ask_add(str(line_id))
        assert detail.add_open and detail.add_max == 2
        detail.set_add_qty("9")  # more than is left: capped at what the line holds
        assert detail.add_qty == 2
        detail.set_add_qty("1")
        await _run(detail.confirm_add())
        assert not detail.add_open
        assert _cart_rows(parent_id) == [(line_id, 1)]
        auth = await root.get_state(AuthState)
        assert auth.cancel_cart_count == 1 and auth.cancel_cart_count_store == "1"

        cart = await root.get_state(CancelCartState)
        await _run(cart.load())
        assert cart.count == 1 and cart.groups[0].number == "HM-UI-0001"
        cart_id = cart.groups[0].lines[0].cart_id
        await _run(cart.change_quantity(cart_id, 1))
        assert _cart_rows(parent_id) == [(line_id, 2)]
        await _run(cart.change_quantity(cart_id, 1))  # beyond the line's 2: nothing sent
        assert _cart_rows(parent_id) == [(line_id, 2)]
        # Confirming needs a reason first (the field says so; no dialog).
        await _run(cart.ask_confirm())
        assert cart.reason_error and not cart.sure_open
        other = next(r for r in cart.reasons if r.is_other)
        cart.set_reason(other.id)
        await _run(cart.ask_confirm())
        assert cart.other_error and not cart.sure_open  # Other needs its text
        await _run(cart.remove(cart_id))
        assert _cart_rows(parent_id) == [] and cart.is_empty
        assert auth.cancel_cart_count == 0 and auth.cancel_cart_count_store == "0"

    asyncio.run(scenario())


def test_every_handler_that_waits_on_converge_runs_in_the_background() -> None:
    """A cancel, a move, a modification and a Lightbox outcome wait on Converge
    (up to 30 s a call); as foreground events they held the parent's state lock meanwhile,
    freezing every other event of the parent's session."""
    from hotmeals.ui.screens.cancel_cart.state import CancelCartState
    from hotmeals.ui.screens.manage_meal.state import ManageMealState
    from hotmeals.ui.screens.modify_order.state import ModifyOrderState

    waiting = {
        CancelCartState: ["confirm"],
        OrderDetailState: ["confirm_cancel_order"],
        ManageMealState: ["confirm_cancel", "pay", "lightbox_closed"],
        ModifyOrderState: ["pay", "lightbox_closed"],
    }
    foreground = [
        f"{state.__name__}.{name}"
        for state, names in waiting.items()
        for name in names
        if not state.event_handlers[name].is_background
    ]
    assert foreground == []


def test_a_cancel_confirmed_twice_at_once_in_the_background_runs_once(database: Path) -> None:
    """Two taps on 'Yes' reach the background handler together: the first marks the screen
    busy before the service runs, the second does nothing; the order is cancelled once."""

    async def scenario():
        parent_id, order_id, line_id = _placed_order("HM-UI-0009")
        root = await _signed_in(parent_id, order_id)
        detail = await root.get_state(OrderDetailState)
        await _run(detail.load())
        detail.reason_id = str(detail.reasons[0].id)
        first, second = await asyncio.gather(
            _run(background(detail, "confirm_cancel_order")),
            _run(background(detail, "confirm_cancel_order")),
        )
        assert not detail.cancelling and detail.done_title == "Order Cancelled"
        # One answer (the toast); the other tap did nothing, said nothing.
        said = [events for events in (first, second) if any(e is not None for e in events)]
        assert len(said) == 1, (first, second)
        with session_scope() as s:
            assert s.get(Order, order_id).status == "cancelled"
            rows = s.exec(select(OrderCancellation).where(OrderCancellation.order_id == order_id))
            assert len(rows.all()) == 1

    asyncio.run(scenario())


def test_a_cancel_confirmed_in_two_tabs_at_once_runs_once(database: Path) -> None:
    """Two tabs of the parent (two sessions, so two states and two submission keys) confirm
    the order's cancel together: the order is cancelled once, with one cancellation; each
    tab ends its busy state."""

    async def scenario():
        parent_id, order_id, _line_id = _placed_order("HM-UI-0010")
        tabs = []
        for _ in range(2):
            root = await _signed_in(parent_id, order_id)
            detail = await root.get_state(OrderDetailState)
            await _run(detail.load())
            detail.reason_id = str(detail.reasons[0].id)
            tabs.append(detail)
        await asyncio.gather(*(_run(background(t, "confirm_cancel_order")) for t in tabs))
        assert not any(t.cancelling for t in tabs)
        assert "Order Cancelled" in [t.done_title for t in tabs]
        with session_scope() as s:
            assert s.get(Order, order_id).status == "cancelled"
            rows = s.exec(select(OrderCancellation).where(OrderCancellation.order_id == order_id))
            assert len(rows.all()) == 1

    asyncio.run(scenario())


def test_the_cancel_cart_confirmed_twice_at_once_runs_once(database: Path) -> None:
    """Two taps on the cancel cart's 'Yes' reach the background handler together: the meal
    is cancelled once (one cancellation), the cart emptied, one answer."""

    async def scenario():
        parent_id, order_id, line_id = _placed_order("HM-UI-0011")
        root = await _signed_in(parent_id, order_id)
        detail = await root.get_state(OrderDetailState)
        await _run(detail.load())
        detail.ask_add(str(line_id))
        detail.set_add_qty("1")
        await _run(detail.confirm_add())
        cart = await root.get_state(CancelCartState)
        await _run(cart.load())
        cart.set_reason(next(r for r in cart.reasons if not r.is_other).id)
        await _run(cart.ask_confirm())
        assert cart.sure_open
        first, second = await asyncio.gather(
            _run(background(cart, "confirm")), _run(background(cart, "confirm"))
        )
        said = [events for events in (first, second) if any(e is not None for e in events)]
        assert len(said) == 1, (first, second)
        assert not cart.confirming and cart.is_empty
        with session_scope() as s:
            assert s.get(OrderLine, line_id).cancelled_quantity == 1
            rows = s.exec(select(OrderCancellation).where(OrderCancellation.order_id == order_id))
            assert len(rows.all()) == 1

    asyncio.run(scenario())


@sqlite_only
def test_another_parent_sees_and_touches_nothing(database: Path) -> None:
    async def scenario():
        victim_id, order_id, line_id = _placed_order("HM-UI-0002")
        with session_scope() as s:
            mallory = make_parent(s, email="mallory-orders@example.com")
            make_child(s, mallory, is_default=True)
            mallory_id = mallory.id
        # The victim has a meal in the cancel cart.
        victim = await _signed_in(victim_id, order_id)
        vdetail = await victim.get_state(OrderDetailState)
        await _run(vdetail.load())
        vdetail.ask_add(str(line_id))
        await _run(vdetail.confirm_add())
        victim_cart = await victim.get_state(CancelCartState)
        await _run(victim_cart.load())
        victim_cart_id = victim_cart.groups[0].lines[0].cart_id

        root = await _signed_in(mallory_id, order_id)
        history = await root.get_state(OrderHistoryState)
        await _run(history.load())
        assert history.rows == []
        detail = await root.get_state(OrderDetailState)
        await _run(detail.load())
        assert detail.missing == "No data found" and detail.lines == [] and detail.number == ""
        detail.ask_add(str(line_id))  # not on this parent's screen
        assert not detail.add_open
        detail.add_line = str(line_id)  # even forced, the line is not among the listed
        await _run(detail.confirm_add())
        with session_scope() as s, pytest.raises(DomainError) as refused:
            cancel_order.refund_preview(s, parent_id=mallory_id, order_id=order_id)
        assert refused.value.code == "order_not_found"
        detail.reason_id = "1"
        # the service refuses another's order
        await _run(background(detail, "confirm_cancel_order"))
        cart = await root.get_state(CancelCartState)
        await _run(cart.load())
        assert cart.is_empty
        await _run(cart.remove(victim_cart_id))
        await _run(cart.change_quantity(victim_cart_id, 1))
        assert _cart_rows(mallory_id) == []
        assert _cart_rows(victim_id) == [(line_id, 1)]
        with session_scope() as s:
            assert s.get(Order, order_id).status == "placed"
            assert s.get(OrderLine, line_id).cancelled_quantity == 0

    asyncio.run(scenario())


@sqlite_only
def test_no_session_gets_nothing(database: Path) -> None:
    async def scenario():
        _parent_id, order_id, _line_id = _placed_order("HM-UI-0003")
        root = await _signed_in(None, order_id)
        detail = await root.get_state(OrderDetailState)
        await _run(detail.load())
        assert not detail.loaded and detail.lines == []
        history = await root.get_state(OrderHistoryState)
        await _run(history.load())
        assert history.rows == [] and not history.loaded
        cart = await root.get_state(CancelCartState)
        await _run(cart.load())
        assert cart.groups == [] and not cart.loaded

    asyncio.run(scenario())


@sqlite_only
@pytest.mark.parametrize(
    ("lang", "expected"), [("en", "cancellation deadline for"), ("fr", "date limite")]
)
def test_a_line_past_its_cutoff_is_refused_with_the_services_message(
    database: Path, lang: str, expected: str
) -> None:
    async def scenario():
        parent_id, order_id, line_id = _placed_order(f"HM-UI-CUT-{lang}")
        root = await _signed_in(parent_id, order_id)
        from hotmeals.ui.shared_state.i18n import I18nState

        (await root.get_state(I18nState)).lang = lang
        detail = await root.get_state(OrderDetailState)
        await _run(detail.load())
        detail.ask_add(str(line_id))
        assert detail.add_open
        # The cut-off passes while the dialog is open: the meal is now tomorrow.
        with session_scope() as s:
            line = s.get(OrderLine, line_id)
            line.meal_date = clock.today()
            s.add(line)
        events = await _run(detail.confirm_add())
        texts = " ".join(str(e) for e in events)
        assert expected in texts.lower(), texts
        assert line_id not in [lid for lid, _ in _cart_rows(parent_id)]
        await _run(detail.load())
        assert not detail.lines[0].can_cancel and not detail.can_cancel

    asyncio.run(scenario())


@sqlite_only
def test_a_booked_meal_is_repeated_every_weekday_and_another_parents_line_is_refused(
    database: Path,
) -> None:
    """On the order details, a booked meal's "Repeat every <weekday>" sets up a
    standing order for the line's child, meal and size on its weekday, all read on the
    server; another parent who sends that line's id (or forces it into the state) gets
    nothing."""
    from hotmeals.db.models import StandingOrder
    from hotmeals.ui.screens.standing_orders.state import RepeatState

    async def scenario():
        parent_id, order_id, line_id = _placed_order("HM-UI-0005")
        with session_scope() as s:
            # The meal of the demo standing order: one the child's allergies allow.
            seeded = s.exec(select(StandingOrder).where(StandingOrder.parent_id == parent_id)).one()
            line = s.get(OrderLine, line_id)
            line.child_id, line.meal_id = seeded.child_id, seeded.meal_id
            line.portion_id = seeded.portion_id
            s.add(line)
            day = line.meal_date
        with session_scope() as s:
            mallory = make_parent(s, email="mallory-repeat@example.com")
            make_child(s, mallory, is_default=True)
            mallory_id = mallory.id

        root = await _signed_in(mallory_id, order_id)
        repeat = await root.get_state(RepeatState)
        await _run(repeat.open_line(str(line_id)))
        assert not repeat.line_open and repeat._line_id == 0
        repeat.line_open, repeat._line_id = True, line_id  # even forced into the state
        await _run(repeat.create())
        assert repeat.done == ""

        root = await _signed_in(parent_id, order_id)
        detail = await root.get_state(OrderDetailState)
        await _run(detail.load())
        weekday = day.strftime("%A")
        assert [x.repeat_label for x in detail.lines] == [f"Repeat every {weekday}"]
        repeat = await root.get_state(RepeatState)
        await _run(repeat.open_line(detail.lines[0].line_id))
        assert repeat.line_open and repeat.label == f"Repeat every {weekday}"
        assert repeat.term_label.startswith("End of term (")
        repeat.set_until("year")
        await _run(repeat.create())
        assert repeat.done.startswith(weekday) or weekday in repeat.done, repeat.done
        with session_scope() as s:
            rows = s.exec(select(StandingOrder).where(StandingOrder.weekday == day.weekday())).all()
            made = [r for r in rows if r.id != seeded.id]
            assert [(r.parent_id, r.child_id, r.meal_id, r.portion_id) for r in made] == [
                (parent_id, seeded.child_id, seeded.meal_id, seeded.portion_id)
            ]
            assert made[0].starts_on > day

    asyncio.run(scenario())
