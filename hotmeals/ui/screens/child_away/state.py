"""/edit-profile/child-away: one or several children away for some days. Thin: the preview and
the one-step cancel are ``services.away`` (``away_preview``, ``mark_away``), which check the
children are the parent's, the dates, the cut-offs and the total the parent confirmed."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import reflex as rx

from hotmeals import clock
from hotmeals.domain.credit import RefundDestination
from hotmeals.domain.dates import full_day
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.i18n import t as tr
from hotmeals.services import away, children, credit
from hotmeals.services.away import AwayMeal
from hotmeals.services.away_days import upcoming_away
from hotmeals.services.ordering.labels import order_day
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import acting_parent, signed_up_parent
from hotmeals.ui.shared_state.forms import OnceForm, confirm_once, message
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.many_days_rows import Choice
from hotmeals.ui.shared_state.steps import history_replace_script
from hotmeals.ui.shared_state.toasts import failed

ROUTE = "/edit-profile/child-away"
ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _meal_row(meal: AwayMeal, lang: str) -> dict[str, str]:
    return {
        "id": str(meal.order_line_id),
        "child": meal.child_name,
        "day": order_day(meal.day, lang),
        "name": meal.name(lang),
        "quantity": str(meal.quantity),
        "state": meal.state,
        "label": tr(f"away.item.{meal.state}", lang),
    }


class ChildAwayState(OnceForm, rx.State):
    kids: list[Choice] = []  # value: child id
    chosen: list[str] = []  # child ids
    from_date: str = ""
    to_date: str = ""
    refund_to: str = RefundDestination.CARD.value
    meals: list[dict[str, str]] = []
    donate: list[str] = []  # order line ids to give to the school
    cancel_count: int = 0
    refund: str = ""
    checked: bool = False  # the meals shown are those of the children and days chosen
    error: str = ""
    done: str = ""  # what the last confirm did, shown where the Confirm was
    today: str = ""  # the date pickers' first day
    ranges: list[str] = []  # the days already marked, lasting: "Emma: Monday, … to …"

    _refund_cents: int = 0

    @rx.var
    def can_confirm(self) -> bool:
        # With no meal to cancel, confirming still marks the days away (booking them refused).
        return self.checked

    @rx.event
    async def load(self) -> None:
        """The screen; the children and days of the address (``?who=&from=&to=``, written by
        Check) are checked again, so a reload or Back shows the same meals."""
        self.busy, self.error, self.checked, self.meals, self.donate = False, "", False, [], []
        self.done = ""
        who = await signed_up_parent(self)
        if who is None:
            self.kids, self.chosen, self.ranges = [], [], []
            return
        rows = await run_in_transaction(children.list_children, parent_id=who.parent_id)
        self.kids = [Choice(value=str(r.id), label=r.first_name) for r in rows]
        self.refund_to = (await run_in_transaction(credit.refund_to, parent_id=who.parent_id)).value
        today = clock.today()
        self.today = today.isoformat()
        await self._load_ranges(who.parent_id, who.lang)
        query = self.router.url.query_parameters
        kids = {k.value for k in self.kids}
        asked = [c for c in str(query.get("who", "")).split(",") if c in kids]
        first, last = str(query.get("from", "")), str(query.get("to", ""))
        if asked and ISO_DAY.match(first) and ISO_DAY.match(last):
            self.chosen, self.from_date, self.to_date = asked, first, last
            try:
                await self._preview(who.parent_id, who.lang)
            except DomainError as err:
                self._changed()
                self.error = message(err, who.lang)
            return
        self.chosen = [k.value for k in self.kids[:1]]
        self.from_date = self.to_date = (today + timedelta(days=1)).isoformat()

    async def _load_ranges(self, parent_id: int, lang: str) -> None:
        found = await run_in_transaction(upcoming_away, parent_id=parent_id, today=clock.today())
        self.ranges = [
            tr("away_ui.range_day", lang, child=r.first_name, day=full_day(r.first, lang))
            if r.first == r.last
            else tr(
                "away_ui.range",
                lang,
                child=r.first_name,
                first=full_day(r.first, lang),
                last=full_day(r.last, lang),
            )
            for r in found
        ]

    def _changed(self) -> None:
        """The children or days changed: the meals shown are no longer theirs."""
        self.checked, self.meals, self.donate, self.error, self.done = False, [], [], "", ""

    @rx.event
    def toggle_child(self, child_id: str, checked: bool) -> None:
        if child_id not in {k.value for k in self.kids}:
            return  # not a child on screen
        rest = [c for c in self.chosen if c != child_id]
        self.chosen = [*rest, child_id] if checked else rest
        self._changed()

    @rx.event
    def set_from_date(self, value: str) -> None:
        self.from_date = str(value)[:10]
        if self.to_date < self.from_date:
            self.to_date = self.from_date
        self._changed()

    @rx.event
    def set_to_date(self, value: str) -> None:
        self.to_date = str(value)[:10]
        self._changed()

    @rx.event
    def set_refund_to(self, value: str) -> None:
        if value in {d.value for d in RefundDestination}:
            self.refund_to = value

    @rx.event
    def toggle_donate(self, line_id: str, checked: bool) -> None:
        if not any(m["id"] == line_id and m["state"] == "past" for m in self.meals):
            return  # only a meal on screen that is past its cut-off
        rest = [d for d in self.donate if d != line_id]
        self.donate = [*rest, line_id] if checked else rest

    def _ask(self) -> dict[str, Any]:
        return {
            "child_ids": [int(c) for c in self.chosen if c.isdigit()],
            "from_date": self.from_date,
            "to_date": self.to_date,
            "refund_to": self.refund_to,
        }

    async def _preview(self, parent_id: int, lang: str) -> None:
        view = await run_in_transaction(away.away_preview, parent_id=parent_id, **self._ask())
        self.meals = [_meal_row(m, lang) for m in view.meals]
        shown = {m["id"] for m in self.meals if m["state"] == "past"}
        self.donate = [d for d in self.donate if d in shown]
        self.cancel_count = view.cancel_count
        self.refund = format_money(view.refund_cents, lang)
        self._refund_cents = view.refund_cents
        self.checked = True

    @rx.event
    async def check(self) -> Any:
        lang = (await self.get_state(I18nState)).lang
        who = await acting_parent(self)
        if who is None or self.busy:
            return
        self.error = self.done = ""
        try:
            await self._preview(who.parent_id, lang)
        except DomainError as err:
            self._changed()
            self.error = message(err, lang)
            return None
        # the children and days in the address: a reload or Back shows these meals again
        query = f"?who={','.join(self.chosen)}&from={self.from_date}&to={self.to_date}"
        return rx.call_script(history_replace_script(ROUTE + query))

    @rx.event(background=True)
    async def confirm(self) -> AsyncIterator[Any]:
        async for event in confirm_once(
            self,
            busy="busy",
            ready=lambda: self.can_confirm,
            once=lambda: ["away", self._ask(), sorted(self.donate), self._refund_cents],
            act=self._mark,
            done=self._marked,
            refused=self._refused,
            background=True,
        ):
            yield event
        async with self:
            marked = self.done != ""
        if marked:  # the address names no days any more: a reload shows the form again
            yield rx.call_script(history_replace_script(ROUTE))

    async def _mark(self, parent_id: int, key: str, lang: str) -> Any:
        return await away.mark_away(
            parent_id=parent_id,
            **self._ask(),
            donate_line_ids=[int(d) for d in self.donate],
            expected_refund_cents=self._refund_cents,
            request_key=key,
            lang=lang,
        )

    async def _marked(self, parent_id: int, result: Any, lang: str) -> Any:
        """Done: what it did, where the Confirm was (no second Confirm for the same days; no
        toast: it would only repeat it over the screen), and the days in the lasting list."""
        self.checked, self.meals, self.donate = False, [], []
        self.done = away.done_message(result, result.lang)  # a repeat: as first said
        await self._load_ranges(parent_id, lang)
        return None

    def _refused(self, err: DomainError, lang: str) -> Any:
        self.error = message(err, lang)
        return failed(self.error)
