"""Many days at once (issue 9, screen 2): several meals for one child or for siblings in one go,
'Repeat last week', and the days a parent can choose from.

Every line goes through the single AddToCart's rules: ``cart.load_batch`` loads what the
lines name in a fixed number of statements and ``cart.check_line`` applies each rule (the
child is the parent's, the school serves the meal that day, the day is open and before its
cut-off, the allergy rule, portion, options, add-ons). Nothing here re-states a rule.

**A refused line refuses only itself.** The good lines are added (in the caller's one
transaction) and each refused one comes back with its day and the reason in the parent's
language: a closed day with its reason, a past cut-off, a meal not offered that day, a Major
allergen, a needed acknowledgement. Only a child that is not the parent's (or an unreadable
child id) refuses the whole call: that is a forged request, not a day's problem.

Repeat-safe: the UI and the API send a submission key (``submissions.submit_once``);
``repeat_week`` is also safe without one: a meal the child already has in the cart or in a paid
order on the target day is skipped (reported as such), so running it twice adds nothing more.

Statements: a fixed number whatever the number of lines (``tests/integration``'s
test_booking_service.py counts them for 1 and 10 lines).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

from sqlalchemy import func
from sqlmodel import Session, select

from hotmeals.db.models import (
    CartLine,
    CartLineAddOn,
    Child,
    Meal,
    MenuDay,
    MenuDayMeal,
    Order,
    OrderLine,
    OrderLineAddOn,
    Vendor,
)
from hotmeals.domain.allergy import MealVerdict, compose, meal_verdict
from hotmeals.domain.cutoff import before_cutoff, cutoff_at
from hotmeals.domain.dates import long_day, long_moment
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.orders import PAID_STATUSES, LineStatus
from hotmeals.i18n import normalize_lang, t
from hotmeals.services import cart, school_year
from hotmeals.services.children import as_id as _as_id
from hotmeals.services.children import own_child
from hotmeals.services.clock import now as utcnow
from hotmeals.services.menu import (
    ADDON,
    DATES_MAX_DAYS,
    MEAL_OPTION,
    MENU_OPTION,
    cutoff_rule,
    meal_date,
    portion_out,
    portions_of,
    toronto_today,
)

ADD_MANY_MAX = cart.CART_MAX_LINES

_ITEM_FIELDS = {
    "child_id": ("child_id",),
    "meal_id": ("meal_id",),
    "portion_id": ("portion_id",),
    "size": ("size",),
    "menu_day_id": ("menu_day_id",),
    "date": ("date", "meal_date"),
    "quantity": ("quantity",),
    "menu_option_id": ("menu_option_id",),
    "meal_option_id": ("meal_option_id",),
    "addons": ("addons", "addon_ids", "adds_on"),
    "special_note": ("special_note", "special_message"),
    "allergy_ack": ("allergy_ack",),
}


def _fr(lang: str) -> bool:
    return normalize_lang(lang) == "fr"


def week_start(day: date) -> date:
    """The Monday of ``day``'s week."""
    return day - timedelta(days=day.weekday())


def _request(item: object) -> cart.LineRequest:
    if not isinstance(item, dict):
        raise DomainError("booking_item_invalid")
    values: dict[str, object] = {}
    for name, aliases in _ITEM_FIELDS.items():
        for alias in aliases:
            if item.get(alias) is not None:
                values[name] = item[alias]
                break
    values["allergy_ack"] = values.get("allergy_ack") is True
    values.setdefault("quantity", 1)
    values.setdefault("child_id", None)
    values.setdefault("meal_id", None)
    return cart.LineRequest(**values)


@dataclass(frozen=True)
class _Outcome:
    added: list[dict]
    refused: list[dict]
    cart_count: int


