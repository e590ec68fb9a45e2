"""The kitchen's day: what a vendor cooks for a school on a meal date and the label of each meal
on the tray (docs/product.md "The kitchen's day").

Once the day's cut-off has passed (the vendor's rule, ``domain/cutoff``, as every ordering
door computes it), the first read of a school's day freezes its labels into ``KitchenDay``
(one row per school, vendor and date; two first reads at once: the unique constraint keeps
one, the other reads it), and every later read answers from that row, so nothing that happens
after the cut-off (a cancellation, a move, a closure, a child's profile edited) changes them.
A meal cancelled, moved or closed before the freezing read is not on them: its line is no
longer active at that school and date. Before the cut-off the day is refused
(``kitchen_before_cutoff``).

What a label holds and how the orders make it: ``services/kitchen_labels.py``. Words in a
language are chosen when they are shown (the doors, the PDF and the CSV:
``services/kitchen_files.py``); a school's own language is ``SchoolLanguage`` (absent:
English).

The production list is made from the same frozen labels: the allergy and diet rows first, then
the meals counted by meal, size and options, the add-ons counted, and the total.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from hotmeals.db.models import (
    KitchenDay,
    MenuDay,
    School,
    SchoolLanguage,
    Vendor,
)
from hotmeals.domain.cutoff import TORONTO, before_cutoff, cutoff_at
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import normalize_lang
from hotmeals.services.closures import find_school
from hotmeals.services.kitchen_labels import (
    Label,
    Named,
    current_labels,
    from_frozen_text,
    frozen_text,
)
from hotmeals.services.ordering.days import cutoff_rule, meal_date
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.school_days import served_menu_days
from hotmeals.services.transaction import run_in_transaction


@dataclass(frozen=True)
class VendorDay:
    """One vendor's frozen day at a school: its labels sorted by classroom, then child."""

    school_id: int
    school: str
    vendor_id: int
    vendor: str
    meal_date: date
    frozen_at: datetime
    labels: tuple[Label, ...]


@dataclass(frozen=True)
class KitchenLabels:
    """The labels of a school's day for one vendor or each vendor serving it (by vendor name);
    ``lang``: the school's language (``SchoolLanguage``, English without one)."""

    school_id: int
    school: str
    meal_date: date
    lang: str
    days: tuple[VendorDay, ...]

    @property
    def labels(self) -> tuple[Label, ...]:
        return tuple(label for day in self.days for label in day.labels)


# --- the production list -------------------------------------------------------------------


@dataclass(frozen=True)
class AttentionRow:
    """A child with an allergy or a dietary need, and the meal (``count`` meals of one line)."""

    label: Label
    count: int


@dataclass(frozen=True)
class MealCount:
    meal: Named
    size: str
    menu_option: Named | None
    meal_option: Named | None
    count: int


@dataclass(frozen=True)
class AddOnCount:
    addon: Named
    count: int


@dataclass(frozen=True)
class ProductionList:
    """What a vendor cooks for a school's day, from its frozen labels."""

    school_id: int
    school: str
    vendor_id: int
    vendor: str
    meal_date: date
    frozen_at: datetime
    attention: tuple[AttentionRow, ...]  # by classroom, then child
    meals: tuple[MealCount, ...]  # most first, then by name
    addons: tuple[AddOnCount, ...]
    total: int


@dataclass(frozen=True)
class KitchenProduction:
    school_id: int
    school: str
    meal_date: date
    lang: str
    lists: tuple[ProductionList, ...] = field(default_factory=tuple)


def production_list(day: VendorDay) -> ProductionList:
    """The production list of a vendor's frozen day."""
    by_line: dict[int, list[Label]] = defaultdict(list)
    for label in day.labels:
        by_line[label.order_line_id].append(label)
    attention = tuple(
        AttentionRow(label=labels[0], count=len(labels))
        for labels in by_line.values()
        if labels[0].needs_attention
    )
    meals: Counter[tuple[Named, str, Named | None, Named | None]] = Counter(
        (label.meal, label.size, label.menu_option, label.meal_option) for label in day.labels
    )
    addons: Counter[Named] = Counter(a for label in day.labels for a in label.addons)
    return ProductionList(
        school_id=day.school_id,
        school=day.school,
        vendor_id=day.vendor_id,
        vendor=day.vendor,
        meal_date=day.meal_date,
        frozen_at=day.frozen_at,
        attention=tuple(sorted(attention, key=lambda r: r.label.sort_key())),
        meals=tuple(
            MealCount(meal, size, mo, xo, n)
            for (meal, size, mo, xo), n in sorted(
                meals.items(),
                key=lambda kv: (
                    -kv[1],
                    kv[0][0].en,
                    kv[0][1],
                    kv[0][2].en if kv[0][2] else "",
                    kv[0][3].en if kv[0][3] else "",
                ),
            )
        ),
        addons=tuple(
            AddOnCount(a, n) for a, n in sorted(addons.items(), key=lambda kv: (-kv[1], kv[0].en))
        ),
        total=len(day.labels),
    )


