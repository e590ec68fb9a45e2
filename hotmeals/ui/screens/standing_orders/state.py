"""Standing orders: the /standing-orders screen (list, pause, resume, end)
and the "Repeat every <weekday>" choice of Book meal's meal dialog and of a booked meal on the
order details screen
(``services/standing.py``). Every handler derives the parent from the token on that call
(``acting_parent``); the ids it is sent are the service's to check."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import date
from typing import Any

import reflex as rx

from hotmeals import clock
from hotmeals.domain.dates import short_day, weekday_name
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.services import standing
from hotmeals.services.standing import StandingView
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.screens.book_meal.meal_dialog_state import dialog_meal
from hotmeals.ui.screens.book_meal.state import BookingState
from hotmeals.ui.shared_state.auth import acting_parent, session_expired
from hotmeals.ui.shared_state.forms import focus_field, form_call, message
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.ids import browser_id
from hotmeals.ui.shared_state.screens import RelangScreen
from hotmeals.ui.shared_state.toasts import failed, succeeded

STANDING_ROUTE = "/standing-orders"
DONE = {"pause": "standing_paused", "resume": "standing_resumed", "end": "standing_ended_ok"}
UNTIL = ("term", "year", "date")


@dataclass
class StandingRow:
    id: str = ""
    summary: str = ""
    status: str = ""
    status_label: str = ""
    ends_label: str = ""
    next_label: str = ""
    last_label: str = ""


def _row(view: StandingView, lang: str) -> StandingRow:
    words = standing.wording(view, lang)
    return StandingRow(
        id=str(view.id),
        summary=words.summary,
        status=view.status,
        status_label=words.status_label,
        ends_label=words.ends_label,
        next_label=words.next_label,
        last_label=words.last_label,
    )


class StandingState(RelangScreen, rx.State):
    """/standing-orders."""

    rows: list[StandingRow] = []
    busy_id: str = ""
    end_id: str = ""  # the standing order whose "End" asks "Are you sure?"
    end_open: bool = False

    async def _load(self) -> bool:
        lang = (await self.get_state(I18nState)).lang
        who = await acting_parent(self)
        if who is None:
            self.rows, self.loaded = [], False
            return False
        found = await run_in_transaction(standing.listing, parent_id=who.parent_id)
        self.rows = [_row(view, lang) for view in found]
        self.loaded = True
        self._lang = lang
        return True

    @rx.event
    async def load(self) -> None:
        self.loaded = False
        self.busy_id, self.end_id, self.end_open = "", "", False
        await self._load()

    @rx.event
    def ask_end(self, standing_id: str) -> None:
        self.end_id = str(standing_id)[:12]
        self.end_open = True

    @rx.event
    def set_end_open(self, value: bool) -> None:
        self.end_open = bool(value)

    @rx.event
    async def confirm_end(self) -> AsyncIterator[Any]:
        async for event in self._act(self.end_id, "end"):
            yield event
        self.end_open = False

    @rx.event
    async def act(self, standing_id: str, action: str) -> AsyncIterator[Any]:
        """Pause or resume (End goes through ``ask_end`` / ``confirm_end``)."""
        if action not in ("pause", "resume"):
            return
        async for event in self._act(standing_id, action):
            yield event

    async def _act(self, standing_id: str, action: str) -> AsyncIterator[Any]:
        lang = (await self.get_state(I18nState)).lang
        if self.busy_id:
            return
        self.busy_id = str(standing_id)[:12]
        yield
        who = await acting_parent(self)
        if who is None:
            self.busy_id = ""
            yield session_expired(lang)
            return
        try:
            await run_in_transaction(
                standing.change,
                parent_id=who.parent_id,
                standing_id=browser_id(standing_id),
                action=action,
            )
        except DomainError as err:
            self.busy_id = ""
            yield failed(message(err, lang))
            return
        await self._load()
        self.busy_id = ""
        yield succeeded(tr(DONE[action], lang))
        # the button tapped is gone: the focus goes to the one in its place (Pause <-> Resume)
        other = {"pause": "resume", "resume": "pause"}.get(action)
        if other and any(r.id == str(standing_id) for r in self.rows):
            yield focus_field(f"standing-{standing_id}-{other}")


class RepeatState(rx.State):
    """The meal dialog's "Repeat every <weekday>" choice: the meal, size, child and day are
    the dialog's own (read on the server from ``BookingState``), never the browser's."""

    open: bool = False
    until: str = "term"
    ends_on: str = ""
    busy: bool = False
    done: str = ""  # "Standing order set up" with a link to the screen, once created

    @rx.event
    def toggle(self) -> None:
        self.open = not self.open
        self.done = ""

    @rx.event
    def set_until(self, value: str) -> None:
        self.until = value if value in UNTIL else "term"

    @rx.event
    def set_ends_on(self, value: str) -> None:
        self.ends_on = str(value)[:10]

    label: str = ""  # "Repeat every Monday"
    term_label: str = ""  # "End of term (Monday, January 25)"
    year_label: str = ""

    @rx.event
    async def prepare(self) -> None:
        """The dialog's section mounted (a meal opened): start afresh, named for its day."""
        self.open, self.until, self.ends_on, self.busy, self.done = False, "term", "", False, ""
        self.line_open, self._line_id = False, 0
        lang = (await self.get_state(I18nState)).lang
        picked = (await self.get_state(BookingState)).selected_date
        try:
            day = date.fromisoformat(picked)
        except ValueError:
            self.label = ""
            return
        self._labels(day, lang)

    # The order details' "Repeat every <weekday>" on a booked meal: a dialog of its own, for
    # the order line checked on the server (``_line_id``) when it opened.
    line_open: bool = False
    _line_id: int = 0

    def _labels(self, day: date, lang: str) -> None:
        self.label = tr("standing_ui.repeat", lang, weekday=weekday_of(day.isoformat(), lang))
        first = standing.next_weekday(max(day, clock.today()), day.weekday())
        term = standing.last_weekday(standing.term_end(first), day.weekday())
        year = standing.last_weekday(standing.year_end(first), day.weekday())
        # Short (no weekday): the choice fits a phone's select.
        self.term_label = tr("standing_ui.until_term", lang, day=short_day(term, lang))
        self.year_label = tr("standing_ui.until_year", lang, day=short_day(year, lang))

    @rx.event
    async def open_line(self, order_line_id: str) -> AsyncIterator[Any]:
        """A booked meal's "Repeat every <weekday>": the line is loaded on the server for the
        parent of the token (another parent's, or a cancelled one, is refused)."""
        lang = (await self.get_state(I18nState)).lang
        self.open, self.until, self.ends_on, self.busy, self.done = True, "term", "", False, ""
        who = await acting_parent(self)
        if who is None:
            yield session_expired(lang)
            return
        try:
            line = await run_in_transaction(
                standing.booked_line,
                parent_id=who.parent_id,
                order_line_id=browser_id(order_line_id),
            )
        except DomainError as err:
            self.line_open, self._line_id = False, 0
            yield failed(message(err, lang))
            return
        self._line_id = line.id or 0
        self._labels(line.meal_date, lang)
        self.line_open = True

    @rx.event
    def set_line_open(self, value: bool) -> None:
        self.line_open = bool(value)
        if not self.line_open:
            self._line_id = 0

    @rx.event
    async def create(self) -> AsyncIterator[Any]:
        lang = (await self.get_state(I18nState)).lang
        if self.busy:
            return
        if self.line_open and self._line_id:
            async for event in self._create(
                lang, standing.create_from_line, order_line_id=self._line_id
            ):
                yield event
            return
        booking = await self.get_state(BookingState)
        meal = await dialog_meal(booking)
        if meal is None or not booking.selected_date:
            return
        async for event in self._create(
            lang,
            standing.create,
            child_id=browser_id(meal["child_id"]),
            meal_id=browser_id(meal["meal_id"]),
            portion_id=browser_id(meal["portion_id"]),
            from_date=booking.selected_date,
        ):
            yield event

    async def _create(self, lang: str, create: Any, **arguments: Any) -> AsyncIterator[Any]:
        """A standing order from the dialog's meal or a booked line (``create``: the service
        call; it checks the meal, the child and the line are the parent's)."""
        async with form_call(self, lang) as call:
            yield  # the busy mark reaches the browser
            made: StandingView = await call.run(
                create, until=self.until, ends_on=self.ends_on, **arguments
            )
            words = standing.wording(made, lang)
            self.done = words.summary + " · " + words.ends_label
            yield succeeded(tr("standing_created", lang))
        if call.refusal is not None:
            yield call.refusal


weekday_of = weekday_name  # the weekday of an ISO date, "" when not a date
