"""The private calendar feed (services/calendar_feed.py) on migrated SQLite
and PostgreSQL, read back with the icalendar library: booked meals as all-day events, closures,
cut-offs with their alarm, in the parent's language, UIDs stable across fetches, a new link
revoking the old one, and the token never stored."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest
from icalendar import Calendar
from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import CalendarFeed, Order, OrderLine
from hotmeals.domain.cutoff import TORONTO
from hotmeals.services import calendar_feed
from tests import factories as f

WED = date(2026, 3, 11)
THU = date(2026, 3, 12)
FRI = date(2026, 3, 13)
NOW = datetime.combine(date(2026, 3, 9), time(12, 0), tzinfo=TORONTO)  # Monday noon


def _world(s, *, lang: str) -> dict:
    school = f.make_school(s, name="Rideau Public School")
    vendor = f.make_vendor(s, cutoff_days_before=1, cutoff_time="10:00")
    meal = f.make_meal(s, vendor, name_en="Butter chicken", name_fr="Poulet au beurre")
    days = {
        day: f.make_menu_day(s, school, vendor, day, [meal], closed=(day == FRI))
        for day in (WED, THU, FRI)
    }
    parent = f.make_parent(s, language=lang)
    emma = f.make_child(s, parent, school=school, first_name="Emma", is_default=True)
    f.make_child(s, parent, school=school, first_name="Lucas")
    order = Order(
        number=f"HM-F{parent.id}",
        parent_id=parent.id,
        status="placed",
        tax_bps=1300,
        processing_fee_bps=0,
        processing_fee_fixed_cents=0,
    )
    s.add(order)
    s.flush()
    line = OrderLine(
        order_id=order.id,
        child_id=emma.id,
        menu_day_id=days[WED].id,
        vendor_id=vendor.id,
        meal_id=meal.id,
        portion_id=f.portion_of(s, meal, "large").id,
        meal_date=WED,
        meal_name="Butter chicken",
        size="large",
        quantity=1,
        price_tiers="1:700",
        unit_price_cents=700,
        line_total_cents=700,
    )
    s.add(line)
    other = f.make_parent(s)
    f.make_child(s, other, school=school, first_name="Other")
    s.flush()
    return {"parent": parent.id, "other": other.id, "line": line.id}


def _fetch(engine, url: str) -> Calendar | None:
    """What a calendar app gets from ``url`` (its token and its ``?lang=``)."""
    address, _, query = url.partition("?")
    token = address.rsplit("/", 1)[1].removesuffix(".ics")
    lang = query.removeprefix("lang=") if query else None
    with session_scope(engine) as s:
        clock.set_now(NOW)
        body = calendar_feed.build_feed(s, token=token, lang=lang)
    return None if body is None else Calendar.from_ical(body)


def _events(cal: Calendar) -> dict[str, object]:
    return {str(e["UID"]): e for e in cal.walk("VEVENT")}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_feed_lists_meals_closures_and_cutoffs_in_the_parents_language(engine, lang):
    with session_scope(engine) as s:
        w = _world(s, lang=lang)
        url = calendar_feed.get_feed(s, parent_id=w["parent"]).url
    cal = _fetch(engine, url)
    assert cal is not None
    assert str(cal["VERSION"]) == "2.0" and "Hot Meals" in str(cal["PRODID"])
    events = _events(cal)
    host = "localhost"
    meal = events[f"meal-{w['line']}@{host}"]
    french = lang == "fr"
    assert str(meal["SUMMARY"]) == (
        "Emma — Poulet au beurre (1 portion + upgrade)"
        if french
        else "Emma — Butter chicken (1 portion + upgrade)"
    )
    assert meal["DTSTART"].dt == WED and meal["DTSTART"].params.get("VALUE") == "DATE"
    assert meal["DTEND"].dt == THU
    assert meal["DTSTAMP"].dt.tzinfo is not None
    closed = next(e for uid, e in events.items() if uid.startswith("closed-"))
    assert closed["DTSTART"].dt == FRI
    assert ("Journée pédagogique" if french else "PA Day – no school") in str(closed["SUMMARY"])
    cutoffs = sorted(
        (e for uid, e in events.items() if uid.startswith("cutoff-")), key=lambda e: e["DTEND"].dt
    )
    # Wednesday closes Tuesday 10:00, Thursday Wednesday 10:00; Friday is closed: no cut-off.
    assert [e["DTEND"].dt for e in cutoffs] == [
        datetime(2026, 3, 10, 14, 0, tzinfo=UTC),
        datetime(2026, 3, 11, 14, 0, tzinfo=UTC),
    ]
    tuesday = cutoffs[0]
    assert str(tuesday["SUMMARY"]).startswith("Commander avant" if french else "Order by")
    text = str(tuesday["DESCRIPTION"])
    assert ("Emma : Poulet au beurre" if french else "Emma: Butter chicken") in text
    assert ("Lucas: no lunch booked" in text) != french
    # Lucas has nothing on Wednesday: an alarm before that cut-off.
    assert tuesday.walk("VALARM")
    assert len(events) == 4  # nothing of the other family


def test_the_feed_speaks_the_language_of_the_screen_that_showed_its_link(engine):
    """An English parent reading the French screen copies a French feed (and a new link made
    there stays French); the address alone speaks the parent's language."""
    with session_scope(engine) as s:
        w = _world(s, lang="en")
        french = calendar_feed.get_feed(s, parent_id=w["parent"], lang="fr").url
        rotated = calendar_feed.rotate_feed(s, parent_id=w["parent"], lang="fr").url
    assert french.endswith(".ics?lang=fr") and rotated.endswith(".ics?lang=fr")
    for url, meal in [
        (rotated, "Emma — Poulet au beurre (1 portion + upgrade)"),
        (rotated.partition("?")[0], "Emma — Butter chicken (1 portion + upgrade)"),
        (rotated.partition("?")[0] + "?lang=xx", "Emma — Butter chicken (1 portion + upgrade)"),
    ]:
        cal = _fetch(engine, url)
        assert cal is not None
        summaries = {str(e["SUMMARY"]) for e in cal.walk("VEVENT")}
        assert meal in summaries, (url, summaries)
    cal = _fetch(engine, rotated)
    assert cal is not None and "Commander avant" in str(cal.walk("VEVENT")[-1]["SUMMARY"])
    assert _fetch(engine, french) is None  # the old link stopped working, whatever its lang


