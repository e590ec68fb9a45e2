"""How the Book meal screen shows what the services answered: the calendar's days, the menu's
cards, the dialog's options and add-ons with the child's allergy marks, the cut-off. Pure
functions of the services' answers and the language."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from hotmeals.domain.dates import long_day, short_moment
from hotmeals.i18n import t as tr
from hotmeals.i18n import tn

STATIC_PREFIX = "/parent"


def image_url(path: str | None) -> str:
    path = path or ""
    return f"{STATIC_PREFIX}{path}" if path.startswith("/") else path


def day_kind(day: dict) -> str:
    """How the calendar shows a GetDates day: closed (no school), away (the child is marked
    away: shown as a closed day), past (cut-off passed) or open."""
    if day.get("is_closed"):
        return "closed"
    if day.get("is_away"):
        return "away"
    return "open" if day.get("is_open") else "past"


def day_label(day: dict, lang: str) -> str:
    """The day button's accessible name: 'Monday, November 24: open, 1 in cart'."""
    parts = [long_day(date.fromisoformat(day["date"]), lang)]
    kind = day_kind(day)
    if kind == "closed":
        status = tr("ui.book.day_closed", lang, reason=day.get("closed_reason") or "")
        if day.get("moved_to"):
            moved = long_day(date.fromisoformat(day["moved_to"]), lang)
            status += ", " + tr("ui.book.day_moved_to", lang, day=moved)
    elif kind == "away":
        status = tr("ui.book.day_away", lang, label=day.get("away_label") or "")
    elif kind == "past":
        status = tr("ui.book.day_past", lang)
    else:
        status = tr("ui.book.day_open", lang)
    extras = [status]
    if day.get("ordered_quantity"):
        extras.append(tn("ui.book.day_ordered", day["ordered_quantity"], lang))
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


def meal_card(meal: dict, lang: str, day_cutoff: str = "") -> dict[str, str]:
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
        "image": image_url(meal.get("image")),
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
    before the tap, the child's mark. A Major one is not offered ("disabled"),
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
