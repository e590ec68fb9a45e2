"""The Book meal screen (/edit-profile/meal-detailed): pick a child, a school meal day on the
calendar, a meal from that day's menu (the meal dialog: ``MealDialog``), then add it to the
cart.

Thin: the menu, the cut-off, the allergy rule and the price are the services' and the domain's
(``services.ordering.menu`` and ``.cart``, ``domain.allergy``, ``domain.pricing``). Every handler
derives the parent from the token on that call (``acting_parent``); the child id comes from
browser storage (``ChildChoiceState.child_id``) and, like every id here, is checked by the
services against that parent. Each load is one service call (a fixed number of queries): the
calendar is one GetDates, the day's menu one GetMenu, the dialog one MenuDetail.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date
from typing import Any

import reflex as rx

from hotmeals.domain import diet
from hotmeals.domain.dates import long_day, long_moment, month_title, weekday_names
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.i18n import tn
from hotmeals.services import children
from hotmeals.services.ordering import days, menu
from hotmeals.services.ordering.days import MealDay
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.screens.book_meal.meal_dialog_state import MealDialog
from hotmeals.ui.shared_state.auth import ActingParent, complete_parent, session_expired
from hotmeals.ui.shared_state.children import ChildChoiceState
from hotmeals.ui.shared_state.forms import message
from hotmeals.ui.shared_state.ids import browser_id
from hotmeals.ui.shared_state.menu_views import (
    child_marks,
    day_kind,
    linked_date,
    meal_card,
    month_cells,
)
from hotmeals.ui.shared_state.screens import new_language

SHOW_DAY_SCRIPT = (
    "(() => { const el = document.getElementById('book-day'); if (!el) return; "
    "const top = el.getBoundingClientRect().top; "
    "if (top > window.innerHeight * 0.6 || top < 0) el.scrollIntoView({block: 'start', "
    "behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth'}); "
    "})()"
)


class BookingState(MealDialog, rx.State):
    """/edit-profile/meal-detailed."""

    kids: list[dict[str, str]] = []
    loaded: bool = False
    loading_menu: bool = False
    mode: str = "one"  # "one" day, or "many" days (the many-days panel)

    # the calendar
    months: list[str] = []  # 'YYYY-MM' with meal days
    month: str = ""
    month_label: str = ""
    weekdays: list[str] = []
    cells: list[dict[str, str]] = []
    selected_date: str = ""
    selected_label: str = ""
    selected_kind: str = ""  # open, past, closed
    selected_note: str = ""  # the cut-off, or why the day is closed

    # the day's menu
    meals: list[dict[str, str]] = []
    menu_error: str = ""
    # "Safe for Emma": hide the meals the child cannot have (a Major allergen) and those that
    # do not fit the child's dietary needs
    safe_only: bool = False
    shown_meals: list[dict[str, str]] = []  # the meals the cards show
    hidden_note: str = ""  # '2 hidden for Emma's allergies.'

    # the chosen child, named above the menu and in the dialog, with its marks
    for_child: str = ""  # 'For Emma'
    safe_label: str = ""  # 'Safe for Emma'
    safe_hint: str = ""
    child_marks: str = ""  # "Emma's allergies: Peanuts (Major)"

    _days: list[MealDay] = []
    _child_has_diet: bool = False  # the chosen child has dietary needs

    # ---- derived ---------------------------------------------------------------------------
    @rx.var
    def has_prev_month(self) -> bool:
        return bool(self.months) and self.month in self.months and self.months.index(self.month) > 0

    @rx.var
    def has_next_month(self) -> bool:
        return (
            bool(self.months)
            and self.month in self.months
            and self.months.index(self.month) < len(self.months) - 1
        )

    # ---- helpers (private: not callable from the browser) ---------------------------------
    async def _who(self) -> tuple[ActingParent | None, str]:
        return await complete_parent(self)

    async def _child(self) -> str:
        return (await self.get_state(ChildChoiceState)).child_id

    def _menu_meal(self, meal_id: str) -> dict[str, str] | None:
        return next((m for m in self.meals if m["meal_id"] == meal_id), None)

    def _day(self, iso: str) -> MealDay | None:
        """The calendar's day of ``iso`` ('YYYY-MM-DD'), None when it is not one of them."""
        return next((d for d in self._days if d.day.isoformat() == iso), None)

    def _chosen_day(self) -> tuple[bool, str]:
        day = self._day(self.selected_date)
        return day is not None and day_kind(day) == "open", self.selected_label

    async def _added(self, who: ActingParent) -> None:
        await self._load_dates(who)  # the day now shows what is in the cart
        await self._load_menu(who)  # and so does the meal's card ("In cart")

    async def _load_children(self, who: ActingParent) -> None:
        rows = await run_in_transaction(children.list_children, parent_id=who.parent_id)
        self.kids = [
            {
                "id": str(c.id),
                "name": c.first_name,
                "school": c.school,
                "is_default": "1" if c.is_default else "",
                "diets": diet.to_text(c.diets),
                "marks": child_marks(
                    [
                        {
                            "name": a.name(who.lang),
                            "alert_level": a.alert_level,
                            "alert_level_label": a.alert_level_label(who.lang),
                        }
                        for a in c.allergies
                    ],
                    c.first_name,
                    who.lang,
                ),
            }
            for c in rows
        ]
        choice = await self.get_state(ChildChoiceState)
        if choice.child_id not in {k["id"] for k in self.kids}:
            # The stored child is gone (or another parent's): the default child, first listed.
            choice.child_id = self.kids[0]["id"] if self.kids else ""
        self._name_child(choice.child_id, who.lang)

    def _name_child(self, child_id: str, lang: str) -> None:
        """The chosen child's name and marks where the screen says who the meal is for."""
        kid = next((k for k in self.kids if k["id"] == child_id), None)
        name = kid["name"] if kid else ""
        self._child_name = name
        self._child_has_diet = bool(kid and kid["diets"])
        whose = diet.whose(name, lang)
        hint = "ui.diet.safe_for_help" if self._child_has_diet else "ui.safe.filter_hint"
        self.for_child = tr("ui.safe.for_child", lang, name=name) if kid else ""
        self.safe_label = tr("ui.safe.filter", lang, name=name) if kid else ""
        self.safe_hint = tr(hint, lang, name=name, whose=whose) if kid else ""
        self.child_marks = kid["marks"] if kid else ""

    def _refilter(self) -> None:
        """The cards shown: all the day's meals, or only those that fit the child's diet and
        that the child may have (no Major allergen; each card's ``safe``, from the menu
        service)."""
        if self.safe_only:
            self.shown_meals = [m for m in self.meals if m.get("safe") == "1"]
        else:
            self.shown_meals = list(self.meals)
        hidden = len(self.meals) - len(self.shown_meals)
        lang = self._lang or "en"
        name = self._child_name
        whose = diet.whose(name, lang)
        key = "ui.diet.hidden" if self._child_has_diet else "ui.safe.hidden"
        if hidden and not self.shown_meals:
            self.hidden_note = tr("ui.safe.all_hidden", lang, name=name)
        elif hidden:
            self.hidden_note = tn(key, hidden, lang, name=name, whose=whose)
        else:
            self.hidden_note = ""

    async def _load_dates(self, who: ActingParent, keep: bool = True) -> None:
        child_id = await self._child()
        self._days = []
        if child_id:
            try:
                found = await run_in_transaction(
                    days.get_dates,
                    parent_id=who.parent_id,
                    child_id=browser_id(child_id),
                    lang=who.lang,
                )
                self._days = list(found.days)
            except DomainError:
                self._days = []
        self._lang = who.lang
        self.months = sorted({d.day.isoformat()[:7] for d in self._days})
        known = {d.day.isoformat() for d in self._days}
        if self.selected_date not in known:
            self.selected_date = ""
        if not keep or self.month not in self.months:
            # The chosen day's menu is shown (a reload keeps it): so is its month.
            chosen = self.selected_date[:7]
            self.month = chosen if chosen in self.months else self._first_open_month()
        self._build_calendar()

    def _first_open_month(self) -> str:
        for day in self._days:
            if day_kind(day) == "open":
                return day.day.isoformat()[:7]
        return self.months[0] if self.months else ""

    def _build_calendar(self) -> None:
        lang = self._lang or "en"
        self.weekdays = weekday_names(lang)[:5]
        if self.month:
            self.cells = month_cells(self._days, self.month, lang)
            self.month_label = month_title(date.fromisoformat(self.month + "-01"), lang)
        else:
            self.cells, self.month_label = [], ""
        self._describe_day()

    def _describe_day(self) -> None:
        lang = self._lang or "en"
        day = self._day(self.selected_date)
        if day is None:
            self.selected_label = self.selected_kind = self.selected_note = ""
            return
        self.selected_label = long_day(day.day, lang)
        self.selected_kind = day_kind(day)
        when = long_moment(day.cutoff_at, lang)
        if self.selected_kind == "closed":
            self.selected_note = tr("ui.book.closed", lang, reason=day.closed_reason)
            if day.moved_to is not None:  # the closure moved this child's meal: say where
                moved = long_day(day.moved_to, lang)
                self.selected_note += " " + tr("ui.book.moved_to", lang, day=moved)
        elif self.selected_kind == "away":
            self.selected_note = day.away_label
        elif self.selected_kind == "past":
            self.selected_note = tr("ui.book.cutoff_passed", lang, when=when)
        else:
            self.selected_note = tr("ui.book.cutoff", lang, when=when)

    async def _load_menu(self, who: ActingParent) -> None:
        self.meals, self.menu_error = [], ""
        try:
            await self._read_menu(who)
        finally:
            self._refilter()

    async def _read_menu(self, who: ActingParent) -> None:
        child_id = await self._child()
        if not self.selected_date or not child_id or self.selected_kind in ("closed", "away"):
            return
        try:
            found = await run_in_transaction(
                menu.get_menu,
                parent_id=who.parent_id,
                child_id=browser_id(child_id),
                date=self.selected_date,
                lang=who.lang,
            )
        except DomainError as err:
            self.menu_error = message(err, who.lang)
            return
        day = self._day(self.selected_date)
        cutoff = day.cutoff_at if day is not None else None
        name = self._child_name
        self.meals = [meal_card(m, who.lang, cutoff, name) for m in found.meals]
        if not self.meals:
            self.menu_error = tr("ui.common.no_data", who.lang)

    # ---- page load -------------------------------------------------------------------------
    @rx.event
    async def load(self) -> None:
        """on_load: the children, the chosen child's calendar (one GetDates)."""
        who, lang = await self._who()
        self._close_detail()
        self.busy = False
        self.mode = "one"
        self._order_id, self.order_number = 0, ""
        if who is None:
            self.kids, self._days, self.cells, self.meals = [], [], [], []
            self.shown_meals = []
            self.loaded = False
            return
        await self._load_children(who)
        # ?date=YYYY-MM-DD (the reminder e-mails' link): that day, its week and month, open
        # (kept only when it is one of the child's meal days, like any chosen day).
        asked = linked_date(self.router.url.query_parameters.get("date"))
        if asked:
            self.selected_date = asked
        await self._load_dates(who, keep=False)
        await self._load_menu(who)
        self.loaded = True

    @rx.event
    async def relang(self) -> None:
        """The language changed: what the services wrote (names, prices, dates) is reloaded in
        the new one. Nothing happens when it did not change."""
        if await new_language(self) is None:
            return
        who, _ = await self._who()
        if who is None:
            return
        await self._load_children(who)
        await self._load_dates(who)
        await self._load_menu(who)
        if self.detail_open and self._meal_id:
            await self._load_detail(who, self._meal_id, self._menu_day_id, keep_choices=True)

    # ---- choices ---------------------------------------------------------------------------
    @rx.event
    async def choose_child(self, child_id: str) -> Any:
        who, lang = await self._who()
        if who is None:
            return session_expired(lang)
        if str(child_id) not in {k["id"] for k in self.kids}:
            return None  # not one of the listed children: nothing to do
        (await self.get_state(ChildChoiceState)).child_id = str(child_id)
        self._name_child(str(child_id), who.lang)
        self._close_detail()
        await self._load_dates(who)
        await self._load_menu(who)
        return None

    @rx.event
    def set_safe_only(self, value: bool) -> None:
        """The "Safe for Emma" switch: only what is shown changes (the server still refuses
        a Major allergen whatever the screen shows)."""
        self.safe_only = bool(value)
        self._refilter()

    @rx.event
    async def set_mode(self, mode: str) -> None:
        self.mode = "many" if mode == "many" else "one"

    @rx.event
    def prev_month(self) -> None:
        if self.has_prev_month:
            self.month = self.months[self.months.index(self.month) - 1]
            self._build_calendar()

    @rx.event
    def next_month(self) -> None:
        if self.has_next_month:
            self.month = self.months[self.months.index(self.month) + 1]
            self._build_calendar()

    @rx.event
    async def choose_day(self, day: str) -> AsyncIterator[Any]:
        who, lang = await self._who()
        if who is None:
            yield session_expired(lang)
            return
        if self._day(str(day)) is None:
            return
        self.selected_date = str(day)
        self._describe_day()
        self.meals = self.shown_meals = []
        self.loading_menu = True
        # On a phone the day's menu is under the calendar: bring it into view, so the tap
        # answers where the parent looks (nothing moves when it is already in view).
        yield rx.call_script(SHOW_DAY_SCRIPT)
        await self._load_menu(who)
        self.loading_menu = False

    # ---- add to cart -----------------------------------------------------------------------
