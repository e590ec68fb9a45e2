"""'Book several days' on the Book meal screen: for one child or siblings,
pick several open days (this week, next week, the rest of the month, or day by day), a meal and
a size for each, then add them all at once; and 'Repeat last week'.

Thin: the days, menus and allergy verdicts are ``ordering.week.week_choices``; adding is
``ordering.booking.add_many`` and repeating ``ordering.repeat.repeat_weeks``, both through
AddToCart's one rule set and ``submissions.submit_once`` (a double tap adds once). Every
handler derives the parent from the token on that call (``acting_parent``); child ids, days
and meal ids from the browser are only looked up in what the service answered for that parent,
and the services check them again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Callable
from datetime import date, timedelta
from typing import Any

import reflex as rx

from hotmeals import clock
from hotmeals.domain.dates import long_day, long_moment
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.i18n import t as tr
from hotmeals.i18n import tn
from hotmeals.services import children
from hotmeals.services.ordering import booking, repeat, week
from hotmeals.services.ordering.booking import Booked, Outcome, Refused
from hotmeals.services.ordering.lines import LineRequest
from hotmeals.services.ordering.repeat import RepeatedWeeks, Skipped
from hotmeals.services.ordering.week import WeekMeal
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import (
    ActingParent,
    complete_parent,
    session_expired,
    sync_cart_count,
)
from hotmeals.ui.shared_state.children import ChildChoiceState
from hotmeals.ui.shared_state.forms import OnceForm, forget_submission, message, one_turn, submit
from hotmeals.ui.shared_state.ids import browser_id
from hotmeals.ui.shared_state.many_days_rows import (
    Choice,
    DayRow,
    ReportLine,
    fill_row,
    week_choices,
)
from hotmeals.ui.shared_state.screens import LoadedScreen, new_language
from hotmeals.ui.shared_state.toasts import failed, succeeded

RANGES = ("this_week", "next_week", "month")
SIZES = ("small", "large")


# The report of an adding, as ``submit_once`` keeps it (a repeat gets the same): its sentence,
# a ``ReportLine``'s fields for each line added, refused or skipped, the children with nothing
# to copy, and the cart's count.
def _booked_row(line: Booked, lang: str) -> list[str]:
    money = format_money(line.line_total_cents, lang)
    return [line.child_name, long_day(line.date, lang), line.meal, money]


def _refused_row(line: Refused, lang: str) -> list[str]:
    day = long_day(line.date, lang) if line.date else ""
    return [line.child_name, day, line.meal, line.reason]


def _skipped_row(line: Skipped, lang: str) -> list[str]:
    return [line.child_name, long_day(line.date, lang), line.meal, line.reason]


def added_report(outcome: Outcome, lang: str) -> dict[str, Any]:
    """'Add all': ``booking.add_many``'s outcome as the panel reports it."""
    added, refused = len(outcome.added), len(outcome.refused)
    return {
        "message": tr("booking_result", lang, added=added, refused=refused),
        "added": [_booked_row(line, lang) for line in outcome.added],
        "refused": [_refused_row(line, lang) for line in outcome.refused],
        "skipped": [],
        "empty": [],
        "added_count": added,
        "cart_count": outcome.cart_count,
    }


def repeated_report(done: RepeatedWeeks, lang: str) -> dict[str, Any]:
    """'Repeat last week': ``repeat.repeat_weeks``' answer as the panel reports it."""
    added, refused = len(done.added), len(done.refused)
    return {
        "message": tr("repeat_result", lang, added=added, refused=refused),
        "added": [_booked_row(line, lang) for line in done.added],
        "refused": [_refused_row(line, lang) for line in done.refused],
        "skipped": [_skipped_row(line, lang) for line in done.skipped],
        "empty": list(done.empty),
        "added_count": added,
        "cart_count": done.cart_count,
    }


