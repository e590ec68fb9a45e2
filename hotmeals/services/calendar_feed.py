"""A family's private calendar feed: one iCal address per parent that Google
Calendar, Apple Calendar and Outlook subscribe to, with no session.

**The address** is ``{PUBLIC_BASE_URL}/api/v1/calendar/{token}.ics``. The token (43 URL-safe
characters, 256 bits) is the HMAC-SHA256 of the feed's random ``nonce`` under the server's feed
secret (``HOTMEALS_FEED_SECRET``); the database keeps the nonce and the token's SHA-256, never
the token, so a copy of the database does not open anyone's feed, and the account page can still
show the same link every time. ``rotate_feed`` ("Make a new link") draws a new nonce: the old
address answers 404 from then on; ``revoke_feed`` removes the feed.

**Its language** is the link's: the address the screens and ``GetFeed`` show ends in
``?lang=fr`` or ``?lang=en``, the language of the screen (or the request) that showed it, so a
link copied from the French screen gives a French feed; an address without it (or with another
value) speaks the parent's language (``Parent.language``).

**What it holds**:
- each booked meal (an active line with meals left, of a paid or delivered order): an all-day
  event (``VALUE=DATE``) "Emma — Butter chicken (1 portion + upgrade)", UID
  ``meal-<line id>@<host>``, so a moved meal moves and a cancelled one disappears on the next
  refresh;
- each closed school day (PA day, holiday) at an active child's school: an all-day event,
  UID ``closed-<school id>-<date>@<host>``;
- each cut-off of an open school day from today on: a timed event (UTC) in the half hour that
  ends at the cut-off, "Order by …", listing per child what is booked; when a child at that
  school has no meal booked for one of those days, a display alarm two hours before. UID
  ``cutoff-<parent id>-<instant>@<host>``.

Booked meals from ``HISTORY_DAYS`` ago on; closures and cut-offs of the menu days the schools
have published. Six statements whatever the number of children, meals or days.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from urllib.parse import urlsplit

from icalendar import Alarm, Calendar, Event
from sqlalchemy import select as select_columns
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from hotmeals.clock import now as utcnow
from hotmeals.db.models import (
    CalendarFeed,
    Child,
    Meal,
    MenuDay,
    Order,
    OrderLine,
    Parent,
    School,
    Vendor,
)
from hotmeals.domain.cutoff import TORONTO, cutoff_at
from hotmeals.domain.dates import long_day, short_moment
from hotmeals.i18n import normalize_lang, t, tn
from hotmeals.services import reminder_rows
from hotmeals.services.booked import ordered_meals
from hotmeals.services.ordering.days import cutoff_rule
from hotmeals.services.ordering.labels import size_label
from hotmeals.settings import get_settings

PATH_PREFIX = "/api/v1/calendar/"
HISTORY_DAYS = 60
CUTOFF_EVENT = timedelta(minutes=30)
ALARM_BEFORE = timedelta(hours=2)
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{43}$")


# -- the address --------------------------------------------------------------------------------


def _token_of(parent_id: int, nonce: str) -> str:
    key = get_settings().feed_secret.encode()
    digest = hmac.new(key, f"calendar-feed:{parent_id}:{nonce}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()).decode().rstrip("=")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def feed_url(token: str, lang: str | None = None) -> str:
    """The feed's address; with ``lang``, the feed speaks it (``?lang=``)."""
    address = f"{get_settings().public_base_url}{PATH_PREFIX}{token}.ics"
    return f"{address}?lang={normalize_lang(lang)}" if lang else address


@dataclass(frozen=True)
class FeedAddress:
    url: str
    webcal_url: str  # webcal:// opens the subscribe dialog of Apple Calendar and Outlook directly
    created_at: datetime


def _answer(row: CalendarFeed, lang: str | None) -> FeedAddress:
    token = _token_of(row.parent_id, row.nonce)
    url = feed_url(token, lang)
    return FeedAddress(
        url=url, webcal_url="webcal://" + url.split("://", 1)[1], created_at=row.created_at
    )


def _row(session: Session, parent_id: int) -> CalendarFeed | None:
    return session.exec(select(CalendarFeed).where(CalendarFeed.parent_id == parent_id)).first()


def _write_new_nonce(session: Session, row: CalendarFeed) -> None:
    """A new address for ``row``, written (the old one stops working)."""
    row.nonce = secrets.token_hex(16)
    row.token_hash = _hash(_token_of(row.parent_id, row.nonce))
    row.created_at = utcnow()
    session.add(row)
    session.flush()


