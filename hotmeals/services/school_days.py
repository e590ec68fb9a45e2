"""The operator's school day: a school's menu days on a date, of one vendor (by id or exact
name) or of every vendor serving it that day. Read by the kitchen's day
(``services/kitchen.py``) and the delivery's confirmation (``services/deliveries.py``)."""

from __future__ import annotations

from datetime import date

from sqlmodel import Session, col, func, select

from hotmeals.db.models import MenuDay, School, Vendor
from hotmeals.domain.errors import DomainError


def find_vendor(session: Session, vendor: str) -> Vendor:
    """A vendor by id (digit text) or by its exact name, case aside."""
    text = vendor.strip()
    row = None
    if text.isdigit():
        row = session.get(Vendor, int(text))
    elif text:
        matches = session.exec(
            select(Vendor).where(func.lower(col(Vendor.name)) == text.lower())
        ).all()
        row = matches[0] if len(matches) == 1 else None
    if row is None:
        raise DomainError("school_day_vendor_not_found", field="vendor", vendor=text)
    return row


def served_menu_days(
    session: Session, school: School, day: date, vendor: str
) -> list[tuple[MenuDay, Vendor]]:
    """The school's menu days on ``day`` with their vendors, by vendor name: the one ``vendor``
    names (refused when it does not serve the school that day), or every vendor's when
    ``vendor`` is blank (refused when none serves it)."""
    rows = [
        (menu_day, seller)
        for menu_day, seller in session.exec(
            select(MenuDay, Vendor)
            .join(Vendor, col(Vendor.id) == MenuDay.vendor_id)
            .where(col(MenuDay.school_id) == school.id, col(MenuDay.meal_date) == day)
            .order_by(col(Vendor.name))
        ).all()
    ]
    if vendor.strip():
        wanted = find_vendor(session, vendor)
        rows = [(d, v) for d, v in rows if v.id == wanted.id]
        if not rows:
            raise DomainError(
                "school_day_vendor_not_serving",
                field="vendor",
                vendor=wanted.name,
                school=school.name,
                date=day.isoformat(),
            )
    if not rows:
        raise DomainError(
            "school_day_not_served", field="date", school=school.name, date=day.isoformat()
        )
    return rows
