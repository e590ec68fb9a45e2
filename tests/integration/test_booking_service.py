"""services/ordering/booking.py (many days at once, 'Repeat last week') on migrated SQLite and
PostgreSQL with the clock given: each line through AddToCart's rules (closed day, past
cut-off, meal not offered, Major allergen, acknowledgement), the good lines added and the bad
ones listed with their day and reason in the parent's language, siblings at different
schools, ownership, a second 'Repeat' adds nothing, and a fixed number of statements for 1
and 10 lines."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlmodel import select

from hotmeals import clock
from hotmeals.api.booking import outcome_out, repeated_out
from hotmeals.db.engine import session_scope
from hotmeals.db.models import CartLine, Order, OrderLine
from hotmeals.domain.errors import DomainError
from hotmeals.services.ordering import booking, repeat
from hotmeals.services.ordering.lines import LineRequest
from hotmeals.services.ordering.week import week_choices
from hotmeals.ui.screens.book_meal.many_days_state import repeated_report
from tests import factories as f
from tests.querycount import count_queries

SOURCE = date(2026, 2, 23)  # Monday of the week that was ordered
TARGET = date(2026, 3, 2)  # Monday of the week to book
# Monday 2026-03-02 12:00 UTC (07:00 in Toronto): Monday's cut-off (the day before, 10:00) has
# passed; Tuesday's (Monday 10:00 Toronto = 15:00 UTC) has not.
NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _at_now() -> None:
    """Every call here runs at ``NOW`` unless the test sets another moment."""
    clock.set_now(NOW)


@dataclass
class World:
    parent_id: int
    ava: int  # Major peanuts, Medium milk; school A
    ben: int  # school B, another caterer
    stranger_child: int
    plain: int
    peanut: int
    milk: int
    other: int  # served only on Thursday at school A
    pasta: int  # school B's meal


def _world(session) -> World:
    parent = f.make_parent(session)
    stranger = f.make_parent(session)
    school_a, school_b = f.make_school(session), f.make_school(session)
    ava = f.make_child(
        session,
        parent,
        school=school_a,
        first_name="Ava",
        is_default=True,
        allergies={"Peanuts": "Major", "Milk": "Medium"},
    )
    ben = f.make_child(session, parent, school=school_b, first_name="Ben")
    theirs = f.make_child(session, stranger, school=school_a, first_name="Zed")
    vendor = f.make_vendor(session, cutoff_days_before=1, cutoff_time="10:00")
    vendor_b = f.make_vendor(session, cutoff_days_before=1, cutoff_time="10:00")
    plain = f.make_meal(session, vendor, name_en="Rice bowl", name_fr="Bol de riz")
    peanut = f.make_meal(session, vendor, name_en="Satay", allergens=["Peanuts"])
    milk = f.make_meal(session, vendor, name_en="Mac and cheese", allergens=["Milk"])
    other = f.make_meal(session, vendor, name_en="Soup")
    pasta = f.make_meal(session, vendor_b, name_en="Pasta")
    for week in (SOURCE, TARGET):
        for n in range(5):
            day = week + timedelta(days=n)
            if week == TARGET and n == 2:  # Wednesday: PA day
                f.make_menu_day(session, school_a, vendor, day, closed=True)
            elif week == TARGET and n == 3:  # Thursday: soup only
                f.make_menu_day(session, school_a, vendor, day, [other])
            else:
                f.make_menu_day(session, school_a, vendor, day, [plain, peanut, milk])
            f.make_menu_day(session, school_b, vendor_b, day, [pasta])
    session.flush()
    return World(
        parent.id, ava.id, ben.id, theirs.id, plain.id, peanut.id, milk.id, other.id, pasta.id
    )


def _day(n: int, week: date = TARGET) -> str:
    return (week + timedelta(days=n)).isoformat()


def _lines(items: list[dict]) -> list[LineRequest]:
    return [LineRequest(**{"meal_id": None, **item}) for item in items]


def _added(answer: booking.Outcome, lang: str = "en") -> dict:
    """AddManyToCart's answer."""
    return outcome_out(answer, "booking_result", lang)