def _first_feed(session: Session, parent_id: int) -> CalendarFeed:
    """The parent's first feed; two first asks at once (two tabs): one row wins, the other
    reads it."""
    try:
        with session.begin_nested():
            row = CalendarFeed(parent_id=parent_id, nonce="", token_hash="")
            _write_new_nonce(session, row)
            return row
    except IntegrityError:
        found = _row(session, parent_id)
        if found is None:
            raise
        return found


def get_feed(session: Session, *, parent_id: int, lang: str | None = None) -> FeedAddress:
    """The parent's feed address, made on first ask, speaking ``lang`` (None: the parent's
    language)."""
    row = _row(session, parent_id) or _first_feed(session, parent_id)
    token = _token_of(parent_id, row.nonce)
    if row.token_hash != _hash(token):
        # The feed secret changed: the address shown is the one that works from now on.
        row.token_hash = _hash(token)
        session.add(row)
        session.flush()
    return _answer(row, lang)


def rotate_feed(session: Session, *, parent_id: int, lang: str | None = None) -> FeedAddress:
    """A new address (speaking ``lang``, as ``get_feed``); the old one (if any) stops working
    at once."""
    row = _row(session, parent_id)
    if row is None:
        return _answer(_first_feed(session, parent_id), lang)
    _write_new_nonce(session, row)
    return _answer(row, lang)


def revoke_feed(session: Session, *, parent_id: int) -> bool:
    """No feed any more (True when there was one)."""
    row = _row(session, parent_id)
    if row is None:
        return False
    session.delete(row)
    session.flush()
    return True


# -- the feed -----------------------------------------------------------------------------------


def _host() -> str:
    return urlsplit(get_settings().public_base_url).hostname or "hotmeals"


def _meal_summary(child: str, meal: str, size: str, quantity: int, lang: str) -> str:
    text = t("feed.meal", lang, child=child, meal=meal, size=size_label(size, lang))
    return text if quantity == 1 else f"{text} ×{quantity}"