# --- reading a day ---------------------------------------------------------------------------


def school_lang(session: Session, school_id: int) -> str:
    """The school's language (``SchoolLanguage``): English without a row."""
    row = session.get(SchoolLanguage, school_id)
    return normalize_lang(row.lang) if row is not None else "en"


@dataclass(frozen=True)
class _Asked:
    school: School
    day: date
    lang: str
    menu_days: tuple[tuple[MenuDay, Vendor], ...]  # by vendor name


def _asked(session: Session, *, school: str, day: str, vendor: str, now: datetime) -> _Asked:
    """The school, the date and the menu days (with their vendors) asked, once every one of
    them is past its cut-off; refused otherwise."""
    found = find_school(session, school)
    when = meal_date(day, "date")
    rows = served_menu_days(session, found, when, vendor)
    for _menu_day, seller in rows:
        closes = cutoff_at(cutoff_rule(seller), when)
        if before_cutoff(closes, now):
            local = closes.astimezone(TORONTO)
            raise DomainError(
                "kitchen_before_cutoff",
                field="date",
                vendor=seller.name,
                date=when.isoformat(),
                cutoff=local.strftime("%Y-%m-%d %H:%M"),
            )
    return _Asked(
        school=found,
        day=when,
        lang=school_lang(session, found.id or 0),
        menu_days=tuple((d, v) for d, v in rows),
    )


def _frozen(session: Session, school_id: int, vendor_id: int, day: date) -> KitchenDay | None:
    return session.exec(
        select(KitchenDay).where(
            col(KitchenDay.school_id) == school_id,
            col(KitchenDay.vendor_id) == vendor_id,
            col(KitchenDay.meal_date) == day,
        )
    ).first()


def _vendor_day(row: KitchenDay, school: School, vendor: Vendor) -> VendorDay:
    labels = from_frozen_text(row.labels)
    return VendorDay(
        school_id=school.id or 0,
        school=school.name,
        vendor_id=vendor.id or 0,
        vendor=vendor.name,
        meal_date=row.meal_date,
        frozen_at=row.frozen_at.astimezone(UTC),
        labels=tuple(sorted(labels, key=Label.sort_key)),
    )


def freeze(
    session: Session,
    *,
    school: School,
    vendor: Vendor,
    day: date,
    labels: Sequence[Label],
    now: datetime,
) -> KitchenDay:
    """The day's row: ``labels`` written, unless another reader froze the day first (the
    unique constraint refuses the second row), whose row is then read and kept."""
    try:
        with session.begin_nested():
            row = KitchenDay(
                school_id=school.id or 0,
                vendor_id=vendor.id or 0,
                meal_date=day,
                labels=frozen_text(labels),
                frozen_at=now.astimezone(UTC),
            )
            session.add(row)
            session.flush()
            return row
    except IntegrityError:
        found = _frozen(session, school.id or 0, vendor.id or 0, day)
        if found is None:
            raise
        return found


def kitchen_labels(
    session: Session, *, school: str, day: str, vendor: str = "", now: datetime
) -> KitchenLabels:
    """The labels of ``school``'s day ``day`` (YYYY-MM-DD) for ``vendor`` (id or exact name;
    "": every vendor serving the school that day), frozen by the first read after the
    cut-off; refused before it."""
    asked = _asked(session, school=school, day=day, vendor=vendor, now=now)
    days = []
    for menu_day, seller in asked.menu_days:
        row = _frozen(session, asked.school.id or 0, seller.id or 0, asked.day)
        if row is None:
            labels = current_labels(session, asked.school, seller, menu_day)
            row = freeze(
                session, school=asked.school, vendor=seller, day=asked.day, labels=labels, now=now
            )
        days.append(_vendor_day(row, asked.school, seller))
    return KitchenLabels(
        school_id=asked.school.id or 0,
        school=asked.school.name,
        meal_date=asked.day,
        lang=asked.lang,
        days=tuple(days),
    )


def kitchen_production(
    session: Session, *, school: str, day: str, vendor: str = "", now: datetime
) -> KitchenProduction:
    """The production list of each vendor of the day (``kitchen_labels``'s frozen labels)."""
    found = kitchen_labels(session, school=school, day=day, vendor=vendor, now=now)
    return KitchenProduction(
        school_id=found.school_id,
        school=found.school,
        meal_date=found.meal_date,
        lang=found.lang,
        lists=tuple(production_list(d) for d in found.days),
    )


async def labels(
    *, school: str, day: str, vendor: str = "", runtime: Runtime = APP
) -> KitchenLabels:
    return await run_in_transaction(
        kitchen_labels,
        engine=runtime.engine,
        school=school,
        day=day,
        vendor=vendor,
        now=runtime.now(),
    )


async def production(
    *, school: str, day: str, vendor: str = "", runtime: Runtime = APP
) -> KitchenProduction:
    return await run_in_transaction(
        kitchen_production,
        engine=runtime.engine,
        school=school,
        day=day,
        vendor=vendor,
        now=runtime.now(),
    )