def _meal_names(session: Session, requests: Iterable[cart.LineRequest]) -> dict[int, Meal]:
    keys = set()
    for request in requests:
        try:
            keys.add(_as_id(request.meal_id, "meal_id", "x", "x"))
        except DomainError:
            continue
    if not keys:
        return {}
    return {m.id: m for m in session.exec(select(Meal).where(Meal.id.in_(sorted(keys)))).all()}


def _day_of(request: cart.LineRequest, batch: cart.Batch) -> date | None:
    try:
        if request.menu_day_id not in (None, "", 0):
            found = batch.days_by_id.get(_as_id(request.menu_day_id, "d", "x", "x"))
            return found[0].meal_date if found else None
        return meal_date(request.date)
    except DomainError:
        return None


def _add(
    session: Session,
    *,
    parent_id: int,
    requests: Sequence[cart.LineRequest],
    lang: str,
    now: datetime,
    labels: Sequence[dict] | None = None,
    names: dict[int, Meal] | None = None,
    drop_conflicting_extras: bool = False,
) -> _Outcome:
    """Check every request with the cart's rules and add the good ones; ``labels`` (per
    request) add what the caller knows about where a line came from. With
    ``drop_conflicting_extras`` (Repeat last week) an option or add-on the child's allergies
    now refuse or need an acknowledgement for is left out of the copy, and the line says so
    (``left_out``); the meal itself still goes through the whole rule."""
    school_year.require_confirmed(
        session, parent_id=parent_id, child_ids=[r.child_id for r in requests], now=now
    )
    batch = cart.load_batch(session, parent_id=parent_id, requests=requests, lang=lang)
    for request in requests:  # a child that is not the parent's refuses the whole call
        key = _as_id(request.child_id, "child_id", "child_not_found", "child_not_found")
        if key not in batch.children:
            raise DomainError("child_not_found", field="child_id")
    left_out: list[list[str]] = [[] for _ in requests]
    if drop_conflicting_extras:
        requests = [
            _without_conflicts(batch, request, left_out[index], lang)
            for index, request in enumerate(requests)
        ]
    names = names if names is not None else _meal_names(session, requests)
    french = _fr(lang)
    accepted: list[tuple[int, cart.CheckedLine]] = []
    refused: list[dict] = []
    for index, request in enumerate(requests):
        child = batch.children[_as_id(request.child_id, "child_id", "x", "x")]
        try:
            checked = cart.check_line(batch, request, lang=lang, now=now)
            if batch.cart_count + len(accepted) >= cart.CART_MAX_LINES:
                raise DomainError("cart_full", max=cart.CART_MAX_LINES)
            accepted.append((index, checked))
        except DomainError as err:
            day = _day_of(request, batch)
            meal = names.get(_as_id(request.meal_id, "m", "x", "x")) if _ok_id(request) else None
            refused.append(
                {
                    "index": index,
                    "child_id": child.id,
                    "child_name": child.first_name,
                    "date": day.isoformat() if day else "",
                    "date_label": long_day(day, lang) if day else "",
                    "meal_id": meal.id if meal else None,
                    "meal": (meal.name_fr if french else meal.name_en) if meal else "",
                    "code": err.code,
                    "reason": _reason(err, lang),
                    "left_out": left_out[index],
                    **((labels or [{}] * len(requests))[index]),
                }
            )
    ids = cart.insert_lines(session, parent_id=parent_id, lines=[c for _, c in accepted], now=now)
    added = []
    for (index, checked), line_id in zip(accepted, ids, strict=True):
        day = checked.menu_day.meal_date
        added.append(
            {
                "index": index,
                "cart_id": line_id,
                "child_id": checked.child.id,
                "child_name": checked.child.first_name,
                "date": day.isoformat(),
                "date_label": long_day(day, lang),
                "meal_id": checked.meal.id,
                "meal": checked.meal.name_fr if french else checked.meal.name_en,
                "size": checked.portion.size,
                "quantity": checked.quantity,
                "line_total_cents": checked.price.total_cents,
                "line_total": format_money(checked.price.total_cents, lang),
                "allergy_ack": checked.ack_text or "",
                "allergy_notice": checked.notice,
                "left_out": left_out[index],
            }
        )
    return _Outcome(added, refused, batch.cart_count + len(ids))