def test_uids_are_stable_and_a_new_link_revokes_the_old_one(engine):
    with session_scope(engine) as s:
        w = _world(s, lang="en")
        first = calendar_feed.get_feed(s, parent_id=w["parent"])
        again = calendar_feed.get_feed(s, parent_id=w["parent"])
    assert first.url == again.url and first.url.endswith(".ics")
    token = first.url.rsplit("/", 1)[1].removesuffix(".ics")
    assert len(token) == 43
    one, two = _fetch(engine, first.url), _fetch(engine, first.url)
    assert one is not None and two is not None
    assert set(_events(one)) == set(_events(two))
    with session_scope(engine) as s:
        row = s.exec(select(CalendarFeed).where(CalendarFeed.parent_id == w["parent"])).one()
        assert token not in (row.nonce, row.token_hash)  # the token is never stored
        new = calendar_feed.rotate_feed(s, parent_id=w["parent"])
    assert new.url != first.url
    assert _fetch(engine, first.url) is None
    assert _fetch(engine, new.url) is not None
    with session_scope(engine) as s:
        assert calendar_feed.revoke_feed(s, parent_id=w["parent"])
    assert _fetch(engine, new.url) is None
    with session_scope(engine) as s:
        assert calendar_feed.build_feed(s, token="../../etc") is None
        assert calendar_feed.build_feed(s, token=12) is None


def test_a_cancelled_meal_leaves_the_feed(engine):
    with session_scope(engine) as s:
        w = _world(s, lang="en")
        url = calendar_feed.get_feed(s, parent_id=w["parent"]).url
        line = s.get(OrderLine, w["line"])
        line.cancelled_quantity = 1
        line.status = "cancelled"
        s.add(line)
    cal = _fetch(engine, url)
    assert cal is not None
    assert not any(uid.startswith("meal-") for uid in _events(cal))


def test_two_first_asks_at_once_make_one_feed(engine, monkeypatch):
    with session_scope(engine) as s:
        w = _world(s, lang="en")
        first = calendar_feed.get_feed(s, parent_id=w["parent"])
    # The second ask read "no feed yet" before the first one's row was committed.
    real = calendar_feed._row
    calls = []

    def stale(session, parent_id):
        calls.append(parent_id)
        return None if len(calls) == 1 else real(session, parent_id)

    monkeypatch.setattr(calendar_feed, "_row", stale)
    with session_scope(engine) as s:
        second = calendar_feed.get_feed(s, parent_id=w["parent"])
    assert second.url == first.url
    with session_scope(engine) as s:
        rows = s.exec(select(CalendarFeed).where(CalendarFeed.parent_id == w["parent"])).all()
        assert len(rows) == 1
