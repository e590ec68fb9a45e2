"""The Book meal screen (/edit-profile/meal-detailed, issue 9): pick a child, a school meal day
on the calendar, a meal from that day's menu, its size, options, add-ons, quantity and note,
then add it to the cart.

Thin: the menu, the cut-off, the allergy rule and the price are the services' and the domain's
(``services.menu``, ``services.cart``, ``domain.allergy``, ``domain.pricing``). Every handler
derives the parent from the token on that call (``acting_parent``); the child id comes from
browser storage (``ChildChoiceState.child_id``) and, like every id here, is checked by the
services against that parent. Each load is one service call (a fixed number of queries): the
calendar is one GetDates, the day's menu one GetMenu, the dialog one MenuDetail.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

import reflex as rx

from hotmeals.domain.dates import long_day, long_moment, month_title, short_moment, weekday_names
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.pricing import (
    SPECIAL_NOTE_FEE_CENTS,
    LineInput,
    price_line,
)
from hotmeals.domain.pricing import PriceTier as TierRule
from hotmeals.i18n import t as tr
from hotmeals.ui.state.auth import ActingParent, AuthState, acting_parent, session_expired
from hotmeals.ui.state.base import call_service
from hotmeals.ui.state.children import ChildChoiceState
from hotmeals.ui.state.forms import forget_submission, message, submission_key
from hotmeals.ui.state.i18n import I18nState
from hotmeals.ui.state.toasts import failed, succeeded

NOTE_MAX = 120
QUANTITY_MAX = 50
STATIC_PREFIX = "/parent"


def _image(path: str | None) -> str:
    path = path or ""
    return f"{STATIC_PREFIX}{path}" if path.startswith("/") else path


def _id(value: Any) -> int:
    """An id from the browser as an int (0 when it is not one); services check it."""
    text = str(value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 12 else 0


def day_kind(day: dict) -> str:
    """How the calendar shows a GetDates day: closed (no school), past (cut-off passed) or
    open."""
    if day.get("is_closed"):
        return "closed"
    return "open" if day.get("is_open") else "past"


def day_label(day: dict, lang: str) -> str:
    """The day button's accessible name: 'Monday, November 24: open, 1 in cart'."""
    parts = [long_day(date.fromisoformat(day["date"]), lang)]
    kind = day_kind(day)
    if kind == "closed":
        status = tr("ui.book.day_closed", lang, reason=day.get("closed_reason") or "")
    elif kind == "past":
        status = tr("ui.book.day_past", lang)
    else:
        status = tr("ui.book.day_open", lang)
    extras = [status]
    if day.get("ordered_quantity"):
        extras.append(tr("ui.book.day_ordered", lang, n=day["ordered_quantity"]))
    if day.get("cart_quantity"):
        extras.append(tr("ui.book.day_in_cart", lang, n=day["cart_quantity"]))
    return tr("ui.book.day_aria", lang, day=parts[0], status=", ".join(extras))


def month_cells(days: list[dict], month: str, lang: str) -> list[dict[str, str]]:
    """The weekday cells (Monday to Friday: school days) of ``month`` ('YYYY-MM'), weeks in
    rows, for a grid of five columns. A cell outside the month is blank; a weekday the school
    serves no meals is 'none'; the rest carry the GetDates day."""
    year, mon = (int(p) for p in month.split("-"))
    first = date(year, mon, 1)
    by_date = {d["date"]: d for d in days}
    while first.weekday() >= 5:  # a month starting on a weekend starts on its first Monday
        first += timedelta(days=1)
    start = first - timedelta(days=first.weekday())
    cells: list[dict[str, str]] = []
    cursor = start
    while cursor.month == mon or cursor < first:
        if cursor.weekday() < 5:
            cell = {"date": "", "day": "", "kind": "blank", "label": "", "ordered": "", "cart": ""}
            if cursor.month == mon:
                iso = cursor.isoformat()
                found = by_date.get(iso)
                cell["day"] = str(cursor.day)
                if found is None:
                    cell["kind"] = "none"
                    cell["label"] = long_day(cursor, lang)
                else:
                    cell.update(
                        date=iso,
                        kind=day_kind(found),
                        label=day_label(found, lang),
                        ordered="1" if found.get("ordered_quantity") else "",
                        cart=str(found.get("cart_quantity") or "") or "",
                    )
            cells.append(cell)
        cursor += timedelta(days=1)
    # Weeks of the month before its first meal day (past weeks, mostly) are left out.
    while (
        len(cells) >= 5 and not any(c["date"] for c in cells[:5]) and any(c["date"] for c in cells)
    ):
        cells = cells[5:]
    while len(cells) % 5:  # the last week's row is complete
        cells.append(
            {"date": "", "day": "", "kind": "blank", "label": "", "ordered": "", "cart": ""}
        )
    return cells