def build_feed(session: Session, *, token: str, lang: str | None = None) -> bytes | None:
    """The iCal text of the feed behind ``token``, in ``lang`` (the link's ``?lang=``; "en" or
    "fr", else the parent's language); None for an unknown or revoked one."""
    if not isinstance(token, str) or not _TOKEN.match(token):
        return None
    found = session.exec(
        select(Parent.id, Parent.language)
        .join(CalendarFeed, col(CalendarFeed.parent_id) == Parent.id)
        .where(CalendarFeed.token_hash == _hash(token), Parent.is_active)
    ).first()
    if found is None:
        return None
    parent_id, language = found
    lang = lang if lang in ("en", "fr") else normalize_lang(language)
    french = lang == "fr"
    moment = utcnow()
    today = moment.astimezone(TORONTO).date()
    host = _host()

    children = session.exec(
        select(Child)
        .where(Child.parent_id == parent_id)
        .order_by(col(Child.is_default).desc(), col(Child.first_name), col(Child.id))
    ).all()
    names = {c.id: c.first_name for c in children}
    active = [c for c in children if c.is_active]
    school_ids = sorted({c.school_id for c in active})

    lines = session.execute(
        select_columns(
            col(OrderLine.id),
            col(OrderLine.child_id),
            col(OrderLine.meal_date),
            col(OrderLine.meal_name),
            col(Meal.name_fr),
            col(OrderLine.size),
            col(OrderLine.quantity) - OrderLine.cancelled_quantity,
            col(OrderLine.menu_option_name),
            col(OrderLine.meal_option_name),
            col(Order.number),
        )
        .join(Order, col(Order.id) == OrderLine.order_id)
        .join(Meal, col(Meal.id) == OrderLine.meal_id)
        .where(
            col(Order.parent_id) == parent_id,
            *ordered_meals(),
            col(OrderLine.meal_date) >= today - timedelta(days=HISTORY_DAYS),
        )
        .order_by(col(OrderLine.meal_date), col(OrderLine.id))
    ).all()

    days: list[tuple[MenuDay, Vendor]] = []
    schools: dict[int, str] = {}
    with_meals: set[int] = set()
    if school_ids:
        days = list(
            session.exec(
                select(MenuDay, Vendor)
                .join(Vendor, col(Vendor.id) == MenuDay.vendor_id)
                .where(col(MenuDay.school_id).in_(school_ids), col(MenuDay.meal_date) >= today)
                .order_by(col(MenuDay.meal_date), col(MenuDay.school_id), col(MenuDay.id))
            ).all()
        )
        schools = {
            s.id or 0: s.name
            for s in session.exec(select(School).where(col(School.id).in_(school_ids))).all()
        }
        with_meals = reminder_rows.with_meals(
            session, [d.id or 0 for d, v in days if not d.is_closed and v.is_active]
        )

    cal = Calendar()
    cal.add("prodid", "-//Hot Meals//Calendar feed//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    title = t("feed.title", lang)
    cal.add("x-wr-calname", title)
    cal.add("name", title)
    cal.add("x-wr-timezone", "America/Toronto")
    cal.add("refresh-interval", timedelta(hours=4), parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", "PT4H")
    stamp = moment.astimezone(UTC).replace(microsecond=0)

    def event(uid: str, summary: str, description: str) -> Event:
        ev = Event()
        ev.add("uid", f"{uid}@{host}")
        ev.add("dtstamp", stamp)
        ev.add("summary", summary)
        if description:
            ev.add("description", description)
        return ev

    def all_day(ev: Event, day: date) -> None:
        ev.add("dtstart", day)
        ev.add("dtend", day + timedelta(days=1))
        ev.add("transp", "TRANSPARENT")

    booked: dict[tuple[int, date], list[str]] = defaultdict(list)
    for line_id, child_id, day, name_en, name_fr, size, left, menu_opt, meal_opt, number in lines:
        meal = (name_fr if french and name_fr else None) or name_en
        booked[(child_id, day)].append(meal)
        ev = event(
            f"meal-{line_id}",
            _meal_summary(names.get(child_id, ""), meal, size, left, lang),
            "\n".join(
                x
                for x in (
                    ", ".join(o for o in (menu_opt, meal_opt) if o),
                    t("feed.order_number", lang, number=number),
                )
                if x
            ),
        )
        all_day(ev, day)
        cal.add_component(ev)

    # Closures: a school day is closed when every menu day of it is.
    per_school_day: dict[tuple[int, date], list[MenuDay]] = defaultdict(list)
    for menu_day, _vendor in days:
        per_school_day[(menu_day.school_id, menu_day.meal_date)].append(menu_day)
    for (school_id, day), rows in sorted(
        per_school_day.items(), key=lambda kv: (kv[0][1], kv[0][0])
    ):
        if not all(r.is_closed for r in rows):
            continue
        reason = next(
            ((r.closed_reason_fr if french else r.closed_reason_en) for r in rows), ""
        ) or t("feed.closed_no_reason", lang)
        ev = event(
            f"closed-{school_id}-{day.isoformat()}",
            t("feed.closed", lang, reason=reason),
            t("feed.closed_text", lang, school=schools.get(school_id, "")),
        )
        ev.add("location", schools.get(school_id, ""))
        all_day(ev, day)
        cal.add_component(ev)

    # Cut-offs: open days with meals, grouped by the instant they close.
    closing: dict[datetime, dict[date, set[int]]] = defaultdict(lambda: defaultdict(set))
    for menu_day, vendor in days:
        if menu_day.is_closed or not vendor.is_active or menu_day.id not in with_meals:
            continue
        instant = cutoff_at(cutoff_rule(vendor), menu_day.meal_date)
        if instant <= moment:
            continue
        closing[instant][menu_day.meal_date].add(menu_day.school_id)
    for instant, dated in sorted(closing.items()):
        detail = []
        missing = False
        for day in sorted(dated):
            detail.append(long_day(day, lang))
            for child in active:
                if child.school_id not in dated[day]:
                    continue
                meals = booked.get((child.id or 0, day))
                if not meals:
                    missing = True
                state = ", ".join(meals) if meals else t("remind.order.none", lang)
                detail.append(
                    "  " + t("feed.child_state", lang, child=child.first_name, state=state)
                )
        first = min(dated)
        more = len(dated) - 1
        when, day = short_moment(instant, lang), long_day(first, lang)
        summary = (
            tn("feed.cutoff_more", more, lang, when=when, day=day)
            if more
            else t("feed.cutoff", lang, when=when, day=day)
        )
        ev = event(
            f"cutoff-{parent_id}-{instant.astimezone(UTC):%Y%m%dT%H%MZ}", summary, "\n".join(detail)
        )
        ev.add("dtstart", instant - CUTOFF_EVENT)
        ev.add("dtend", instant)
        ev.add("transp", "TRANSPARENT")
        if missing:
            alarm = Alarm()
            alarm.add("action", "DISPLAY")
            alarm.add("description", summary)
            alarm.add("trigger", -ALARM_BEFORE + CUTOFF_EVENT)
            ev.add_component(alarm)
        cal.add_component(ev)
    return cal.to_ical()
