"""How the Book meal screen shows what the services answered: the calendar's days, the menu's
cards, the dialog's options and add-ons with the child's allergy marks, the cut-off. Pure
functions of the services' answers and the language."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta

from hotmeals.domain import diet
from hotmeals.domain.dates import long_day, short_moment
from hotmeals.domain.money import format_money
from hotmeals.i18n import t as tr
from hotmeals.i18n import tn
from hotmeals.services.ordering.allergens import AllergyMark
from hotmeals.services.ordering.days import MealDay
from hotmeals.services.ordering.diets import DietFit
from hotmeals.services.ordering.menu import AddOnView, MenuMeal, OptionView

STATIC_PREFIX = "/parent"


def image_url(path: str | None) -> str:
    path = path or ""
    return f"{STATIC_PREFIX}{path}" if path.startswith("/") else path


def day_kind(day: MealDay) -> str:
    """How the calendar shows a GetDates day: closed (no school), away (the child is marked
    away: shown as a closed day), past (cut-off passed) or open."""
    if day.is_closed:
        return "closed"
    if day.is_away:
        return "away"
    return "open" if day.is_open else "past"


def day_label(day: MealDay, lang: str) -> str:
    """The day button's accessible name: 'Monday, November 24: open, 1 in cart'."""
    parts = [long_day(day.day, lang)]
    kind = day_kind(day)
    if kind == "closed":
        status = tr("ui.book.day_closed", lang, reason=day.closed_reason)
        if day.moved_to is not None:
            moved = long_day(day.moved_to, lang)
            status += ", " + tr("ui.book.day_moved_to", lang, day=moved)
    elif kind == "away":
        status = tr("ui.book.day_away", lang, label=day.away_label)
    elif kind == "past":
        status = tr("ui.book.day_past", lang)
    else:
        status = tr("ui.book.day_open", lang)
    extras = [status]
    if day.ordered_quantity:
        extras.append(tn("ui.book.day_ordered", day.ordered_quantity, lang))
    if day.cart_quantity:
        extras.append(tr("ui.book.day_in_cart", lang, n=day.cart_quantity))
    return tr("ui.book.day_aria", lang, day=parts[0], status=", ".join(extras))


