"""The reminders parents switch on (services/reminders.py) on migrated SQLite and
PostgreSQL with the clock given: the cut-off reminder, the order reminder the night before and
menu updates reach the right families once (booked, switch off, closed day, no active child:
none), a second round or a racing one sends nothing more, a missed 18:00 is made up but not
after the cut-off, the unsubscribe link turns the switch off, and a round's statements do not
grow with the families."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

import pytest
from sqlalchemy import delete
from sqlmodel import select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import (
    Child,
    EmailOutbox,
    MenuDay,
    MenuDayMeal,
    NotificationPreference,
    Order,
    OrderLine,
    ReminderSent,
)
from hotmeals.domain.cutoff import TORONTO
from hotmeals.domain.errors import DomainError
from hotmeals.services import notifications, reminder_rows, reminders
from hotmeals.services.runtime import Runtime
from tests import factories as f
from tests.mailparts import received
from tests.querycount import count_queries

AT = time(18, 0)
# Vendor rule: one day before at 10:00. Wednesday 2026-03-11's cut-off is Tuesday 10:00;
# its cut-off reminder is due from Monday 18:00, its order reminder from Tuesday 18:00.
WED = date(2026, 3, 11)
THU = date(2026, 3, 12)


def local(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=TORONTO)


MON_EVENING = local(date(2026, 3, 9), 18, 5)
TUE_MORNING = local(date(2026, 3, 10), 9, 0)
TUE_AFTER_CUTOFF = local(date(2026, 3, 10), 10, 0)
TUE_EVENING = local(date(2026, 3, 10), 18, 5)


@dataclass
class World:
    open_: int  # no meal booked, French
    booked: int  # booked Wednesday (large)
    switched_off: int  # cut-off reminder off
    closed: int  # the only child's school is closed on Wednesday
    inactive: int  # the only child was deleted
    two: int  # two children: one booked, one not
    menu_day: int  # school S, Wednesday
    meal: int
    booked_line: int


def _order(s, parent, child, menu_day, meal, size="large") -> int:
    order = Order(
        number=f"HM-T{parent.id}-{child.id}",
        parent_id=parent.id,
        status="placed",
        tax_bps=1300,
        processing_fee_bps=0,
        processing_fee_fixed_cents=0,
    )
    s.add(order)
    s.flush()
    portion = f.portion_of(s, meal, size)
    line = OrderLine(
        order_id=order.id,
        child_id=child.id,
        menu_day_id=menu_day.id,
        vendor_id=menu_day.vendor_id,
        meal_id=meal.id,
        portion_id=portion.id,
        meal_date=menu_day.meal_date,
        meal_name=meal.name_en,
        size=size,
        quantity=1,
        price_tiers="1:700",
        unit_price_cents=700,
        line_total_cents=700,
    )
    s.add(line)
    s.flush()
    return line.id


def _world(s, *, extra_families: int = 0) -> World:
    school, closed_school = f.make_school(s), f.make_school(s)
    vendor = f.make_vendor(s, cutoff_days_before=1, cutoff_time="10:00")
    meal = f.make_meal(s, vendor, name_en="Butter chicken", name_fr="Poulet au beurre")
    days = {}
    for n in range(5):
        day = date(2026, 3, 9) + timedelta(days=n)
        days[day] = f.make_menu_day(s, school, vendor, day, [meal])
        f.make_menu_day(s, closed_school, vendor, day, closed=(day == WED), meals=[meal])
    open_ = f.make_parent(s, language="fr", first_name="Nora")
    f.make_child(s, open_, school=school, first_name="Emma")
    booked = f.make_parent(s)
    kid = f.make_child(s, booked, school=school, first_name="Lucas")
    line = _order(s, booked, kid, days[WED], meal)
    off = f.make_parent(s)
    f.make_child(s, off, school=school)
    s.add(NotificationPreference(parent_id=off.id, kind="cutoff_reminder", enabled=False))
    closed = f.make_parent(s)
    f.make_child(s, closed, school=closed_school)
    inactive = f.make_parent(s)
    gone = f.make_child(s, inactive, school=school)
    gone.is_active = False
    s.add(gone)
    two = f.make_parent(s)
    ada = f.make_child(s, two, school=school, first_name="Ada", is_default=True)
    f.make_child(s, two, school=school, first_name="Zoe")
    _order(s, two, ada, days[WED], meal, size="small")
    for _ in range(extra_families):
        f.make_child(s, f.make_parent(s), school=school)
    s.flush()
    return World(
        open_.id, booked.id, off.id, closed.id, inactive.id, two.id, days[WED].id, meal.id, line
    )


def _mails(engine, kind: str) -> list[EmailOutbox]:
    with session_scope(engine) as s:
        rows = s.exec(select(EmailOutbox).where(EmailOutbox.kind == kind)).all()
        for row in rows:
            s.expunge(row)
        return sorted(rows, key=lambda r: r.id)


def _to(engine, w: World, kind: str) -> list[str]:
    from hotmeals.db.models import Parent

    with session_scope(engine) as s:
        emails = {p.email: p.id for p in s.exec(select(Parent)).all()}
    families = ("open_", "booked", "switched_off", "closed", "inactive", "two")
    names = {getattr(w, k): k for k in families}
    return sorted(names[emails[m.to_address]] for m in _mails(engine, kind))


def _run(engine, now):
    return reminders.run(at=AT, runtime=Runtime(engine=engine, clock=lambda: now))


# --- cut-off reminder ---------------------------------------------------------------------------


def test_cutoff_reminder_goes_once_to_families_with_an_open_unbooked_day(engine):
    with session_scope(engine) as s:
        w = _world(s)
    assert _run(engine, local(date(2026, 3, 9), 17, 59)).cutoff == 0  # not yet
    assert _run(engine, MON_EVENING).cutoff == 2
    assert _to(engine, w, "cutoff_reminder") == ["open_", "two"]
    by_to = {m.to_address: m for m in _mails(engine, "cutoff_reminder")}
    french = next(m for m in by_to.values() if m.language == "fr")
    assert "mercredi 11 mars" in french.body_text and "Emma:" in french.body_text
    assert "commander avant le mardi 10 mars, 10 h 00" in french.body_text
    assert "/parent/edit-profile/meal-detailed?date=2026-03-11" in french.body_text
    two = next(m for m in by_to.values() if m.language == "en")
    assert "Zoe:" in two.body_text and "Ada" not in two.body_text  # Ada's Wednesday is booked
    assert "Wednesday, March 11" in two.body_text
    # A second round, and one the next morning before the cut-off, send nothing more.
    assert _run(engine, MON_EVENING + timedelta(minutes=5)).cutoff == 0
    assert _run(engine, TUE_MORNING).cutoff == 0
    assert len(_mails(engine, "cutoff_reminder")) == 2


def test_a_missed_evening_is_made_up_before_the_cutoff(engine):
    with session_scope(engine) as s:
        w = _world(s)
    assert _run(engine, TUE_MORNING).cutoff == 2  # the server was down at 18:00
    assert _to(engine, w, "cutoff_reminder") == ["open_", "two"]


def test_no_cutoff_reminder_once_the_cutoff_has_passed(engine):
    with session_scope(engine) as s:
        _world(s)
    assert _run(engine, TUE_AFTER_CUTOFF).cutoff == 0
    assert _mails(engine, "cutoff_reminder") == []


def test_switch_read_at_send_time(engine):
    with session_scope(engine) as s:
        w = _world(s)
        notifications.update_preferences(
            session=s, parent_id=w.open_, preferences={"cutoff_reminder": False}
        )
    _run(engine, MON_EVENING)
    assert _to(engine, w, "cutoff_reminder") == ["two"]


# --- order reminder -----------------------------------------------------------------------------


def test_order_reminder_the_night_before_lists_each_child(engine):
    with session_scope(engine) as s:
        w = _world(s)
    assert _run(engine, local(date(2026, 3, 10), 17, 0)).order == 0
    assert _run(engine, TUE_EVENING).order == 4
    # switched_off only turned the cut-off reminder off; closed and inactive have no child at
    # a school serving on Wednesday.
    assert _to(engine, w, "order_reminder") == ["booked", "open_", "switched_off", "two"]
    mails = {m.subject for m in _mails(engine, "order_reminder")}
    assert "Tomorrow: Lucas — Butter chicken (1 portion + upgrade)" in mails
    assert "Tomorrow: Ada — Butter chicken (1 portion) · Zoe — no lunch booked" in mails
    assert "Demain : Emma — aucun dîner réservé" in mails
    french = next(m for m in _mails(engine, "order_reminder") if m.language == "fr")
    got, html = received(french)  # as the parent's mail program gets it
    assert got.content_type == "multipart/alternative" and html.lang == "fr"
    assert got.body.strip() == french.body_text.strip()
    assert html.items == ["Emma — aucun dîner réservé"], html
    hrefs = [href for href, _ in html.links]
    assert len(hrefs) == 2 and "/parent/edit-profile/meal-detailed?date=" in hrefs[0]
    assert "/api/v1/mail/unsubscribe?token=" in hrefs[1]
    assert _run(engine, TUE_EVENING + timedelta(minutes=30)).order == 0
    assert len(_mails(engine, "order_reminder")) == 4


# --- menu updates -------------------------------------------------------------------------------


def test_menu_update_when_a_booked_day_closes_then_when_a_meal_is_withdrawn(engine):
    with session_scope(engine) as s:
        w = _world(s)
    assert _run(engine, MON_EVENING).menu == 0  # nothing changed
    with session_scope(engine) as s:
        day = s.get(MenuDay, w.menu_day)
        day.is_closed, day.closed_reason_en, day.closed_reason_fr = True, "Snow day", "Tempête"
        s.add(day)
    assert _run(engine, MON_EVENING).menu == 2  # booked and two (Ada)
    assert _to(engine, w, "menu_updates") == ["booked", "two"]
    body = next(m.body_text for m in _mails(engine, "menu_updates") if "Lucas" in m.body_text)
    assert "The school day is closed: Snow day" in body
    assert "cancel it in your orders before Tuesday, March 10" in body
    assert _run(engine, MON_EVENING + timedelta(minutes=5)).menu == 0
    # The day opens again without the meal: a new change, told once, after the cut-off now.
    with session_scope(engine) as s:
        day = s.get(MenuDay, w.menu_day)
        day.is_closed = False
        s.add(day)
        s.execute(delete(MenuDayMeal).where(MenuDayMeal.menu_day_id == w.menu_day))
    assert _run(engine, TUE_AFTER_CUTOFF).menu == 2
    latest = _mails(engine, "menu_updates")[-1].body_text
    assert "no longer on that day's menu" in latest and "we will refund it" in latest
    assert _run(engine, TUE_AFTER_CUTOFF).menu == 0


def test_menu_update_honours_the_switch_and_skips_cancelled_lines(engine):
    with session_scope(engine) as s:
        w = _world(s)
        s.add(NotificationPreference(parent_id=w.two, kind="menu_updates", enabled=False))
        line = s.get(OrderLine, w.booked_line)
        line.status = "cancelled"
        s.add(line)
        day = s.get(MenuDay, w.menu_day)
        day.is_closed = True
        s.add(day)
    assert _run(engine, MON_EVENING).menu == 0


# --- once, even racing --------------------------------------------------------------------------


def test_a_round_that_lost_the_race_sends_nothing(engine, monkeypatch):
    with session_scope(engine) as s:
        _world(s)
    assert _run(engine, MON_EVENING).cutoff == 2
    # A round that read before the first one committed: it does not see the rows, writes the
    # same ones, and the unique constraint makes it roll back (its mails with it).
    monkeypatch.setattr(reminder_rows, "already_sent", lambda session, **kw: set())
    assert _run(engine, MON_EVENING).cutoff == 0
    assert len(_mails(engine, "cutoff_reminder")) == 2


@pytest.mark.postgres
def test_two_concurrent_rounds_send_each_mail_once(engine):
    if engine.dialect.name != "postgresql":
        pytest.skip("SQLite serialises writers; the lease runs one round at a time there")
    with session_scope(engine) as s:
        _world(s, extra_families=6)
    start = threading.Barrier(2)
    errors: list[BaseException] = []

    def go():
        try:
            start.wait()
            _run(engine, TUE_EVENING)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=go) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    order = _mails(engine, "order_reminder")
    assert len(order) == len({m.to_address for m in order}) == 10


# --- unsubscribe --------------------------------------------------------------------------------


def test_unsubscribe_link_turns_that_switch_off(engine):
    with session_scope(engine) as s:
        w = _world(s)
    _run(engine, MON_EVENING)
    body = next(m.body_text for m in _mails(engine, "cutoff_reminder") if m.language == "fr")
    token = re.search(r"/api/v1/mail/unsubscribe\?token=([\w-]+)", body).group(1)
    with session_scope(engine) as s:
        assert reminders.unsubscribe(session=s, token=token) == "cutoff_reminder"
        assert reminders.unsubscribe(session=s, token=token) == "cutoff_reminder"  # again: fine
    with session_scope(engine) as s:
        prefs = notifications.get_preferences(session=s, parent_id=w.open_)
        assert prefs.cutoff_reminder is False and prefs.order_reminder is True
        with pytest.raises(DomainError):
            reminders.unsubscribe(session=s, token="x" * 32)
        assert s.exec(select(ReminderSent)).first() is not None


# --- statements ---------------------------------------------------------------------------------


def test_a_round_runs_the_same_statements_for_one_family_or_many(engine):
    counts = []
    for extra in (0, 8):
        with session_scope(engine) as s:
            # A fresh world per count: its own schools, so only its families are due.
            for child in s.exec(select(Child)).all():
                child.is_active = False
                s.add(child)
            w = _world(s, extra_families=extra)
            day = s.get(MenuDay, w.menu_day)
            day.is_closed = True
            s.add(day)
        with count_queries(engine) as queries:
            # Wednesday evening: Friday's cut-off reminder, Thursday's order reminder, and the
            # menu update of Wednesday's closed day, for every family of the world.
            result = _run(engine, local(WED, 18, 5))
        assert result.menu == 2 and result.order == 5 + extra and result.cutoff == 4 + extra
        counts.append(queries.count)
        assert queries.count <= 20, queries.report()  # 3 kinds × (reads + 2 INSERTs)
        with session_scope(engine) as s:
            s.execute(delete(ReminderSent))
    assert counts[0] == counts[1], counts


def test_with_smtp_the_mails_wait_in_the_outbox_for_the_mail_job(engine, monkeypatch):
    from hotmeals.services import mail
    from hotmeals.settings import get_settings

    monkeypatch.setenv("SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("SMTP_PORT", "1")  # nothing listens: the handover fails, the row waits
    get_settings.cache_clear()
    try:
        with session_scope(engine) as s:
            _world(s)
        assert _run(engine, MON_EVENING).cutoff == 2
        mail.drain()
        rows = _mails(engine, "cutoff_reminder")
        assert [r.status for r in rows] == ["PENDING", "PENDING"]
        assert all(r.next_attempt_at is not None for r in rows)
    finally:
        get_settings.cache_clear()


# --- demo data ----------------------------------------------------------------------------------


def test_the_demo_parent_gets_the_reminders_on_demo_data(engine):
    from hotmeals.db.seed_content import DEMO_PARENT
    from hotmeals.demo.seed import load_demo_data
    from tests.databases import SEED_TODAY

    with session_scope(engine) as s:
        load_demo_data(s, today=SEED_TODAY)
    result = _run(engine, local(SEED_TODAY, 18, 5))
    assert result.cutoff >= 1 and result.order >= 1
    demo = [
        m
        for kind in ("cutoff_reminder", "order_reminder")
        for m in _mails(engine, kind)
        if m.to_address == DEMO_PARENT["email"]
    ]
    assert sorted(m.kind for m in demo) == ["cutoff_reminder", "order_reminder"]
    order = next(m for m in demo if m.kind == "order_reminder")
    assert order.subject == "Tomorrow: Emma — no lunch booked · Lucas — no lunch booked"


def test_a_vendor_counting_school_days_is_reminded_on_thursday_for_monday(engine):
    with session_scope(engine) as s:
        school = f.make_school(s)
        vendor = f.make_vendor(s, cutoff_days_before=1, cutoff_time="10:00", skip_weekends=True)
        meal = f.make_meal(s, vendor)
        monday = date(2026, 3, 16)  # its cut-off: Friday 13th at 10:00
        f.make_menu_day(s, school, vendor, monday, [meal])
        parent = f.make_parent(s)
        f.make_child(s, parent, school=school, first_name="Mia")
        email = parent.email
    assert _run(engine, local(date(2026, 3, 12), 17, 0)).cutoff == 0
    assert _run(engine, local(date(2026, 3, 12), 18, 0)).cutoff == 1  # Thursday evening
    (sent,) = [m for m in _mails(engine, "cutoff_reminder") if m.to_address == email]
    assert "Monday, March 16 (order before Friday, March 13, 10:00" in sent.body_text