BADGE_KEYS = {
    "refused": "ui.book.allergy_major",
    "acknowledge": "ui.book.allergy_ack",
    "notice": "ui.book.allergy_low",
}


def allergy_badge(allergy: dict, lang: str) -> str:
    """The mark a meal carries for the child: the verdict and the allergens named."""
    key = BADGE_KEYS.get(allergy.get("verdict") or "safe")
    if key is None:
        return ""
    return tr(key, lang, allergens=", ".join(allergy.get("allergens") or []))


def small_price(meal: dict) -> str:
    """The card's price: the small size's (the first listed, small first), as the service
    formatted it; the cheapest when the meal has no small size."""
    portions = meal.get("portions") or []
    small = next((p for p in portions if p.get("size") == "small"), None)
    return str((small or {}).get("price") or meal["price_from"])


def cutoff_text(cutoff_at: str, is_open: bool, lang: str) -> str:
    """'Order by Thu, Nov 26, 6:00 p.m.' or 'Ordering closed ...' (Babel, Toronto time)."""
    if not cutoff_at:
        return ""
    when = short_moment(datetime.fromisoformat(cutoff_at), lang)
    return tr("ui.safe.order_by" if is_open else "ui.safe.closed_at", lang, when=when)


def _meal_row(meal: dict, lang: str, day_cutoff: str = "") -> dict[str, str]:
    """A menu card's strings. Its cut-off is shown when it is not the day's (the day note
    says that one): a day served by two vendors may close at two times."""
    allergy = meal.get("allergy") or {}
    cutoff = str(meal.get("cutoff_at") or "")
    if (
        cutoff
        and day_cutoff
        and datetime.fromisoformat(cutoff) == datetime.fromisoformat(day_cutoff)
    ):
        cutoff = ""
    own = list(meal.get("allergens") or [])
    extras = [a for a in meal.get("extras_allergens") or [] if a not in own]
    in_cart = int(meal.get("in_cart_quantity") or 0)
    return {
        "choose_label": tr("ui.book.view_label", lang, meal=meal["name"]),
        "badge": allergy_badge(allergy, lang),
        "meal_id": str(meal["meal_id"]),
        "menu_day_id": str(meal["menu_day_id"]),
        "name": meal["name"],
        "description": meal.get("description") or "",
        "image": _image(meal.get("image")),
        "price_from": tr("ui.safe.from", lang, price=small_price(meal)),
        "verdict": allergy.get("verdict") or "safe",
        "allergens": ", ".join(allergy.get("allergens") or []),
        "allergy_message": allergy.get("message") or "",
        "vendor": meal.get("vendor") or "",
        # Every allergen of the meal, and those only some of its options or add-ons carry.
        "contains": (
            tr("ui.safe.contains", lang, allergens=", ".join(own))
            if own
            else tr("ui.safe.no_allergens", lang)
        ),
        "extras": tr("ui.safe.extras", lang, allergens=", ".join(extras)) if extras else "",
        "in_cart": tr("ui.safe.in_cart", lang, count=in_cart) if in_cart else "",
        "cutoff": cutoff_text(cutoff, bool(meal.get("is_open")), lang),
    }


ITEM_MARKS = {
    "refused": "ui.safe.cannot_pick",
    "acknowledge": "ui.safe.needs_ack",
    "notice": "ui.safe.notice",
}


