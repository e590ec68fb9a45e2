"""The kitchen's day: what a vendor cooks and labels for a school's meal day, and the day's
delivery once it was handed out.

``KitchenDay``: one row per school, vendor and meal date, written the first time the day's
production list or labels are read after the day's cut-off; ``labels`` holds the frozen labels
(JSON, one object per meal on a tray), so nothing that happens after the cut-off changes them.
``DayDelivery``: one row per school, vendor and meal date whose delivery the vendor or the
school confirmed; ``meals`` counts the order lines it moved to delivered.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Column, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from hotmeals.db.models._base import created_at_field, fk


class KitchenDay(SQLModel, table=True):
    __table_args__ = (
        UniqueConstraint("school_id", "vendor_id", "meal_date", name="uq_kitchenday_day"),
    )
    id: int | None = Field(default=None, primary_key=True)
    school_id: int = fk("school.id", index=False)  # the unique constraint above
    vendor_id: int = fk("vendor.id")
    meal_date: date = Field(index=True)
    labels: str = Field(default="[]", sa_column=Column(Text, nullable=False))  # JSON
    frozen_at: datetime = created_at_field()


class DayDelivery(SQLModel, table=True):
    __table_args__ = (
        UniqueConstraint("school_id", "vendor_id", "meal_date", name="uq_daydelivery_day"),
    )
    id: int | None = Field(default=None, primary_key=True)
    school_id: int = fk("school.id", index=False)  # the unique constraint above
    vendor_id: int = fk("vendor.id")
    meal_date: date = Field(index=True)
    meals: int = 0
    confirmed_by: str = Field(default="", max_length=40)  # operator:cli, operator:api
    confirmed_at: datetime = created_at_field()