def _codes(answer: dict) -> list[tuple[str, str]]:
    return [(r["date"], r["code"]) for r in answer["refused"]]


def test_good_lines_are_added_and_each_refused_one_says_its_day_and_why(engine):
    with session_scope(engine) as s:
        w = _world(s)
        items = [{"child_id": w.ava, "date": _day(n), "meal_id": w.plain} for n in range(5)]
        items += [
            {"child_id": w.ava, "date": _day(1), "meal_id": w.peanut},
            {"child_id": w.ava, "date": _day(4), "meal_id": w.milk},
            {"child_id": w.ava, "date": _day(4), "meal_id": w.milk, "allergy_ack": True},
            {"child_id": w.ben, "date": _day(1), "meal_id": w.pasta, "size": "large"},
            {"child_id": w.ben, "date": _day(4), "meal_id": w.plain},  # not at Ben's school
        ]
        answer = _added(
            booking.add_many(session=s, parent_id=w.parent_id, items=_lines(items), lang="fr"),
            "fr",
        )
        added = [(a["child_id"], a["date"], a["meal_id"]) for a in answer["added"]]
        assert added == [
            (w.ava, _day(1), w.plain),
            (w.ava, _day(4), w.plain),
            (w.ava, _day(4), w.milk),
            (w.ben, _day(1), w.pasta),
        ]
        assert _codes(answer) == [
            (_day(0), "meal_day_closed"),
            (_day(2), "menu_day_closed"),
            (_day(3), "meal_not_on_menu"),
            (_day(1), "allergy_refused"),
            (_day(4), "allergy_ack_required"),
            (_day(4), "meal_not_on_menu"),
        ]
        reasons = [r["reason"] for r in answer["refused"]]
        assert reasons[0] == "Les commandes et les modifications pour le lundi 2 mars sont fermées"
        assert reasons[1] == "Aucun repas le mercredi 4 mars : Journée pédagogique"
        assert reasons[3].startswith("Ce repas contient : ") and "majeure" in reasons[3]
        assert answer["refused"][0]["date_label"] == "lundi 2 mars"
        assert answer["added"][0]["meal"] == "Bol de riz"
        assert answer["message"] == "Repas ajoutés au panier : 4. Non ajoutés : 6."
        assert answer["cart_count"] == 4
        lines = s.exec(select(CartLine).where(CartLine.parent_id == w.parent_id)).all()
        assert len(lines) == 4
        acked = [line for line in lines if line.meal_id == w.milk]
        assert acked[0].allergy_ack.startswith("Je comprends") and acked[0].allergy_ack_at


def test_another_parents_child_refuses_the_whole_call(engine):
    with session_scope(engine) as s:
        w = _world(s)
        items = [
            {"child_id": w.ava, "date": _day(1), "meal_id": w.plain},
            {"child_id": w.stranger_child, "date": _day(1), "meal_id": w.plain},
        ]
        with pytest.raises(DomainError) as err:
            booking.add_many(session=s, parent_id=w.parent_id, items=_lines(items))
        assert err.value.code == "child_not_found"
        assert s.exec(select(CartLine).where(CartLine.parent_id == w.parent_id)).all() == []
        for bad in ([], "x", _lines([{"child_id": w.ava}] * (booking.ADD_MANY_MAX + 1))):
            with pytest.raises(DomainError):
                booking.add_many(session=s, parent_id=w.parent_id, items=bad)


def test_add_many_runs_a_fixed_number_of_statements(engine):
    with session_scope(engine) as s:
        w = _world(s)
    counts = []
    for n in (1, 10):
        items = [
            {
                "child_id": (w.ava, w.ben)[i % 2],
                "date": _day(1 + i % 4),
                "meal_id": (w.plain, w.pasta)[i % 2],
                "size": ("small", "large")[i % 2],
                "special_note": "no onions" if i == n - 1 else None,
            }
            for i in range(n)
        ]
        with session_scope(engine) as s, count_queries(engine) as queries:
            answer = booking.add_many(session=s, parent_id=w.parent_id, items=_lines(items))
        assert len(answer.added) >= 1
        counts.append((queries.count, queries.report()))
    assert counts[0][0] == counts[1][0], counts[1][1]


