"""The Book meal screen's state without a browser: the calendar's cells and labels
(Babel, EN and FR), and BookingState on the demo data - the demo parent books a meal and the
header's count follows; a browser with its own session that sends another family's child id,
or no session at all, sees nothing of that family and adds nothing to anyone's cart."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, date, datetime

import reflex as rx
from sqlmodel import func, select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import CartLine, Child, Parent
from hotmeals.services.ordering.days import MealDay
from hotmeals.services.parents import start_session
from hotmeals.ui.screens.book_meal.state import BookingState
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.children import ChildChoiceState
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.menu_views import allergy_badge, day_label, month_cells
from tests.factories import make_child, make_parent

DEMO_EMAIL = "parent@example.com"


def _day(iso: str, **fields) -> MealDay:
    """A GetDates day as ``ordering.days.get_dates`` answers it."""
    base = MealDay(
        day=date.fromisoformat(iso),
        menu_day_id=1,
        vendor_id=1,
        vendor="Vendor",
        is_closed=False,
        closed_reason="",
        cutoff_at=datetime(2026, 11, 20, 22, 0, tzinfo=UTC),
        is_open=True,
        ordered_quantity=0,
        cart_quantity=0,
        moved_to=None,
        is_away=False,
        away_label="",
    )
    return dataclasses.replace(base, **fields)


def test_a_month_is_its_school_weeks_monday_to_friday():
    days = [
        _day("2026-11-24", cart_quantity=2),
        _day("2026-11-25", is_open=False),
        _day("2026-11-27", is_closed=True, is_open=False, closed_reason="Journée pédagogique"),
    ]
    cells = month_cells(days, "2026-11", "fr")
    # Five cells a week; the weeks before the first meal day are left out (November 2026
    # starts on a Sunday, its first meal day here is Tuesday the 24th).
    assert cells[0]["day"] == "23" and len(cells) % 5 == 0
    assert [c["day"] for c in month_cells(days[:1], "2026-11", "en")][-5:] == ["30", "", "", "", ""]
    by_day = {c["day"]: c for c in cells}
    assert by_day["24"]["kind"] == "open" and by_day["24"]["cart"] == "2"
    assert by_day["24"]["label"] == "mardi 24 novembre : ouvert, 2 au panier"
    assert by_day["25"]["kind"] == "past"
    assert by_day["27"]["kind"] == "closed"
    assert by_day["27"]["label"].endswith("pas de repas : Journée pédagogique")
    assert by_day["23"]["kind"] == "none" and by_day["23"]["date"] == ""
    assert all(c["day"] not in ("1", "7", "8") for c in cells)  # no weekend


def test_a_month_starting_midweek_has_blank_cells_before_the_first():
    cells = month_cells([_day("2026-12-01")], "2026-12", "en")
    assert [c["kind"] for c in cells[:2]] == ["blank", "open"]  # Dec 1, 2026 is a Tuesday
    assert cells[1]["label"] == "Tuesday, December 1: open"


def test_day_labels_name_the_reason_and_what_is_ordered():
    label = day_label(
        _day("2026-12-21", is_closed=True, is_open=False, closed_reason="Winter break"), "en"
    )
    assert label == "Monday, December 21: no meals: Winter break"
    assert day_label(_day("2026-11-24", ordered_quantity=1), "en").endswith("open, 1 ordered")


def test_an_away_day_is_shown_like_a_closed_day_with_its_own_label():
    away = _day("2026-12-07", is_open=False, is_away=True, away_label="Emma is away")
    (cell,) = [c for c in month_cells([away], "2026-12", "en") if c["date"]]
    assert cell["kind"] == "away"  # styled as a closed day (assets/booking.css)
    assert cell["label"] == "Monday, December 7: Emma is away"
    fr = dataclasses.replace(away, away_label="Emma n'est pas là")
    assert day_label(fr, "fr") == "lundi 7 décembre : Emma n'est pas là"


def test_dates_in_the_parents_language():
    from datetime import date, datetime

    from hotmeals.domain.dates import long_day, long_moment, month_title, weekday_names

    assert long_day(date(2025, 11, 24), "fr") == "lundi 24 novembre"
    assert long_day(date(2025, 11, 24), "en") == "Monday, November 24"
    assert month_title(date(2025, 11, 1), "fr") == "novembre 2025"
    assert weekday_names("fr")[:2] == ["lun.", "mar."] and weekday_names("en")[4] == "Fri"
    # A cut-off stored in UTC is shown at Toronto's time.
    cutoff = datetime(2025, 11, 21, 22, 0, tzinfo=UTC)
    assert long_moment(cutoff, "fr") == "vendredi 21 novembre, 17 h 00"
    assert long_moment(cutoff, "en") == "Friday, November 21, 5:00\u202fp.m."


def test_allergy_badges_name_the_allergen():
    assert allergy_badge({"verdict": "refused", "allergens": ["Peanuts"]}, "en") == (
        "Major allergy: Peanuts"
    )
    assert allergy_badge({"verdict": "acknowledge", "allergens": ["Lait"]}, "fr") == (
        "Allergie : Lait"
    )
    assert allergy_badge({"verdict": "safe", "allergens": []}, "en") == ""


# --- the state on the demo data -------------------------------------------------------------


async def _run(result) -> list:
    if hasattr(result, "__aiter__"):
        return [event async for event in result]
    value = await result if asyncio.iscoroutine(result) else result
    return [] if value is None else [value]


def _cart_lines() -> list[tuple[int, int]]:
    with session_scope() as session:
        return [
            (line.parent_id, line.child_id)
            for line in session.exec(select(CartLine).order_by(CartLine.id))
        ]


def _demo() -> tuple[int, list[int]]:
    with session_scope() as session:
        parent = session.exec(select(Parent).where(Parent.email == DEMO_EMAIL)).one()
        kids = session.exec(
            select(Child.id).where(Child.parent_id == parent.id).order_by(Child.id)
        ).all()
        return parent.id, list(kids)


async def _signed_in(parent_id: int) -> rx.State:
    with session_scope() as session:
        token = start_session(session, session.get(Parent, parent_id), "tests")
    root = rx.State(_reflex_internal_init=True)
    auth = await root.get_state(AuthState)
    auth.token = token
    await _run(auth.require_parent())
    return root


def test_the_demo_parent_books_a_meal_and_the_header_count_follows(database):
    async def scenario():
        parent_id, kids = _demo()
        root = await _signed_in(parent_id)
        booking = await root.get_state(BookingState)
        await _run(booking.load())
        # The default child first, and chosen when browser storage names none.
        assert booking.kids[0]["is_default"] == "1"
        choice = await root.get_state(ChildChoiceState)
        assert choice.child_id == booking.kids[0]["id"]
        lucas = next(k["id"] for k in booking.kids if k["name"] == "Lucas")  # Low allergy only
        await _run(booking.choose_child(lucas))
        assert choice.child_id == lucas
        day = next(c["date"] for c in booking.cells if c["kind"] == "open")
        await _run(booking.choose_day(day))
        assert booking.selected_kind == "open" and booking.meals
        meal = next(m for m in booking.meals if m["verdict"] in ("safe", "notice"))
        await _run(booking.open_meal(meal["meal_id"]))
        assert booking.detail_open and len(booking.nutrition) == 15
        assert booking.can_add
        large = booking.portions[-1]["id"]
        await _run(booking.set_portion(large))
        await _run(booking.set_note("x" * 200))
        assert len(booking.note) == 120  # the label's 120 characters
        before = booking.line_total
        await _run(booking.change_quantity(1))
        assert booking.quantity == 2 and booking.line_total != before
        events = await _run(booking.add())
        assert not booking.detail_open and not booking.busy
        assert any("Added to cart Successfully" in str(e) for e in events)
        auth = await root.get_state(AuthState)
        assert auth.cart_count == 1 and auth.shown_cart_count == 1
        assert _cart_lines() == [(parent_id, int(lucas))]
        # The calendar now shows the day's meal in the cart.
        assert next(c for c in booking.cells if c["date"] == day)["cart"] == "2"

        # French: the same screen reloads in the new language.
        (await root.get_state(I18nState)).lang = "fr"
        await _run(booking.relang())
        assert booking.selected_note.startswith("Commandez au plus tard le")

    asyncio.run(scenario())


def test_another_familys_child_id_gets_nothing_and_adds_nothing(database):
    async def scenario():
        _victim_id, victim_kids = _demo()
        with session_scope() as session:
            attacker = make_parent(session, first_name="Eve", last_name="Attacker")
            own = make_child(session, attacker, first_name="Evelyn", is_default=True)
            attacker_id, own_id = attacker.id, own.id
        before = _cart_lines()
        root = await _signed_in(attacker_id)
        choice = await root.get_state(ChildChoiceState)
        choice.child_id = str(victim_kids[0])  # browser storage: any value
        booking = await root.get_state(BookingState)
        await _run(booking.load())
        assert [k["id"] for k in booking.kids] == [str(own_id)]
        assert choice.child_id == str(own_id)  # the stored child was not theirs
        await _run(booking.choose_child(str(victim_kids[1])))
        assert choice.child_id == str(own_id)
        # The attacker's own child is at a new school with no meal days: nothing to book,
        # and a forged meal opens nothing.
        assert booking.cells == [] and booking.meals == []
        await _run(booking.open_meal("1"))
        assert not booking.detail_open
        choice.child_id = str(victim_kids[0])  # forged again, between events
        booking._meal_id, booking._menu_day_id = 1, 1
        await _run(booking.add())
        assert _cart_lines() == before

    asyncio.run(scenario())


def test_no_session_gets_nothing(database):
    async def scenario():
        _victim_id, victim_kids = _demo()
        before = _cart_lines()
        root = rx.State(_reflex_internal_init=True)
        (await root.get_state(ChildChoiceState)).child_id = str(victim_kids[0])
        booking = await root.get_state(BookingState)
        await _run(booking.load())
        assert booking.kids == [] and booking.cells == [] and not booking.loaded
        booking._meal_id, booking._menu_day_id = 1, 1
        events = await _run(booking.add())
        assert events  # the 'session expired' toast and the way home
        assert _cart_lines() == before
        with session_scope() as session:
            assert session.exec(select(func.count()).select_from(CartLine)).one() == len(before)

    asyncio.run(scenario())