def item_row(item: dict, child: str, lang: str, price: str) -> dict[str, str]:
    """A menu option, meal option or add-on as the dialog lists it: its own allergens and,
    before the tap, the child's mark (issue 20). A Major one is not offered ("disabled"),
    with the reason; a High/Medium one says the box will ask; a Low one is a notice."""
    mark = item.get("allergy") or {}
    verdict = str(mark.get("verdict") or "safe")
    named = ", ".join(mark.get("allergens") or []) or ", ".join(item.get("allergens") or [])
    key = ITEM_MARKS.get(verdict)
    if key:
        text = tr(key, lang, name=child, allergens=named)
    elif item.get("allergens"):
        text = tr("ui.safe.contains", lang, allergens=", ".join(item["allergens"]))
    else:
        text = ""
    name = str(item["name"])
    return {
        "id": str(item["id"]),
        "name": name,
        "price": price,
        "verdict": verdict,
        "mark": text,
        # under a select, the mark names its option
        "named_mark": tr("ui.safe.item_mark", lang, item=name, mark=text) if text else "",
        "disabled": "1" if verdict == "refused" else "",
        # a native <option> shows text only: the reason goes into it
        "label": (
            tr("ui.safe.option_refused", lang, option=name, name=child, allergens=named)
            if verdict == "refused"
            else (name + " " + price).strip()
        ),
    }


def child_marks(allergies: list[dict], name: str, lang: str) -> str:
    """'Emma's allergies: Peanuts (Major), Milk (Medium)' (the levels as the service labels
    them), or 'No allergies listed for Emma'."""
    listed = [a for a in allergies if a.get("alert_level") != "Non-allergic"]
    if not listed:
        return tr("ui.safe.child_none", lang, name=name)
    text = ", ".join(
        f"{a['name']} ({a.get('alert_level_label') or a['alert_level']})" for a in listed
    )
    return tr("ui.safe.child_marks", lang, name=name, allergies=text)


def linked_date(value: object) -> str:
    """A link's ``?date=`` as ``YYYY-MM-DD``, or "" when it is not one."""
    text = str(value or "")[:10]
    try:
        return date.fromisoformat(text).isoformat() if len(text) == 10 else ""
    except ValueError:
        return ""