def _order(s, w: World, days: list[tuple[int, int]]) -> None:
    """A paid order for Ava on the source week: (weekday, meal id) lines."""
    order = Order(
        number=f"HM-R{w.parent_id}-{len(days)}",
        parent_id=w.parent_id,
        status="placed",
        tax_bps=1300,
        processing_fee_bps=0,
        processing_fee_fixed_cents=0,
    )
    s.add(order)
    s.flush()
    from hotmeals.db.models import MenuDay, MenuDayMeal, Portion

    for n, meal_id in days:
        day = SOURCE + timedelta(days=n)
        menu_day = s.exec(
            select(MenuDay)
            .join(MenuDayMeal, MenuDayMeal.menu_day_id == MenuDay.id)
            .where(MenuDay.meal_date == day, MenuDayMeal.meal_id == meal_id)
        ).all()
        portion = s.exec(select(Portion).where(Portion.meal_id == meal_id)).first()
        assert portion is not None
        s.add(
            OrderLine(
                order_id=order.id,
                child_id=w.ava,
                menu_day_id=menu_day[0].id,
                vendor_id=menu_day[0].vendor_id,
                meal_id=meal_id,
                portion_id=portion.id,
                meal_date=day,
                meal_name="x",
                size=portion.size,
                quantity=2,
                price_tiers="1:550",
                unit_price_cents=550,
                line_total_cents=1100,
            )
        )
    s.flush()


def test_repeat_week_copies_what_it_can_and_says_why_not_then_adds_nothing_more(engine):
    with session_scope(engine) as s:
        w = _world(s)
        _order(s, w, [(0, w.plain), (1, w.plain), (2, w.plain), (3, w.plain)])
        # Friday of the source week is in the cart (not paid)
        clock.set_now(datetime(2026, 2, 20, tzinfo=UTC))
        booking.add_many(
            session=s,
            parent_id=w.parent_id,
            items=_lines([{"child_id": w.ava, "date": _day(4, SOURCE), "meal_id": w.plain}]),
        )
        clock.set_now(NOW)
        done = repeat.repeat_week(
            session=s,
            parent_id=w.parent_id,
            child_id=w.ava,
            source_week_start=_day(2, SOURCE),  # any day of the week
            target_week_start=TARGET.isoformat(),
            lang="en",
        )
        first = repeated_out(done, "en")
        assert [(a["date"], a["quantity"]) for a in first["added"]] == [
            (_day(1), 2),
            (_day(4), 1),
        ]
        assert _codes(first) == [
            (_day(0), "meal_day_closed"),
            (_day(2), "menu_day_closed"),
            (_day(3), "meal_not_on_menu"),
        ]
        assert first["refused"][1]["reason"] == "No meals on Wednesday, March 4: PA Day – no school"
        assert first["refused"][2]["reason"] == "This meal is not on the menu of that day"
        assert first["refused"][0]["source_date"] == _day(0, SOURCE)
        assert first["message"] == "Meals copied to your cart: 2. Not copied: 3."
        again = repeat.repeat_week(
            session=s,
            parent_id=w.parent_id,
            child_id=w.ava,
            source_week_start=SOURCE.isoformat(),
            target_week_start=TARGET.isoformat(),
        )
        second = repeated_out(again, "en")
        assert second["added"] == [] and second["skipped_count"] == 2
        assert {k["code"] for k in second["skipped"]} == {"repeat_already_in_cart"}
        lines = s.exec(
            select(CartLine).where(CartLine.parent_id == w.parent_id, CartLine.child_id == w.ava)
        ).all()
        assert len(lines) == 3  # the source Friday and the two copies