def _without_conflicts(
    batch: cart.Batch, request: cart.LineRequest, notes: list[str], lang: str
) -> cart.LineRequest:
    """``request`` without the options and add-ons whose own allergens the child's allergies
    refuse or need an acknowledgement for (a copy asks no one); each one left out is named in
    ``notes`` ("White milk (250 mL) left out: it contains Milk")."""
    child_key = cart._loose_id(request.child_id)
    if child_key is None:
        return request

    def conflicts(kind: str, key: int | None) -> bool:
        item = batch.items.get((kind, key or 0))
        if item is None:
            return False
        verdict = compose([item.component(child_key)], lang).verdict
        if verdict in (MealVerdict.REFUSED, MealVerdict.ACKNOWLEDGE):
            named = [n for n, level in item.child_matches(child_key) if level != "Non-allergic"]
            notes.append(
                t("allergy_extra_left_out", lang, item=item.name, allergens=", ".join(named))
            )
            return True
        return False

    changes: dict[str, object] = {}
    for kind, field in ((MENU_OPTION, "menu_option_id"), (MEAL_OPTION, "meal_option_id")):
        if conflicts(kind, cart._loose_id(getattr(request, field))):
            changes[field] = None
    if request.addons:
        keys = cart._loose_ids(request.addons)
        kept = [k for k in keys if not conflicts(ADDON, k)]
        if len(kept) != len(keys):
            changes["addons"] = kept
    return replace(request, **changes) if changes else request


def _reason(err: DomainError, lang: str) -> str:
    """The refusal in the parent's words, its day written out ('Wednesday, March 4')."""
    params = dict(err.params)
    if isinstance(params.get("date"), str):
        try:
            params["date"] = long_day(date.fromisoformat(str(params["date"])), lang)
        except ValueError:
            pass
    return t(err.code, lang, **params)


def _ok_id(request: cart.LineRequest) -> bool:
    try:
        _as_id(request.meal_id, "m", "x", "x")
    except DomainError:
        return False
    return True


def add_many(
    *,
    session: Session,
    parent_id: int,
    items: object,
    lang: str = "en",
    now: datetime | None = None,
) -> dict:
    """Add several lines at once (up to ``ADD_MANY_MAX``): each is a dict with AddToCart's
    fields (``child_id``, ``date`` or ``menu_day_id``, ``meal_id``, ``size`` or
    ``portion_id``, ``quantity``, ``menu_option_id``, ``meal_option_id``, ``addons``,
    ``special_note``, ``allergy_ack``). Answers what was added and, for each refused line,
    its day and why."""
    now = now or utcnow()
    if not isinstance(items, (list, tuple)) or not items:
        raise DomainError("booking_no_items", field="items")
    if len(items) > ADD_MANY_MAX:
        raise DomainError("booking_too_many", field="items", max=ADD_MANY_MAX)
    requests = []
    for item in items:
        requests.append(_request(item))
    outcome = _add(session, parent_id=parent_id, requests=requests, lang=lang, now=now)
    return _answer(outcome, "booking_result", lang)


def _answer(outcome: _Outcome, message_key: str, lang: str, skipped: list[dict] | None = None):
    return {
        "added": outcome.added,
        "refused": outcome.refused,
        "skipped": skipped or [],
        "added_count": len(outcome.added),
        "refused_count": len(outcome.refused),
        "cart_count": outcome.cart_count,
        "message": t(message_key, lang, added=len(outcome.added), refused=len(outcome.refused)),
    }


# --- Repeat last week ----------------------------------------------------------------------------