class ManyDaysState(OnceForm, LoadedScreen, rx.State):
    """The 'Book several days' panel of /edit-profile/meal-detailed."""

    loading: bool = False
    kids: list[Choice] = []  # value: child id; disabled is "not chosen"
    chosen: list[str] = []  # child ids
    range_name: str = "this_week"
    rows: list[DayRow] = []
    error: str = ""
    report_title: str = ""
    report_added: list[ReportLine] = []
    report_refused: list[ReportLine] = []
    report_skipped: list[ReportLine] = []

    # repeat last week
    source_weeks: list[Choice] = []
    target_weeks: list[Choice] = []
    source_week: str = ""
    target_week: str = ""
    repeating: bool = False
    repeat_turn: int = 0
    lang_seen: str = "en"  # the language the rows were loaded in

    _meals: dict[str, tuple[WeekMeal, ...]] = {}  # row key -> the day's meals, the service's
    _added: bool = False  # the last _submit added

    # ---- derived ---------------------------------------------------------------------------
    @rx.var
    def picked_count(self) -> int:
        return sum(1 for r in self.rows if r.picked and r.meal_id)

    @rx.var
    def add_label(self) -> str:
        n = sum(1 for r in self.rows if r.picked and r.meal_id)
        key = "ui.many.add_none" if n == 0 else "ui.many.add_one" if n == 1 else "ui.many.add_n"
        return tr(key, self.lang_seen or "en", n=n)

    # ---- helpers (private) -----------------------------------------------------------------
    async def _who(self) -> tuple[ActingParent | None, str]:
        return await complete_parent(self)

    async def _load_kids(self, who: ActingParent) -> None:
        rows = await run_in_transaction(children.list_children, parent_id=who.parent_id)
        self.kids = [Choice(str(c.id), c.first_name) for c in rows]
        known = {k.value for k in self.kids}
        self.chosen = [c for c in self.chosen if c in known]
        if not self.chosen:
            current = (await self.get_state(ChildChoiceState)).child_id
            self.chosen = [current] if current in known else [k.value for k in self.kids[:1]]

    async def _load_rows(self, who: ActingParent) -> None:
        self.error = ""
        self._lang = self.lang_seen = who.lang
        if not self.chosen:
            self.rows, self._meals = [], {}
            return
        start, end = week.quick_range(self.range_name, clock.today())
        try:
            data = await run_in_transaction(
                week.week_choices,
                parent_id=who.parent_id,
                child_ids=[browser_id(c) for c in self.chosen],
                from_date=start.isoformat(),
                to_date=end.isoformat(),
                lang=who.lang,
            )
        except DomainError as err:
            self.rows, self._meals = [], {}
            self.error = message(err, who.lang)
            return
        previous = {r.key: r for r in self.rows}
        rows: list[DayRow] = []
        meals: dict[str, tuple[WeekMeal, ...]] = {}
        for child in data.children:
            for day in child.days:
                key = f"{child.child_id}|{day.day.isoformat()}"
                meals[key] = day.meals
                marks = []
                if day.cart_quantity:
                    marks.append(tr("ui.many.in_cart", who.lang, n=day.cart_quantity))
                if day.ordered_quantity:
                    marks.append(tn("ui.many.ordered", day.ordered_quantity, who.lang))
                when = long_moment(day.cutoff_at, who.lang)
                row = DayRow(
                    key=key,
                    child_name=child.child_name.split(" ")[0],
                    date=day.day.isoformat(),
                    label=long_day(day.day, who.lang),
                    state=day.state,
                    note=day.note or tr("ui.book.cutoff", who.lang, when=when),
                    marks=" · ".join(marks),
                )
                before = previous.get(key)
                open_day = day.state == "open" and bool(day.meals)
                row.picked = (
                    before.picked
                    if before is not None
                    else open_day and not day.cart_quantity and not day.ordered_quantity
                )
                row.picked = row.picked and open_day
                wanted = before.meal_id if before is not None else ""
                fill_row(row, meals[key], wanted, before.size if before else "small", who.lang)
                rows.append(row)
        self._meals = meals
        self.rows = rows
        if not rows:
            self.error = tr("ui.many.no_days", who.lang)

    def _row(self, key: str) -> int:
        return next((i for i, r in enumerate(self.rows) if r.key == str(key)), -1)

    def _put(self, index: int, row: DayRow) -> None:
        rows = list(self.rows)
        rows[index] = row
        self.rows = rows
        forget_submission(self)

    def _weeks(self, lang: str) -> None:
        monday = clock.today() - timedelta(days=clock.today().weekday())
        self.source_weeks, self.target_weeks = week_choices(monday, lang)
        sources = {c.value for c in self.source_weeks}
        targets = {c.value for c in self.target_weeks}
        if self.source_week not in sources:
            self.source_week = self.source_weeks[0].value
        if self.target_week not in targets:
            self.target_week = self._next_open_week(monday)

    def _next_open_week(self, monday: date) -> str:
        """This week when one of its days is still open for a chosen child, else next week."""
        end = monday + timedelta(days=6)
        for row in self.rows:
            if row.state == "open" and monday.isoformat() <= row.date <= end.isoformat():
                return monday.isoformat()
        return (monday + timedelta(days=7)).isoformat()

    def _clear_report(self) -> None:
        self.report_title = ""
        self.report_added, self.report_refused, self.report_skipped = [], [], []

    def _report(self, result: dict[str, Any], lang: str) -> None:
        """The report of an adding (``added_report`` / ``repeated_report``, as kept)."""
        self.report_title = str(result["message"])
        self.report_added = [ReportLine(*row) for row in result["added"]]
        self.report_refused = [ReportLine(*row) for row in result["refused"]]
        self.report_skipped = [ReportLine(*row) for row in result["skipped"]]
        for name in result["empty"]:
            self.report_refused.append(
                ReportLine(
                    str(name),
                    "",
                    "",
                    tr(
                        "repeat_week_empty",
                        lang,
                        date=long_day(date.fromisoformat(self.source_week), lang),
                    ),
                )
            )

    # ---- events ----------------------------------------------------------------------------
    @rx.event
    async def open(self) -> AsyncIterator[Any]:
        """The panel is shown: the children and this week's days (one service call)."""
        who, lang = await self._who()
        self.busy = self.repeating = False
        self._clear_report()
        if who is None:
            self.rows, self.kids, self.loaded = [], [], False
            return
        self.loading = True
        yield
        await self._load_kids(who)
        await self._load_rows(who)
        if self.range_name == "this_week" and not any(r.state == "open" for r in self.rows):
            self.range_name = "next_week"  # nothing left to book this week
            await self._load_rows(who)
        self._weeks(lang)
        self.loading = False
        self.loaded = True

    @rx.event
    async def relang(self) -> None:
        lang = await new_language(self)
        if lang is None:
            return
        who, _ = await self._who()
        if who is None:
            return
        await self._load_rows(who)
        self._weeks(lang)
        self._clear_report()

    @rx.event
    async def toggle_child(self, child_id: str, checked: bool) -> Any:
        who, lang = await self._who()
        if who is None:
            return session_expired(lang)
        value = str(child_id)
        if value not in {k.value for k in self.kids}:
            return None
        chosen = [c for c in self.chosen if c != value]
        if checked:
            chosen.append(value)
        if not chosen:
            return None  # at least one child
        self.chosen = [k.value for k in self.kids if k.value in chosen]
        forget_submission(self)
        await self._load_rows(who)
        return None

    @rx.event
    async def pick_range(self, name: str) -> Any:
        who, lang = await self._who()
        if who is None:
            return session_expired(lang)
        if name not in RANGES:
            return None
        self.range_name = name
        forget_submission(self)
        self._clear_report()
        await self._load_rows(who)
        for index, row in enumerate(self.rows):  # a quick pick picks every open day of it
            if row.state == "open" and row.meal_id and not row.picked:
                self._put(index, dataclasses.replace(row, picked=True))
        return None

    @rx.event
    def toggle_day(self, key: str, checked: bool) -> None:
        index = self._row(key)
        if index < 0:
            return
        row = self.rows[index]
        if row.state != "open" or not row.meal_id:
            return
        self._put(index, dataclasses.replace(row, picked=bool(checked)))

    @rx.event
    def set_meal(self, key: str, meal_id: str) -> None:
        index = self._row(key)
        if index < 0:
            return
        row = dataclasses.replace(self.rows[index])
        served = {str(m.meal_id) for m in self._meals.get(row.key, ())}
        if str(meal_id) not in served:
            return
        fill_row(row, self._meals[row.key], str(meal_id), row.size, self._lang or "en")
        row.ack = False
        row.diet_ack = False
        row.picked = row.state == "open" and bool(row.meal_id)
        self._put(index, row)

    @rx.event
    def set_size(self, key: str, size: str) -> None:
        index = self._row(key)
        if index < 0 or size not in {c.value for c in self.rows[index].sizes}:
            return
        self._put(index, dataclasses.replace(self.rows[index], size=str(size)))

    @rx.event
    def set_ack(self, key: str, checked: bool) -> None:
        index = self._row(key)
        if index < 0:
            return
        self._put(index, dataclasses.replace(self.rows[index], ack=bool(checked)))

    @rx.event
    def set_diet_ack(self, key: str, checked: bool) -> None:
        """ "Book it anyway" on a day whose meal does not fit the child's diet."""
        index = self._row(key)
        if index < 0:
            return
        self._put(index, dataclasses.replace(self.rows[index], diet_ack=checked is True))

    @rx.event
    def set_source_week(self, value: str) -> None:
        if value in {c.value for c in self.source_weeks}:
            self.source_week = value
            forget_submission(self)

    @rx.event
    def set_target_week(self, value: str) -> None:
        if value in {c.value for c in self.target_weeks}:
            self.target_week = value
            forget_submission(self)

    @rx.event
    async def add_all(self) -> AsyncIterator[Any]:
        async for event in self._adding("busy", self._add_all):
            yield event

    async def _add_all(self, who: ActingParent, lang: str) -> AsyncIterator[Any]:
        items = []
        requests = []
        for row in self.rows:
            if not (row.picked and row.meal_id and row.state == "open"):
                continue
            child_id, _, day = row.key.partition("|")
            size = row.size if row.size in SIZES else "small"
            items.append(
                {
                    "child_id": child_id,
                    "date": day,
                    "meal_id": row.meal_id,
                    "size": size,
                    "allergy_ack": bool(row.ack),
                    "diet_ack": bool(row.diet_ack),
                }
            )
            requests.append(
                LineRequest(
                    child_id=browser_id(child_id),
                    meal_id=browser_id(row.meal_id),
                    date=day,
                    size=size,
                    allergy_ack=bool(row.ack),
                    diet_ack=bool(row.diet_ack),
                )
            )
        if not items:
            yield failed(tr("booking_no_items", lang))
            return
        picked = {r.key for r in self.rows if r.picked}
        async for event in self._submit(
            who,
            lang,
            "busy",
            "add_many_to_cart",
            booking.add_many,
            items,
            {"items": requests, "present": lambda outcome: added_report(outcome, lang)},
            say_none=True,
        ):
            yield event
        if self._added:
            # The days now show what is in the cart; what was added is no longer picked.
            self.rows = [
                dataclasses.replace(r, picked=False) if r.key in picked else r for r in self.rows
            ]

    def _adding(
        self,
        flag: str,
        body: Callable[[ActingParent, str], AsyncIterator[Any]],
        counter: str = "turn",
    ) -> AsyncIterator[Any]:
        """One tap of an adding button (``flag`` its busy var, ``counter`` its ``one_turn``
        counter): nothing while ``flag`` is set, the session-expired toast when no parent with
        a complete profile acts, else ``body`` for that parent and the language."""
        return one_turn(self, self._for_parent(flag, body), counter)

    async def _for_parent(
        self, flag: str, body: Callable[[ActingParent, str], AsyncIterator[Any]]
    ) -> AsyncIterator[Any]:
        if getattr(self, flag):
            return
        who, lang = await self._who()
        if who is None:
            yield session_expired(lang)
            return
        async for event in body(who, lang):
            yield event

    async def _submit(
        self,
        who: ActingParent,
        lang: str,
        flag: str,
        action: str,
        fn: Callable[..., Any],
        key: Any,
        arguments: dict[str, Any],
        say_none: bool = False,
    ) -> AsyncIterator[Any]:
        """Send the adding once (``submit_once``: the same ``key`` again adds nothing), with
        ``flag`` set meanwhile; the report, the header's count, the toast (``say_none``: one
        when nothing was added too), then the days again. ``_added``: whether it added (not
        a repeat, not refused)."""
        self._added = False
        setattr(self, flag, True)
        self._clear_report()
        yield
        try:
            done = await submit(self, who, key, action, fn, lang=lang, **arguments)
        except DomainError as err:
            setattr(self, flag, False)
            yield failed(message(err, lang))
            return
        setattr(self, flag, False)
        result = done.result
        self._report(result, lang)
        if done.repeated:
            return
        await sync_cart_count(self, int(result["cart_count"]))
        forget_submission(self)
        if result["added_count"]:
            yield succeeded(result["message"])
        elif say_none:
            yield failed(result["message"])
        await self._load_rows(who)
        self._added = True

    @rx.event
    async def repeat(self) -> AsyncIterator[Any]:
        async for event in self._adding("repeating", self._repeat, "repeat_turn"):
            yield event

    async def _repeat(self, who: ActingParent, lang: str) -> AsyncIterator[Any]:
        payload = {
            "child_ids": list(self.chosen),
            "source_week_start": self.source_week,
            "target_week_start": self.target_week,
        }
        arguments = {
            "child_ids": [browser_id(c) for c in self.chosen],
            "source_week_start": self.source_week,
            "target_week_start": self.target_week,
            "present": lambda done: repeated_report(done, lang),
        }
        async for event in self._submit(
            who, lang, "repeating", "repeat_week", repeat.repeat_weeks, payload, arguments
        ):
            yield event