def test_repeat_week_refuses_a_stranger_the_same_week_and_an_empty_week(engine):
    with session_scope(engine) as s:
        w = _world(s)
        cases = [
            (w.stranger_child, SOURCE, TARGET, "child_not_found"),
            (w.ava, TARGET, TARGET + timedelta(days=2), "repeat_same_week"),
            (w.ava, SOURCE, TARGET, "repeat_week_empty"),
        ]
        for child, source, target, code in cases:
            with pytest.raises(DomainError) as err:
                repeat.repeat_week(
                    session=s,
                    parent_id=w.parent_id,
                    child_id=child,
                    source_week_start=source.isoformat(),
                    target_week_start=target.isoformat(),
                )
            assert err.value.code == code


def test_repeat_week_runs_a_fixed_number_of_statements(engine):
    counts = []
    for n in (1, 10):
        with session_scope(engine) as s:
            w = _world(s)
            lines = [((1 + i) % 5, (w.plain, w.milk)[i // 5]) for i in range(n)]
            _order(s, w, lines)
        with session_scope(engine) as s, count_queries(engine) as queries:
            repeat.repeat_week(
                session=s,
                parent_id=w.parent_id,
                child_id=w.ava,
                source_week_start=SOURCE.isoformat(),
                target_week_start=TARGET.isoformat(),
            )
        counts.append((queries.count, queries.report()))
    assert counts[0][0] == counts[1][0], counts[1][1]


def test_week_choices_lists_each_childs_days_and_meals(engine):
    with session_scope(engine) as s:
        w = _world(s)
    # Counted in a transaction of its own, as a call runs (the menus then come from their
    # cached copy; a transaction that edited them reads them afresh: tests/integration/
    # test_menu_cache.py).
    with session_scope(engine) as s:
        with count_queries(engine) as queries:
            data = week_choices(
                session=s,
                parent_id=w.parent_id,
                child_ids=[w.ava, w.ben],
                from_date=TARGET.isoformat(),
                to_date=(TARGET + timedelta(days=4)).isoformat(),
                lang="en",
            )
        assert queries.count <= 8, queries.report()
        ava, ben = data.children
        assert [d.state for d in ava.days] == [
            "past_cutoff",
            "open",
            "closed",
            "open",
            "open",
        ]
        tuesday = ava.days[1]
        verdicts = {m.name: m.verdict.value for m in tuesday.meals}
        assert verdicts == {
            "Mac and cheese": "acknowledge",
            "Rice bowl": "safe",
            "Satay": "refused",
        }
        assert [m.name for m in ben.days[1].meals] == ["Pasta"]
        with pytest.raises(DomainError):
            week_choices(session=s, parent_id=w.parent_id, child_ids=[w.stranger_child])


def test_repeat_weeks_copies_each_sibling_at_their_own_school(engine):
    with session_scope(engine) as s:
        w = _world(s)
        clock.set_now(datetime(2026, 2, 20, tzinfo=UTC))
        booking.add_many(
            session=s,
            parent_id=w.parent_id,
            items=_lines(
                [{"child_id": w.ava, "date": _day(n, SOURCE), "meal_id": w.plain} for n in (1, 3)]
                + [{"child_id": w.ben, "date": _day(n, SOURCE), "meal_id": w.pasta} for n in (1, 2)]
            ),
        )
        clock.set_now(NOW)
        answer = repeat.repeat_weeks(
            session=s,
            parent_id=w.parent_id,
            child_ids=[w.ava, w.ben],
            source_week_start=SOURCE.isoformat(),
            target_week_start=TARGET.isoformat(),
            lang="en",
        )
        added = sorted((a.child_name, a.date.isoformat()) for a in answer.added)
        assert added == [("Ava", _day(1)), ("Ben", _day(1)), ("Ben", _day(2))]
        assert [(r.date and r.date.isoformat(), r.code) for r in answer.refused] == [
            (_day(3), "meal_not_on_menu")
        ]
        # the sentence the panel shows
        assert repeated_report(answer, "en")["message"] == (
            "Meals copied to your cart: 3. Not copied: 1."
        )
        with pytest.raises(DomainError) as err:
            repeat.repeat_weeks(
                session=s,
                parent_id=w.parent_id,
                child_ids=[w.ava, w.stranger_child],
                source_week_start=SOURCE.isoformat(),
                target_week_start=TARGET.isoformat(),
            )
        assert err.value.code == "child_not_found"