def repeat_week(
    *,
    session: Session,
    parent_id: int,
    child_id: object,
    source_week_start: object,
    target_week_start: object,
    lang: str = "en",
    now: datetime | None = None,
) -> dict:
    """Copy the child's meals of the source week (active lines of paid orders, and the lines
    now in the cart) to the same weekdays of the target week, each through the cart's rules.
    A meal already in the cart or ordered for the child on the target day is skipped, so a
    second run adds nothing. Answers what was added, what could not be (day and reason) and
    what was skipped."""
    now = now or utcnow()
    child = own_child(session, parent_id=parent_id, child_id=child_id)
    assert child.id is not None
    source = week_start(meal_date(source_week_start, "source_week_start"))
    target = week_start(meal_date(target_week_start, "target_week_start"))
    if source == target:
        raise DomainError("repeat_same_week", field="target_week_start")
    shift = target - source
    source_end, target_end = source + timedelta(days=6), target + timedelta(days=6)

    ordered = session.exec(
        select(OrderLine)
        .join(Order, Order.id == OrderLine.order_id)
        .where(
            Order.parent_id == parent_id,
            Order.status.in_([str(s) for s in PAID_STATUSES]),
            OrderLine.child_id == child.id,
            OrderLine.status == LineStatus.ACTIVE,
            OrderLine.quantity > OrderLine.cancelled_quantity,
            OrderLine.meal_date >= source,
            OrderLine.meal_date <= source_end,
        )
        .order_by(OrderLine.meal_date, OrderLine.id)
    ).all()
    in_cart = session.exec(
        select(CartLine, MenuDay.meal_date)
        .join(MenuDay, MenuDay.id == CartLine.menu_day_id)
        .where(
            CartLine.parent_id == parent_id,
            CartLine.child_id == child.id,
            MenuDay.meal_date >= source,
            MenuDay.meal_date <= source_end,
        )
        .order_by(MenuDay.meal_date, CartLine.id)
    ).all()
    order_addons: dict[int, list[int]] = {}
    if ordered:
        for line_id, addon_id in session.exec(
            select(OrderLineAddOn.order_line_id, OrderLineAddOn.addon_id).where(
                OrderLineAddOn.order_line_id.in_([o.id for o in ordered])
            )
        ).all():
            order_addons.setdefault(line_id, []).append(addon_id)
    cart_addons: dict[int, list[int]] = {}
    if in_cart:
        for line_id, addon_id in session.exec(
            select(CartLineAddOn.cart_line_id, CartLineAddOn.addon_id).where(
                CartLineAddOn.cart_line_id.in_([c.id for c, _ in in_cart])
            )
        ).all():
            cart_addons.setdefault(line_id, []).append(addon_id)

    choices: dict[tuple[date, int], cart.LineRequest] = {}
    for o in ordered:
        choices.setdefault(
            (o.meal_date, o.meal_id),
            cart.LineRequest(
                child_id=child.id,
                meal_id=o.meal_id,
                portion_id=o.portion_id,
                date=(o.meal_date + shift).isoformat(),
                quantity=o.quantity - o.cancelled_quantity,
                menu_option_id=o.menu_option_id,
                meal_option_id=o.meal_option_id,
                addons=order_addons.get(o.id or 0, []),
                special_note=o.special_note,
            ),
        )
    for c, day in in_cart:
        choices.setdefault(
            (day, c.meal_id),
            cart.LineRequest(
                child_id=child.id,
                meal_id=c.meal_id,
                portion_id=c.portion_id,
                date=(day + shift).isoformat(),
                quantity=c.quantity,
                menu_option_id=c.menu_option_id,
                meal_option_id=c.meal_option_id,
                addons=cart_addons.get(c.id or 0, []),
                special_note=c.special_note,
            ),
        )
    if not choices:
        raise DomainError(
            "repeat_week_empty", field="source_week_start", date=long_day(source, lang)
        )

    there_in_cart = set(
        session.exec(
            select(MenuDay.meal_date, CartLine.meal_id)
            .join(MenuDay, MenuDay.id == CartLine.menu_day_id)
            .where(
                CartLine.parent_id == parent_id,
                CartLine.child_id == child.id,
                MenuDay.meal_date >= target,
                MenuDay.meal_date <= target_end,
            )
        ).all()
    )
    there_ordered = set(
        session.exec(
            select(OrderLine.meal_date, OrderLine.meal_id)
            .join(Order, Order.id == OrderLine.order_id)
            .where(
                Order.status.in_([str(s) for s in PAID_STATUSES]),
                OrderLine.child_id == child.id,
                OrderLine.status == LineStatus.ACTIVE,
                OrderLine.meal_date >= target,
                OrderLine.meal_date <= target_end,
            )
        ).all()
    )
    names = _meal_names(session, choices.values())
    french = _fr(lang)
    requests: list[cart.LineRequest] = []
    labels: list[dict] = []
    skipped: list[dict] = []
    for (day, meal_id), request in sorted(choices.items()):
        to_day = day + shift
        meal = names.get(meal_id)
        label = {"source_date": day.isoformat()}
        reason = None
        if (to_day, meal_id) in there_in_cart:
            reason = "repeat_already_in_cart"
        elif (to_day, meal_id) in there_ordered:
            reason = "repeat_already_ordered"
        if reason:
            skipped.append(
                {
                    "child_id": child.id,
                    "child_name": child.first_name,
                    "date": to_day.isoformat(),
                    "date_label": long_day(to_day, lang),
                    "meal_id": meal_id,
                    "meal": (meal.name_fr if french else meal.name_en) if meal else "",
                    "code": reason,
                    "reason": t(reason, lang),
                    **label,
                }
            )
            continue
        requests.append(request)
        labels.append(label)
    if requests:
        outcome = _add(
            session,
            parent_id=parent_id,
            requests=requests,
            lang=lang,
            now=now,
            labels=labels,
            names=names,
            drop_conflicting_extras=True,
        )
    else:
        count = session.exec(
            select(func.count()).select_from(CartLine).where(CartLine.parent_id == parent_id)
        ).one()
        outcome = _Outcome([], [], int(count))
    for entry in outcome.added:
        entry["source_date"] = labels[entry["index"]]["source_date"]
    answer = _answer(outcome, "repeat_result", lang, skipped)
    answer.update(
        {
            "child_id": child.id,
            "source_week_start": source.isoformat(),
            "target_week_start": target.isoformat(),
            "skipped_count": len(skipped),
        }
    )
    return answer