def month_cells(days: Sequence[MealDay], month: str, lang: str) -> list[dict[str, str]]:
    """The weekday cells (Monday to Friday: school days) of ``month`` ('YYYY-MM'), weeks in
    rows, for a grid of five columns. A cell outside the month is blank; a weekday the school
    serves no meals is 'none'; the rest carry the GetDates day."""
    year, mon = (int(p) for p in month.split("-"))
    first = date(year, mon, 1)
    by_date = {d.day: d for d in days}
    while first.weekday() >= 5:  # a month starting on a weekend starts on its first Monday
        first += timedelta(days=1)
    start = first - timedelta(days=first.weekday())
    cells: list[dict[str, str]] = []
    cursor = start
    while cursor.month == mon or cursor < first:
        if cursor.weekday() < 5:
            cell = {"date": "", "day": "", "kind": "blank", "label": "", "ordered": "", "cart": ""}
            if cursor.month == mon:
                found = by_date.get(cursor)
                cell["day"] = str(cursor.day)
                if found is None:
                    cell["kind"] = "none"
                    cell["label"] = long_day(cursor, lang)
                else:
                    cell.update(
                        date=cursor.isoformat(),
                        kind=day_kind(found),
                        label=day_label(found, lang),
                        ordered="1" if found.ordered_quantity else "",
                        cart=str(found.cart_quantity or ""),
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
    return verdict_badge(allergy.get("verdict") or "safe", allergy.get("allergens") or [], lang)


def mark_badge(mark: AllergyMark | None, lang: str) -> str:
    """``allergy_badge`` of a menu's AllergyMark (none without a child)."""
    if mark is None:
        return ""
    return verdict_badge(mark.verdict.value, mark.allergens, lang)


def verdict_badge(verdict: str, allergens: Sequence[str], lang: str) -> str:
    key = BADGE_KEYS.get(verdict)
    if key is None:
        return ""
    return tr(key, lang, allergens=", ".join(allergens))


def small_price(meal: MenuMeal, lang: str) -> str:
    """The card's price: the small size's (the first listed, small first); the cheapest when
    the meal has no small size."""
    small = next((p for p in meal.portions if p.size == "small"), None)
    cents = small.tiers[0].unit_price_cents if small is not None else meal.price_from_cents
    return format_money(cents, lang)


def cutoff_text(cutoff_at: str, is_open: bool, lang: str) -> str:
    """'Order by Thu, Nov 26, 6:00 p.m.' or 'Ordering closed ...' (Babel, Toronto time)."""
    if not cutoff_at:
        return ""
    when = short_moment(datetime.fromisoformat(cutoff_at), lang)
    return tr("ui.safe.order_by" if is_open else "ui.safe.closed_at", lang, when=when)


def diet_fits_text(found: DietFit | None, child: str, lang: str) -> str:
    """'Fits Emma's diet' for a meal that meets every need of a child who has some, else ""."""
    if found is None or not found.fits:
        return ""
    return tr("ui.diet.fits", lang, whose=diet.whose(child, lang))


def diet_miss_text(found: DietFit | None, child: str, lang: str) -> str:
    """'Does not fit Emma's diet: Not vegetarian' for a meal that misses a need, else ""."""
    if found is None or found.fits:
        return ""
    missing = diet.missing_text(found.unmet, lang)
    return tr("ui.diet.misses", lang, whose=diet.whose(child, lang), missing=missing)


def diet_line_text(found: DietFit | None, child: str, lang: str) -> str:
    """A booked line's word on the child's diet: it fits, or what it misses ("" for a child
    without needs)."""
    return diet_fits_text(found, child, lang) or diet_miss_text(found, child, lang)


def diet_fit_of(answer: dict | None) -> DietFit | None:
    """A fit as an /api/v1-shaped answer gives it (``{"unmet": [codes]}``; None: no needs)."""
    if not answer:
        return None
    return DietFit(tuple(diet.Diet(c) for c in answer.get("unmet") or () if c in diet.DIETS))


def meal_card(
    meal: MenuMeal, lang: str, day_cutoff: datetime | None = None, child: str = ""
) -> dict[str, str]:
    """A menu card's strings. Its cut-off is shown when it is not the day's (the day note
    says that one): a day served by two vendors may close at two times. For a child with
    dietary needs (``child``: the first name), whether it fits them."""
    allergy = meal.allergy
    cutoff = meal.cutoff_at.isoformat()
    if meal.cutoff_at == day_cutoff:
        cutoff = ""
    own = list(meal.allergens)
    extras = [a for a in meal.extras_allergens if a not in own]
    in_cart = meal.in_cart_quantity
    return {
        "choose_label": tr("ui.book.view_label", lang, meal=meal.name),
        "badge": mark_badge(allergy, lang),
        "meal_id": str(meal.meal_id),
        "menu_day_id": str(meal.menu_day_id),
        "name": meal.name,
        "description": meal.description,
        "image": image_url(meal.image),
        "price_from": tr("ui.safe.from", lang, price=small_price(meal, lang)),
        "verdict": allergy.verdict.value,
        "allergens": ", ".join(allergy.allergens),
        "allergy_message": allergy.message,
        "vendor": meal.vendor,
        # Every allergen of the meal, and those only some of its options or add-ons carry.
        "contains": (
            tr("ui.safe.contains", lang, allergens=", ".join(own))
            if own
            else tr("ui.safe.no_allergens", lang)
        ),
        "extras": tr("ui.safe.extras", lang, allergens=", ".join(extras)) if extras else "",
        "in_cart": tr("ui.safe.in_cart", lang, count=in_cart) if in_cart else "",
        "cutoff": cutoff_text(cutoff, meal.is_open, lang),
        "diet_fits": diet_fits_text(meal.diet, child, lang),
        "diet_miss": diet_miss_text(meal.diet, child, lang),
        # what "Safe for Emma" keeps: it fits her diet and holds none of her allergens
        "safe": "1" if meal.safe_for_child else "",
    }


def extra_price(cents: int, lang: str) -> str:
    """An option's price as the dialog adds it ('+$0.50'), "" when it costs nothing."""
    return "+" + format_money(cents, lang) if cents else ""


ITEM_MARKS = {
    "refused": "ui.safe.cannot_pick",
    "acknowledge": "ui.safe.needs_ack",
    "notice": "ui.safe.notice",
}


def item_row(item: OptionView | AddOnView, child: str, lang: str, price: str) -> dict[str, str]:
    """A menu option, meal option or add-on as the dialog lists it: its own allergens and,
    before the tap, the child's mark. A Major one is not offered ("disabled"),
    with the reason; a High/Medium one says the box will ask; a Low one is a notice."""
    mark = item.allergy
    verdict = mark.verdict.value if mark is not None else "safe"
    named = ", ".join(mark.allergens if mark is not None else ()) or ", ".join(item.allergens)
    key = ITEM_MARKS.get(verdict)
    if key:
        text = tr(key, lang, name=child, allergens=named)
    elif item.allergens:
        text = tr("ui.safe.contains", lang, allergens=", ".join(item.allergens))
    else:
        text = ""
    if item.diet is not None and not item.diet.fits:  # "Not vegan": the child's diet
        missing = diet.missing_text(item.diet.unmet, lang)
        text = f"{text}; {missing}" if text else missing
    name = item.name
    return {
        "id": str(item.id),
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