class BookingState(rx.State):
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
    # "Safe for Emma": hide the meals the child's allergies refuse (issue 20)
    safe_only: bool = False
    shown_meals: list[dict[str, str]] = []  # the meals the cards show
    hidden_note: str = ""  # '2 hidden for Emma's allergies.'

    # the chosen child, named above the menu and in the dialog, with its marks (issue 20)
    for_child: str = ""  # 'For Emma'
    safe_label: str = ""  # 'Safe for Emma'
    safe_hint: str = ""
    child_marks: str = ""  # "Emma's allergies: Peanuts (Major)"

    # the meal dialog
    detail_open: bool = False
    detail: dict[str, str] = {}
    nutrition: list[dict[str, str]] = []
    portions: list[dict[str, str]] = []
    tiers: list[dict[str, str]] = []
    menu_options: list[dict[str, str]] = []
    meal_options: list[dict[str, str]] = []
    addons: list[dict[str, str]] = []
    portion_id: str = ""
    menu_option_id: str = ""
    meal_option_id: str = ""
    chosen_addons: list[str] = []
    quantity: int = 1
    note: str = ""
    acknowledged: bool = False
    add_error: str = ""  # the server's refusal of the last add, shown in the dialog
    line_total: str = ""
    note_fee: str = ""  # the note's label with its fee: 'Special note (+$1.00)'
    busy: bool = False
    turn: int = 0  # bumped when an add ends (components.forms.once_attrs)
    # Set by ModifyOrderState.load_add_item (/edit-profile/modify-order/add-item): the dialog
    # adds to that order's draft (AddToMyOrder) instead of the cart. Reset by ``load``.
    order_number: str = ""

    _order_id: int = 0
    _child_name: str = ""
    _days: list[dict] = []
    _lang: str = ""
    _menu_day_id: int = 0
    _meal_id: int = 0
    _portion_tiers: dict[str, list[tuple[int, int]]] = {}
    _option_cents: dict[str, int] = {}
    _addon_cents: dict[str, int] = {}
    _refused: set[str] = set()  # "menu:ID", "meal:ID", "addon:ID" the child cannot have
    _found: dict = {}  # MenuDetail's answer: composed_allergy judges the choices on it
    _ack_text: str = ""  # what the ticked box acknowledged
    _once_key: str = ""
    _once_digest: str = ""

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

    @rx.var
    def note_count(self) -> int:
        return len(self.note)

    @rx.var
    def can_add(self) -> bool:
        verdict = self.detail.get("verdict", "safe")
        if verdict == "refused" or self.detail.get("is_open") != "1":
            return False
        return verdict != "acknowledge" or self.acknowledged

    # ---- helpers (private: not callable from the browser) ---------------------------------
    async def _who(self) -> tuple[ActingParent | None, str]:
        lang = (await self.get_state(I18nState)).lang
        who = await acting_parent(self)
        if who is not None and not who.complete:
            who = None
        return who, lang

    async def _child(self) -> str:
        return (await self.get_state(ChildChoiceState)).child_id

    async def _load_children(self, who: ActingParent) -> None:
        from hotmeals.services import children

        rows = await call_service(children.list_children, parent_id=who.parent_id, lang=who.lang)
        self.kids = [
            {
                "id": str(c["id"]),
                "name": c["first_name"],
                "school": c.get("school") or "",
                "is_default": "1" if c.get("is_default") else "",
                "marks": child_marks(c.get("allergies") or [], c["first_name"], who.lang),
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
        self.for_child = tr("ui.safe.for_child", lang, name=name) if kid else ""
        self.safe_label = tr("ui.safe.filter", lang, name=name) if kid else ""
        self.safe_hint = tr("ui.safe.filter_hint", lang, name=name) if kid else ""
        self.child_marks = kid["marks"] if kid else ""

    def _refilter(self) -> None:
        """The cards shown: all the day's meals, or only those the child can have."""
        if self.safe_only:
            self.shown_meals = [m for m in self.meals if m.get("verdict") != "refused"]
        else:
            self.shown_meals = list(self.meals)
        hidden = len(self.meals) - len(self.shown_meals)
        lang = self._lang or "en"
        name = self._child_name
        if hidden and not self.shown_meals:
            self.hidden_note = tr("ui.safe.all_hidden", lang, name=name)
        elif hidden:
            self.hidden_note = tr("ui.safe.hidden", lang, count=hidden, name=name)
        else:
            self.hidden_note = ""

    async def _load_dates(self, who: ActingParent, keep: bool = True) -> None:
        from hotmeals.services.ordering import days

        child_id = await self._child()
        self._days = []
        if child_id:
            try:
                found = await call_service(
                    days.get_dates, parent_id=who.parent_id, child_id=child_id, lang=who.lang
                )
                self._days = list(found["days"])
            except DomainError:
                self._days = []
        self._lang = who.lang
        self.months = sorted({d["date"][:7] for d in self._days})
        known = {d["date"] for d in self._days}
        if self.selected_date not in known:
            self.selected_date = ""
        if not keep or self.month not in self.months:
            # The chosen day's menu is shown (a reload keeps it): so is its month (issue 20).
            chosen = self.selected_date[:7]
            self.month = chosen if chosen in self.months else self._first_open_month()
        self._build_calendar()

    def _first_open_month(self) -> str:
        for day in self._days:
            if day_kind(day) == "open":
                return day["date"][:7]
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
        day = next((d for d in self._days if d["date"] == self.selected_date), None)
        if day is None:
            self.selected_label = self.selected_kind = self.selected_note = ""
            return
        self.selected_label = long_day(date.fromisoformat(day["date"]), lang)
        self.selected_kind = day_kind(day)
        when = long_moment(datetime.fromisoformat(day["cutoff_at"]), lang)
        if self.selected_kind == "closed":
            self.selected_note = tr("ui.book.closed", lang, reason=day.get("closed_reason") or "")
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
        from hotmeals.services.ordering import menu

        child_id = await self._child()
        if not self.selected_date or not child_id or self.selected_kind == "closed":
            return
        try:
            found = await call_service(
                menu.get_menu,
                parent_id=who.parent_id,
                child_id=child_id,
                date=self.selected_date,
                lang=who.lang,
            )
        except DomainError as err:
            self.menu_error = message(err, who.lang)
            return
        day = next((d for d in self._days if d["date"] == self.selected_date), {})
        self.meals = [_meal_row(m, who.lang, day.get("cutoff_at") or "") for m in found["meals"]]
        if not self.meals:
            self.menu_error = tr("ui.common.no_data", who.lang)

    def _reprice(self) -> None:
        tiers = self._portion_tiers.get(self.portion_id) or []
        if not tiers:
            self.line_total = ""
            return
        options = [
            self._option_cents[key]
            for key in (f"menu:{self.menu_option_id}", f"meal:{self.meal_option_id}")
            if key in self._option_cents
        ]
        addons = [self._addon_cents[a] for a in self.chosen_addons if a in self._addon_cents]
        price = price_line(
            LineInput(
                portion_tiers=[TierRule(m, c) for m, c in tiers],
                quantity=max(1, min(QUANTITY_MAX, self.quantity)),
                option_cents=options,
                addon_cents=addons,
                special_note=self.note or None,
            )
        )
        lang = self._lang or "en"
        self.line_total = format_money(price.total_cents, lang)
        self.tiers = [
            {"label": tr("ui.book.tier", lang, min=m, price=format_money(c, lang))}
            for m, c in tiers
        ]

    def _close_detail(self) -> None:
        self.detail_open = False
        self.detail = {}
        self.add_error = ""
        self._found = {}
        self._refused = set()
        self._meal_id = self._menu_day_id = 0

    # ---- page load -------------------------------------------------------------------------
    @rx.event
    async def load(self):
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
    async def relang(self):
        """The language changed: what the services wrote (names, prices, dates) is reloaded in
        the new one. Nothing happens when it did not change."""
        lang = (await self.get_state(I18nState)).lang
        if not self.loaded or lang == self._lang:
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
    async def choose_child(self, child_id: str):
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
    def set_safe_only(self, value: bool):
        """The "Safe for Emma" switch: only what is shown changes (the server still refuses
        a Major allergen whatever the screen shows)."""
        self.safe_only = bool(value)
        self._refilter()

    @rx.event
    async def set_mode(self, mode: str):
        self.mode = "many" if mode == "many" else "one"

    @rx.event
    def prev_month(self):
        if self.has_prev_month:
            self.month = self.months[self.months.index(self.month) - 1]
            self._build_calendar()

    @rx.event
    def next_month(self):
        if self.has_next_month:
            self.month = self.months[self.months.index(self.month) + 1]
            self._build_calendar()

    @rx.event
    async def choose_day(self, day: str):
        who, lang = await self._who()
        if who is None:
            yield session_expired(lang)
            return
        if str(day) not in {d["date"] for d in self._days}:
            return
        self.selected_date = str(day)
        self._describe_day()
        self.meals = self.shown_meals = []
        self.loading_menu = True
        yield
        await self._load_menu(who)
        self.loading_menu = False

    async def _load_detail(
        self, who: ActingParent, meal_id: int, menu_day_id: int, keep_choices: bool = False
    ) -> None:
        from hotmeals.services.ordering import menu

        found = await call_service(
            menu.menu_detail,
            parent_id=who.parent_id,
            meal_id=meal_id,
            child_id=await self._child(),
            lang=who.lang,
        )
        lang = who.lang
        allergy = found.get("allergy") or {}
        listed = next((m for m in self.meals if m["meal_id"] == str(meal_id)), None)
        day = next((d for d in self._days if d["date"] == self.selected_date), None)
        self._meal_id, self._menu_day_id = meal_id, menu_day_id
        self.detail = {
            "name": found["name"],
            "description": found.get("description") or "",
            "image": _image(found.get("image")),
            "ingredients": found.get("ingredients") or "",
            "cooking": found.get("cooking_method") or "",
            "allergens": ", ".join(found.get("allergens") or []),
            "vendor": found.get("vendor") or "",
            "verdict": allergy.get("verdict") or "safe",
            # the meal's own verdict (a Major meal offers no choices); "verdict" and
            # "allergy_message" follow the choices (_recompose)
            "meal_verdict": allergy.get("verdict") or "safe",
            "allergy_message": allergy.get("message") or "",
            "badge": allergy_badge(allergy, lang),
            "is_open": "1" if listed is not None and day and day_kind(day) == "open" else "",
            "day": self.selected_label,
        }
        self.nutrition = [
            {
                "label": n["label"],
                "value": (f"{n['value']:g}" + (f" {n['unit']}" if n["unit"] else "")),
            }
            for n in found["nutrition"]
        ]
        self.portions = [
            {"id": str(p["id"]), "label": p["label"], "price": p["price"]}
            for p in found["portions"]
        ]
        self._portion_tiers = {
            str(p["id"]): [(t["min_quantity"], t["unit_price_cents"]) for t in p["tiers"]]
            for p in found["portions"]
        }

        name = self._child_name
        self.menu_options = [
            item_row(o, name, lang, ("+" + o["price"]) if o["price_cents"] else "")
            for o in found["menu_options"]
        ]
        self.meal_options = [
            item_row(o, name, lang, ("+" + o["price"]) if o["price_cents"] else "")
            for o in found["meal_options"]
        ]
        self._option_cents = {
            **{f"menu:{o['id']}": o["price_cents"] for o in found["menu_options"]},
            **{f"meal:{o['id']}": o["price_cents"] for o in found["meal_options"]},
        }
        self.addons = [item_row(a, name, lang, "+" + a["price"]) for a in found["addons"]]
        self._addon_cents = {str(a["id"]): a["price_cents"] for a in found["addons"]}
        # What the dialog may not offer: an option or add-on with the child's Major allergen.
        self._refused = {
            *(f"menu:{o['id']}" for o in self.menu_options if o["disabled"]),
            *(f"meal:{o['id']}" for o in self.meal_options if o["disabled"]),
            *(f"addon:{a['id']}" for a in self.addons if a["disabled"]),
        }
        self._found = found
        self.add_error = ""
        self.note_fee = tr("ui.book.note", lang, fee=format_money(SPECIAL_NOTE_FEE_CENTS, lang))
        if not keep_choices or self.portion_id not in self._portion_tiers:
            self.portion_id = self.portions[0]["id"] if self.portions else ""
        if not keep_choices:
            self.menu_option_id = self.meal_option_id = ""
            self.chosen_addons = []
            self.quantity = 1
            self.note = ""
            self.acknowledged = False
            self._ack_text = ""
        self._reprice()
        self._recompose()

    @rx.event
    async def open_meal(self, meal_id: str):
        who, lang = await self._who()
        if who is None:
            return session_expired(lang)
        listed = next((m for m in self.meals if m["meal_id"] == str(meal_id)), None)
        if listed is None:
            return None  # only a meal of the day's menu opens
        try:
            await self._load_detail(who, _id(meal_id), _id(listed["menu_day_id"]))
        except DomainError as err:
            return failed(message(err, lang))
        forget_submission(self)  # each opening of the dialog is one submission
        self.detail_open = True
        return None

    @rx.event
    def set_detail_open(self, value: bool):
        if not value:
            self._close_detail()

    @rx.event
    def set_portion(self, value: str):
        if str(value) in self._portion_tiers:
            self.portion_id = str(value)
            self._reprice()

    def _offered(self, key: str) -> bool:
        """One of the loaded meal's choices, and not one the child's Major allergy refuses
        (the server refuses it too: this only keeps the dialog honest)."""
        return key not in self._refused

    @rx.event
    def set_menu_option(self, value: str):
        value = str(value)
        key = f"menu:{value}"
        self.menu_option_id = value if key in self._option_cents and self._offered(key) else ""
        self._reprice()
        self._recompose()

    @rx.event
    def set_meal_option(self, value: str):
        value = str(value)
        key = f"meal:{value}"
        self.meal_option_id = value if key in self._option_cents and self._offered(key) else ""
        self._reprice()
        self._recompose()

    @rx.event
    def toggle_addon(self, addon_id: str, checked: bool):
        addon_id = str(addon_id)
        if addon_id not in self._addon_cents:
            return
        chosen = [a for a in self.chosen_addons if a != addon_id]
        if checked and self._offered(f"addon:{addon_id}"):
            chosen.append(addon_id)
        self.chosen_addons = sorted(chosen, key=_id)
        self._reprice()
        self._recompose()

    def _recompose(self) -> None:
        """The dialog's verdict for the meal as composed (the services' rule,
        ``menu.composed_allergy``, on the marks MenuDetail gave): a High/Medium option or
        add-on asks for the acknowledgement naming it; a new thing to acknowledge unticks
        the box."""
        from hotmeals.services.ordering.allergens import composed_allergy

        if not self._found or not self.detail:
            return
        found = composed_allergy(
            self._found,
            menu_option_id=self.menu_option_id or None,
            meal_option_id=self.meal_option_id or None,
            addon_ids=list(self.chosen_addons),
            lang=self._lang or "en",
        )
        verdict = str(found.get("verdict") or "safe")
        text = str(found.get("ack_text") or found.get("message") or "")
        if verdict == "acknowledge" and text != self._ack_text:
            self.acknowledged = False
        self._ack_text = text if verdict == "acknowledge" else ""
        self.detail = {**self.detail, "verdict": verdict, "allergy_message": text}
        self.add_error = ""

    @rx.event
    def change_quantity(self, step: int):
        step = 1 if _id(step) == 1 else -1
        self.quantity = max(1, min(QUANTITY_MAX, self.quantity + step))
        self._reprice()

    @rx.event
    def set_note(self, value: str):
        self.note = str(value)[:NOTE_MAX]
        self._reprice()

    @rx.event
    def set_acknowledged(self, value: bool):
        self.acknowledged = bool(value)

    # ---- add to cart -----------------------------------------------------------------------
    @rx.event
    async def add(self):
        try:
            async for event in self._add():
                yield event
        finally:
            self.turn += 1

    async def _add(self):
        from hotmeals.services.ordering import cart
        from hotmeals.services.submissions import submit_once

        if self.busy or not self._meal_id:
            return
        who, lang = await self._who()
        if who is None:
            self._close_detail()
            yield session_expired(lang)
            return
        self.busy = True
        yield
        values = {
            "child_id": await self._child(),
            "meal_id": self._meal_id,
            "menu_day_id": self._menu_day_id,
            "portion_id": self.portion_id,
            "quantity": self.quantity,
            "menu_option_id": self.menu_option_id or None,
            "meal_option_id": self.meal_option_id or None,
            "addons": list(self.chosen_addons),
            "special_note_text": self.note,
            "allergy_ack": bool(self.acknowledged),
        }
        if self._order_id:
            async for event in self._add_to_order(who, lang, values):
                yield event
            return
        try:
            # The service checks the child, the day, the cut-off, the allergy rule and every
            # option against the parent and the meal; the same dialog sent twice adds once.
            done = await call_service(
                submit_once,
                parent_id=who.parent_id,
                key=submission_key(self, values),
                action="add_to_cart",
                fn=cart.add_to_cart,
                lang=lang,
                **values,
            )
        except DomainError as err:
            self.busy = False
            # The server is the judge: its refusal stays in the dialog beside the button.
            self.add_error = message(err, lang)
            yield failed(self.add_error)
            return
        self.busy = False
        self._close_detail()
        if done.repeated:
            return  # a double tap: the first one said so
        result = done.result
        auth = await self.get_state(AuthState)
        auth.cart_count = int(result.get("cart_count") or 0)
        auth.cart_count_store = str(auth.cart_count)
        yield succeeded(tr("added_to_cart", lang))
        if result.get("allergy_notice"):
            yield rx.toast.info(result["allergy_notice"])
        await self._load_dates(who)  # the day now shows what is in the cart
        await self._load_menu(who)  # and so does the meal's card ("In cart")

    async def _add_to_order(self, who: ActingParent, lang: str, values: dict):
        """The add-item step of modify-order: AddToMyOrder (the same rules as the cart's,
        checked by the service against the order, which must be who's), then back to it."""
        from hotmeals.services import order_changes
        from hotmeals.services.submissions import submit_once

        order_id = self._order_id
        try:
            done = await call_service(
                submit_once,
                parent_id=who.parent_id,
                key=submission_key(self, {"order_id": order_id, **values}),
                action="add_to_my_order",
                fn=order_changes.add_to_my_order,
                order_id=order_id,
                lang=lang,
                **values,
            )
        except DomainError as err:
            self.busy = False
            yield failed(message(err, lang))
            return
        self.busy = False
        self._close_detail()
        if done.repeated:
            return
        yield succeeded(tr("ui.change.added", lang))
        yield rx.redirect(f"/edit-profile/modify-order?id={order_id}")