# --- the days a parent chooses from ---------------------------------------------------------------


def week_choices(
    *,
    session: Session,
    parent_id: int,
    child_ids: object,
    from_date: object = None,
    to_date: object = None,
    lang: str = "en",
    now: datetime | None = None,
) -> dict:
    """For one or more of the parent's children, each school day from ``from_date`` (default
    today) to ``to_date`` (default the end of next week): open or not (closed with its reason,
    past its cut-off), the cut-off, what is already in the cart or ordered, and the meals of
    that day with their sizes, prices and allergy verdict for the child. Seven statements
    whatever the number of children, days and meals."""
    now = now or utcnow()
    if not isinstance(child_ids, (list, tuple)):
        child_ids = [child_ids]
    keys = sorted({_as_id(c, "child_id", "child_not_found", "child_not_found") for c in child_ids})
    if not keys or len(keys) > 10:
        raise DomainError("child_not_found", field="child_id")
    start = meal_date(from_date, "from_date") if from_date else toronto_today(now)
    end = (
        meal_date(to_date, "to_date")
        if to_date
        else week_start(start) + timedelta(days=13)  # the end of next week
    )
    if end < start or (end - start).days > DATES_MAX_DAYS:
        raise DomainError("date_range_invalid", field="to_date", max=DATES_MAX_DAYS)
    children = session.exec(
        select(Child).where(Child.id.in_(keys), Child.parent_id == parent_id, Child.is_active)
    ).all()
    if len(children) != len(keys):
        raise DomainError("child_not_found", field="child_id")
    schools = sorted({c.school_id for c in children})
    days = session.exec(
        select(MenuDay, Vendor)
        .join(Vendor, Vendor.id == MenuDay.vendor_id)
        .where(
            MenuDay.school_id.in_(schools),
            MenuDay.meal_date >= start,
            MenuDay.meal_date <= end,
        )
        .order_by(MenuDay.meal_date, Vendor.name)
    ).all()
    day_ids = [d.id for d, _ in days]
    meals_of: dict[int, list[Meal]] = {}
    if day_ids:
        for menu_day_id, meal in session.exec(
            select(MenuDayMeal.menu_day_id, Meal)
            .join(Meal, Meal.id == MenuDayMeal.meal_id)
            .where(MenuDayMeal.menu_day_id.in_(day_ids), Meal.is_active)
            .order_by(Meal.name_en)
        ).all():
            meals_of.setdefault(menu_day_id, []).append(meal)
    meal_ids = sorted({m.id for found in meals_of.values() for m in found if m.id is not None})
    portions = portions_of(session, meal_ids)
    matches = cart._matches(session, {(c.id, m) for c in children for m in meal_ids}, lang)
    in_cart: dict[tuple[int, date], int] = {}
    ordered: dict[tuple[int, date], int] = {}
    for child_key, day, qty in session.exec(
        select(CartLine.child_id, MenuDay.meal_date, func.sum(CartLine.quantity))
        .join(MenuDay, MenuDay.id == CartLine.menu_day_id)
        .where(
            CartLine.parent_id == parent_id,
            CartLine.child_id.in_(keys),
            MenuDay.meal_date >= start,
            MenuDay.meal_date <= end,
        )
        .group_by(CartLine.child_id, MenuDay.meal_date)
    ).all():
        in_cart[(child_key, day)] = int(qty or 0)
    for child_key, day, qty in session.exec(
        select(
            OrderLine.child_id,
            OrderLine.meal_date,
            func.sum(OrderLine.quantity - OrderLine.cancelled_quantity),
        )
        .join(Order, Order.id == OrderLine.order_id)
        .where(
            OrderLine.child_id.in_(keys),
            OrderLine.meal_date >= start,
            OrderLine.meal_date <= end,
            OrderLine.status == LineStatus.ACTIVE,
            Order.status.in_([str(s) for s in PAID_STATUSES]),
        )
        .group_by(OrderLine.child_id, OrderLine.meal_date)
    ).all():
        ordered[(child_key, day)] = int(qty or 0)

    french = _fr(lang)
    by_school: dict[tuple[int, date], list[tuple[MenuDay, Vendor]]] = {}
    for menu_day, vendor in days:
        by_school.setdefault((menu_day.school_id, menu_day.meal_date), []).append(
            (menu_day, vendor)
        )
    out = []
    for child in sorted(children, key=lambda c: (not c.is_default, c.first_name, c.id or 0)):
        assert child.id is not None
        child_days = []
        for (school_id, day), served in sorted(by_school.items(), key=lambda kv: kv[0][1]):
            if school_id != child.school_id:
                continue
            open_pairs = [(d, v) for d, v in served if not d.is_closed and v.is_active]
            first_day, first_vendor = (open_pairs or served)[0]
            closes = cutoff_at(cutoff_rule(first_vendor), day)
            state, note = "open", ""
            if not open_pairs:
                state = "closed"
                note = t(
                    "menu_day_closed",
                    lang,
                    date=long_day(day, lang),
                    reason=(first_day.closed_reason_fr if french else first_day.closed_reason_en)
                    or "",
                )
            elif not before_cutoff(closes, now):
                state = "past_cutoff"
                note = t("meal_day_closed", lang, date=long_day(day, lang))
            meals = []
            for menu_day, vendor in open_pairs:
                for meal in meals_of.get(menu_day.id or 0, []):
                    sizes = portions.get(meal.id or 0, [])
                    if not sizes:
                        continue
                    found = matches.get((child.id, meal.id or 0), [])
                    verdict = meal_verdict(level for _, level in found)
                    named = ", ".join(n for n, _ in found)
                    allergy = ""
                    if verdict is MealVerdict.REFUSED:
                        allergy = t("allergy_refused", lang, allergens=named)
                    elif verdict is MealVerdict.ACKNOWLEDGE:
                        allergy = t("allergy_ack_text", lang, allergens=named)
                    elif verdict is MealVerdict.NOTICE:
                        allergy = t("allergy_notice", lang, allergens=named)
                    meals.append(
                        {
                            "meal_id": meal.id,
                            "menu_day_id": menu_day.id,
                            "vendor": vendor.name,
                            "name": meal.name_fr if french else meal.name_en,
                            "verdict": verdict.value,
                            "allergy": allergy,
                            "portions": [portion_out(p, lang) for p in sizes],
                        }
                    )
            child_days.append(
                {
                    "date": day.isoformat(),
                    "label": long_day(day, lang),
                    "state": state,
                    "note": note,
                    "cutoff_at": closes.isoformat(),
                    "cutoff_label": long_moment(closes, lang),
                    "cart_quantity": in_cart.get((child.id, day), 0),
                    "ordered_quantity": ordered.get((child.id, day), 0),
                    "meals": meals,
                }
            )
        out.append(
            {
                "child_id": child.id,
                "child_name": f"{child.first_name} {child.last_name}",
                "school_id": child.school_id,
                "days": child_days,
            }
        )
    return {"from_date": start.isoformat(), "to_date": end.isoformat(), "children": out}


