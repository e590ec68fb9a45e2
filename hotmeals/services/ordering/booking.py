"""Many days at once (Book meal, screen 2): several meals for one child or for siblings in one
go. ``repeat.py`` copies a week through the same door (``add_lines``).

Every line goes through the single AddToCart's rules: ``lines.load_batch`` loads what the
lines name in a fixed number of statements and ``lines.check_line`` applies each rule (the
child is the parent's, the school serves the meal that day, the day is open and before its
cut-off, the allergy rule, portion, options, add-ons). Nothing here re-states a rule.

**A refused line refuses only itself.** The good lines are added (in the caller's one
transaction) and each refused one comes back with its day and the reason in the parent's
language: a closed day with its reason, a past cut-off, a meal not offered that day, a Major
allergen, a needed acknowledgement. Only a child that is not the parent's (or an unreadable
child id) refuses the whole call: that is a forged request, not a day's problem.

Repeat-safe: the UI and the API send a submission key (``submissions.submit_once``).

Statements: a fixed number whatever the number of lines (``tests/integration``'s
test_booking_service.py counts them for 1 and 10 lines).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import Meal
from hotmeals.domain.allergy import (
    MealVerdict,
    compose,
)
from hotmeals.domain.dates import long_day
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t
from hotmeals.services.ordering.allergens import (
    ADDON,
    MEAL_OPTION,
    MENU_OPTION,
)
from hotmeals.services.ordering.days import meal_date
from hotmeals.services.ordering.labels import is_french
from hotmeals.services.ordering.lines import (
    CART_MAX_LINES,
    Batch,
    CheckedLine,
    LineRequest,
    asked_addons,
    check_line,
    insert_lines,
    load_batch,
)

ADD_MANY_MAX = CART_MAX_LINES
Day = date  # the type, inside a class that has a field named ``date``


@dataclass(frozen=True)
class Booked:
    """A line added to the cart (``index``: its place among the lines asked)."""

    index: int
    cart_id: int
    child_id: int
    child_name: str
    date: date
    meal_id: int
    meal: str  # the meal's name in the parent's language
    size: str
    quantity: int
    line_total_cents: int
    allergy_ack: str
    allergy_notice: str
    left_out: tuple[str, ...]  # Repeat last week: the options and add-ons not copied, and why
    source_date: Day | None  # Repeat last week: the day copied


@dataclass(frozen=True)
class Refused:
    """A line that could not be added: its day (None when unreadable), its meal (None when
    not known) and why (``code``, ``reason`` in the parent's language)."""

    index: int
    child_id: int
    child_name: str
    date: Day | None
    meal_id: int | None
    meal: str
    code: str
    reason: str
    left_out: tuple[str, ...]
    source_date: Day | None


@dataclass(frozen=True)
class Outcome:
    added: tuple[Booked, ...]
    refused: tuple[Refused, ...]
    cart_count: int


def meal_names(session: Session, requests: Iterable[LineRequest]) -> dict[int, Meal]:
    keys = {request.meal_id for request in requests if request.meal_id > 0}
    if not keys:
        return {}
    rows = session.exec(select(Meal).where(col(Meal.id).in_(sorted(keys)))).all()
    return {m.id: m for m in rows if m.id is not None}


def _day_of(request: LineRequest, batch: Batch) -> date | None:
    if request.menu_day_id:
        found = batch.days_by_id.get(request.menu_day_id)
        return found[0].meal_date if found else None
    try:
        return meal_date(request.date or "")
    except DomainError:
        return None


def add_lines(
    session: Session,
    *,
    parent_id: int,
    requests: Sequence[LineRequest],
    lang: str,
    now: datetime,
    sources: Sequence[date] | None = None,
    names: dict[int, Meal] | None = None,
    drop_conflicting_extras: bool = False,
) -> Outcome:
    """Check every request with the cart's rules and add the good ones; ``sources`` (per
    request, Repeat last week) the day each line is copied from. With
    ``drop_conflicting_extras`` (Repeat last week) an option or add-on the child's allergies
    now refuse or need an acknowledgement for is left out of the copy, and the line says so
    (``left_out``); the meal itself still goes through the whole rule."""
    batch = load_batch(session, parent_id=parent_id, requests=requests, lang=lang, confirmed_at=now)
    for request in requests:  # a child that is not the parent's refuses the whole call
        if request.child_id not in batch.children:
            raise DomainError("child_not_found", field="child_id")
    left_out: list[list[str]] = [[] for _ in requests]
    if drop_conflicting_extras:
        requests = [
            _without_conflicts(batch, request, left_out[index], lang)
            for index, request in enumerate(requests)
        ]
    names = names if names is not None else meal_names(session, requests)
    french = is_french(lang)
    accepted: list[tuple[int, CheckedLine]] = []
    refused: list[Refused] = []
    for index, request in enumerate(requests):
        child = batch.children[request.child_id]
        assert child.id is not None  # read
        try:
            checked = check_line(batch, request, lang=lang, now=now)
            if batch.cart_count + len(accepted) >= CART_MAX_LINES:
                raise DomainError("cart_full", max=CART_MAX_LINES)
            accepted.append((index, checked))
        except DomainError as err:
            meal = names.get(request.meal_id)
            refused.append(
                Refused(
                    index=index,
                    child_id=child.id,
                    child_name=child.first_name,
                    date=_day_of(request, batch),
                    meal_id=meal.id if meal else None,
                    meal=(meal.name_fr if french else meal.name_en) if meal else "",
                    code=err.code,
                    reason=_reason(err, lang),
                    left_out=tuple(left_out[index]),
                    source_date=sources[index] if sources else None,
                )
            )
    ids = insert_lines(session, parent_id=parent_id, lines=[c for _, c in accepted], now=now)
    added = []
    for (index, checked), line_id in zip(accepted, ids, strict=True):
        assert checked.child.id is not None and checked.meal.id is not None  # read rows
        added.append(
            Booked(
                index=index,
                cart_id=line_id,
                child_id=checked.child.id,
                child_name=checked.child.first_name,
                date=checked.menu_day.meal_date,
                meal_id=checked.meal.id,
                meal=checked.meal.name_fr if french else checked.meal.name_en,
                size=checked.portion.size,
                quantity=checked.quantity,
                line_total_cents=checked.price.total_cents,
                allergy_ack=checked.ack_text or "",
                allergy_notice=checked.notice,
                left_out=tuple(left_out[index]),
                source_date=sources[index] if sources else None,
            )
        )
    return Outcome(tuple(added), tuple(refused), batch.cart_count + len(ids))


def _without_conflicts(
    batch: Batch, request: LineRequest, notes: list[str], lang: str
) -> LineRequest:
    """``request`` without the options and add-ons whose own allergens the child's allergies
    refuse or need an acknowledgement for (a copy asks no one); each one left out is named in
    ``notes`` ("White milk (250 mL) left out: it contains Milk")."""
    child_key = request.child_id

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

    changes: dict[str, Any] = {}
    for kind, field in ((MENU_OPTION, "menu_option_id"), (MEAL_OPTION, "meal_option_id")):
        if conflicts(kind, getattr(request, field)):
            changes[field] = None
    if request.addons:
        keys = asked_addons(request)
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


def add_many(
    *,
    session: Session,
    parent_id: int,
    items: Sequence[LineRequest],
    lang: str = "en",
) -> Outcome:
    """Add several lines at once (up to ``ADD_MANY_MAX``), each with AddToCart's fields.
    Answers what was added and, for each refused line, its day and why."""
    now = clock.now()
    if not isinstance(items, (list, tuple)) or not items:
        raise DomainError("booking_no_items", field="items")
    if len(items) > ADD_MANY_MAX:
        raise DomainError("booking_too_many", field="items", max=ADD_MANY_MAX)
    return add_lines(session, parent_id=parent_id, requests=items, lang=lang, now=now)
