"""The standing orders' states without a browser: the parent lists their
standing orders, pauses, resumes and ends one (End only through its "Are you sure?"), in
English then French; Book meal's "Repeat every <weekday>" creates one from the dialog's own
meal, size, child and day. What an untrusted browser may send is refused by the service and
changes nothing: another parent's standing-order id or child, an action that is not one, an
end that is not a choice or out of range (the catalog's message); no session gets nothing.
The job that books the dates runs in tests/integration/test_standing_orders_job.py."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import date, timedelta
from pathlib import Path

import reflex as rx
from babel.dates import format_date
from reflex.istate.data import ReflexURL
from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import Parent, StandingOrder
from hotmeals.services import standing
from hotmeals.services.parents import start_session
from hotmeals.ui.screens.book_meal.state import BookingState
from hotmeals.ui.screens.standing_orders.state import RepeatState, StandingState, weekday_of
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.children import ChildChoiceState
from hotmeals.ui.shared_state.i18n import I18nState
from tests import factories as f
from tests.unit.test_ui_orders_state import _run, database, sqlite_only  # noqa: F401

BASE = "http://localhost/parent"


async def _root(parent_id: int | None, path: str = "/standing-orders") -> rx.State:
    root = rx.State(_reflex_internal_init=True)
    root.router = dataclasses.replace(root.router, url=ReflexURL(BASE + path))
    if parent_id is not None:
        with session_scope() as session:
            token = start_session(session, session.get(Parent, parent_id), "tests")
        auth = await root.get_state(AuthState)
        auth.token = token
        await _run(auth.require_parent())
    return root


def _monday() -> str:
    """A Monday one to two weeks ahead (a day Book meal offers)."""
    today = clock.today()
    return (today + timedelta(days=(7 - today.weekday()) % 7 + 7)).isoformat()


def _family(tag: str) -> dict:
    """A parent with a child and a meal (small and large) the child may eat; one standing
    order "every Monday" made by the service."""
    with session_scope() as s:
        parent = f.make_parent(s, email=f"standing-{tag}@example.com")
        child = f.make_child(s, parent, first_name="Emma", is_default=True)
        vendor = f.make_vendor(s)
        meal = f.make_meal(s, vendor, name_en="Pizza", name_fr="Pizza")
        s.flush()
        row = standing.create(
            session=s,
            parent_id=parent.id,
            child_id=child.id,
            meal_id=meal.id,
            size="small",
            from_date=_monday(),
        )
        large = f.portion_of(s, meal, "large")
        return {
            "parent_id": parent.id,
            "child_id": child.id,
            "meal_id": meal.id,
            "large_id": large.id,
            "standing_id": row.id,
        }


def _status(standing_id: int) -> str:
    with session_scope() as s:
        return s.get(StandingOrder, standing_id).status


def _standing_of(parent_id: int) -> list[StandingOrder]:
    with session_scope() as s:
        rows = s.exec(select(StandingOrder).where(StandingOrder.parent_id == parent_id)).all()
        for row in rows:
            s.expunge(row)
        return list(rows)


@sqlite_only
def test_the_parent_lists_pauses_resumes_and_ends_a_standing_order(database: Path) -> None:  # noqa: F811
    async def scenario():
        home = _family("own")
        sid = home["standing_id"]
        root = await _root(home["parent_id"])
        state = await root.get_state(StandingState)
        await _run(state.load())
        assert state.loaded
        assert [(r.id, r.status) for r in state.rows] == [(str(sid), "active")]
        assert state.rows[0].summary == "Every Monday: Pizza (1 portion) for Emma"
        assert state.rows[0].status_label == "Active"

        said = await _run(state.act(str(sid), "pause"))
        assert "Standing order paused" in str(said)
        assert _status(sid) == "paused" and state.rows[0].status == "paused"
        assert state.busy_id == ""

        said = await _run(state.act(str(sid), "resume"))
        assert "Standing order resumed" in str(said)
        assert _status(sid) == "active"

        await _run(state.act(str(sid), "end"))  # End is not a plain button: nothing happens
        assert _status(sid) == "active"
        state.busy_id = "1"  # a tap while another answer is awaited: ignored
        assert await _run(state.act(str(sid), "pause")) == []
        assert _status(sid) == "active"
        state.busy_id = ""

        state.ask_end(str(sid))
        assert state.end_open and state.end_id == str(sid)
        state.set_end_open(False)
        assert not state.end_open and _status(sid) == "active"
        state.ask_end(str(sid))
        said = await _run(state.confirm_end())
        assert "Standing order ended" in str(said)
        assert _status(sid) == "ended" and not state.end_open
        assert state.rows[0].status == "ended"
        said = await _run(state.act(str(sid), "resume"))  # an ended order stays ended
        assert "This standing order has ended." in str(said)
        assert _status(sid) == "ended"

        # French: the rows are read again in the new language (only when it changed).
        (await root.get_state(I18nState)).lang = "fr"
        await _run(state.relang())
        assert state.rows[0].status_label != "Ended"
        assert "lundi" in state.rows[0].summary

    asyncio.run(scenario())


@sqlite_only
def test_another_parents_standing_order_and_child_are_refused(database: Path) -> None:  # noqa: F811
    async def scenario():
        victim = _family("victim")
        mallory = _family("mallory")
        sid = victim["standing_id"]
        root = await _root(mallory["parent_id"])
        state = await root.get_state(StandingState)
        await _run(state.load())
        assert [r.id for r in state.rows] == [str(mallory["standing_id"])]

        for action in ("pause", "resume"):
            said = await _run(state.act(str(sid), action))
            assert "Standing order not found." in str(said)
        state.end_id = str(sid)  # sent by hand: never shown to this parent
        said = await _run(state.confirm_end())
        assert "Standing order not found." in str(said)
        for junk in ("abc", "-1", "99999999999999", ""):
            said = await _run(state.act(junk, "pause"))
            assert "Standing order not found." in str(said)
        assert _status(sid) == "active" and state.busy_id == ""
        assert _status(mallory["standing_id"]) == "active"

        # Book meal's repeat with the victim's child in the chosen-child slot.
        booking = await root.get_state(BookingState)
        booking._meal_id, booking.selected_date = mallory["meal_id"], _monday()
        (await root.get_state(ChildChoiceState)).child_id = str(victim["child_id"])
        repeat = await root.get_state(RepeatState)
        said = await _run(repeat.create())
        assert "Child not found" in str(said) and not repeat.busy and repeat.done == ""
        assert len(_standing_of(victim["parent_id"])) == 1
        assert len(_standing_of(mallory["parent_id"])) == 1

    asyncio.run(scenario())


@sqlite_only
def test_repeat_every_weekday_creates_a_standing_order_from_the_dialog(database: Path) -> None:  # noqa: F811
    async def scenario():
        home = _family("repeat")
        monday = _monday()
        root = await _root(home["parent_id"], "/edit-profile/meal-detailed")
        booking = await root.get_state(BookingState)
        booking._meal_id, booking.selected_date = home["meal_id"], monday
        booking.portion_id = str(home["large_id"])
        (await root.get_state(ChildChoiceState)).child_id = str(home["child_id"])
        repeat = await root.get_state(RepeatState)

        await _run(repeat.prepare())
        assert repeat.label == "Repeat every Monday" and not repeat.open
        assert repeat.term_label and repeat.year_label and repeat.term_label != repeat.year_label
        repeat.toggle()
        assert repeat.open

        # An end the browser made up, then dates out of range: the catalog's message, no row.
        repeat.set_until("forever")
        assert repeat.until == "term"
        repeat.until = "forever"  # even sent past the setter, the service refuses it
        bad_end = "Choose an end date from today to a year from now."
        said = await _run(repeat.create())
        assert bad_end in str(said) and not repeat.busy
        repeat.set_until("date")
        for ends_on in ("2020-01-06", "not a date", (clock.today() + timedelta(days=800))):
            repeat.set_ends_on(str(ends_on))
            said = await _run(repeat.create())
            assert bad_end in str(said), ends_on
        assert len(_standing_of(home["parent_id"])) == 1

        ends = (clock.today() + timedelta(days=60)).isoformat()
        repeat.set_ends_on(ends + "T00:00:00")  # cut to a date
        assert repeat.ends_on == ends
        said = await _run(repeat.create())
        assert "Standing order set up" in str(said)
        assert repeat.done.startswith("Every Monday: Pizza (1 portion + upgrade) for Emma · ")
        new = [r for r in _standing_of(home["parent_id"]) if r.id != home["standing_id"]]
        assert len(new) == 1
        assert (new[0].child_id, new[0].meal_id, new[0].portion_id) == (
            home["child_id"],
            home["meal_id"],
            home["large_id"],
        )
        assert new[0].weekday == 0 and new[0].starts_on.isoformat() == monday
        assert new[0].ends_on <= clock.today() + timedelta(days=60)
        assert new[0].status == "active"

        repeat.busy = True  # a second tap while the first is awaited: ignored
        assert await _run(repeat.create()) == []
        repeat.busy = False
        booking._meal_id = 0  # no meal open: nothing to repeat
        assert await _run(repeat.create()) == []
        assert len(_standing_of(home["parent_id"])) == 2

        # A day that is not a date names no weekday.
        booking.selected_date = "someday"
        await _run(repeat.prepare())
        assert repeat.label == ""
        (await root.get_state(I18nState)).lang = "fr"
        booking.selected_date = monday
        await _run(repeat.prepare())
        # the end of the term of its first Monday (on June 30: next term's)
        first = standing.next_weekday(max(date.fromisoformat(monday), clock.today()), 0)
        last = standing.last_weekday(standing.term_end(first), 0)
        assert "lundi" in repeat.label
        assert format_date(last, "d MMMM", locale="fr_CA") in repeat.term_label

    asyncio.run(scenario())


def test_weekday_of_names_the_day_in_either_language() -> None:
    assert weekday_of("2030-01-07", "en") == "Monday"
    assert weekday_of("2030-01-07", "fr") == "lundi"
    assert weekday_of("x", "en") == ""


@sqlite_only
def test_no_session_gets_nothing(database: Path) -> None:  # noqa: F811
    async def scenario():
        home = _family("nosession")
        sid = home["standing_id"]
        root = await _root(None)
        state = await root.get_state(StandingState)
        await _run(state.load())
        assert not state.loaded and state.rows == []
        said = await _run(state.act(str(sid), "pause"))
        assert "Your session has expired" in str(said) and state.busy_id == ""
        state.ask_end(str(sid))
        said = await _run(state.confirm_end())
        assert "Your session has expired" in str(said)
        assert _status(sid) == "active"

        booking = await root.get_state(BookingState)
        booking._meal_id, booking.selected_date = home["meal_id"], _monday()
        (await root.get_state(ChildChoiceState)).child_id = str(home["child_id"])
        repeat = await root.get_state(RepeatState)
        said = await _run(repeat.create())
        assert "Your session has expired" in str(said) and not repeat.busy
        assert len(_standing_of(home["parent_id"])) == 1

    asyncio.run(scenario())