def repeat_weeks(
    *,
    session: Session,
    parent_id: int,
    child_ids: object,
    source_week_start: object,
    target_week_start: object,
    lang: str = "en",
    now: datetime | None = None,
) -> dict:
    """``repeat_week`` for several of the parent's children (siblings) in one transaction;
    a child with nothing chosen that week is listed in ``empty`` (its name), not an error.
    Another parent's child refuses the whole call."""
    if not isinstance(child_ids, (list, tuple)) or not child_ids or len(child_ids) > 10:
        raise DomainError("child_not_found", field="child_id")
    merged: dict = {"added": [], "refused": [], "skipped": [], "empty": []}
    cart_count = None
    for child_id in child_ids:
        try:
            one = repeat_week(
                session=session,
                parent_id=parent_id,
                child_id=child_id,
                source_week_start=source_week_start,
                target_week_start=target_week_start,
                lang=lang,
                now=now,
            )
        except DomainError as err:
            if err.code != "repeat_week_empty":
                raise
            child = own_child(session, parent_id=parent_id, child_id=child_id)
            merged["empty"].append(child.first_name)
            continue
        for name in ("added", "refused", "skipped"):
            merged[name] += one[name]
        cart_count = one["cart_count"]
    if cart_count is None:
        cart_count = session.exec(
            select(func.count()).select_from(CartLine).where(CartLine.parent_id == parent_id)
        ).one()
    added, refused = len(merged["added"]), len(merged["refused"])
    merged.update(
        {
            "added_count": added,
            "refused_count": refused,
            "skipped_count": len(merged["skipped"]),
            "cart_count": int(cart_count),
            "message": t("repeat_result", lang, added=added, refused=refused),
        }
    )
    return merged


def quick_range(name: str, today: date) -> tuple[date, date]:
    """The quick picks of the many-days screen: 'this_week' (today to Friday), 'next_week'
    (Monday to Friday), 'month' (today to the month's last day)."""
    monday = week_start(today)
    if name == "next_week":
        return monday + timedelta(days=7), monday + timedelta(days=11)
    if name == "month":
        first_next = (today.replace(day=28) + timedelta(days=4)).replace(day=1)
        return today, first_next - timedelta(days=1)
    return today, max(today, monday + timedelta(days=4))
