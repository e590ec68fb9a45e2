"""Changes to a paid order before they are confirmed (``services/order_changes.py``).

A parent modifies an order (adds meals, removes meals) or moves one meal to another date. The
change is written first as a *draft* (``OrderChange`` with its ``OrderChangeLine`` rows), so the
screens (and the API) can show the difference before confirming, and so an increase can be
paid through Converge before anything of the order changes: the added or moved lines are
applied only once the ``ORDER_CHANGE`` payment is approved (``OrderChangePayment`` in
``services/payments/purposes.py`` calls ``order_changes.apply_paid_change``).

States (``state``): ``draft`` (being edited; one per order), ``paying`` (confirmed, waiting for
its payment ``payment_id``), ``applied`` (the order changed), ``dropped`` (given up: payment
failed, or a cut-off passed before the payment came).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, UniqueConstraint
from sqlmodel import Field, SQLModel

from hotmeals.db.models._base import created_at_field, fk


class OrderChange(SQLModel, table=True):
    __table_args__ = (
        # A retried or double-clicked confirm carries the same key and is confirmed once.
        UniqueConstraint("order_id", "request_key", name="uq_orderchange_request"),
    )
    id: int | None = Field(default=None, primary_key=True)
    order_id: int = fk("order.id", ondelete="CASCADE")
    parent_id: int = fk("parent.id", index=False)
    kind: str = Field(default="modify", max_length=8)  # modify | move
    state: str = Field(default="draft", max_length=8)  # draft | paying | applied | dropped
    payment_id: int | None = fk("payment.id", nullable=True)
    request_key: str | None = Field(default=None, max_length=64)
    amount_cents: int = 0  # at confirm: > 0 paid by the parent, < 0 refunded
    # The HST within ``amount_cents`` (same sign, at the order's stored rate), set at confirm:
    # the change of the order's tax. None on a change confirmed before it was recorded.
    tax_cents: int | None = None
    created_at: datetime = created_at_field()
    updated_at: datetime = created_at_field()


class OrderChangeLine(SQLModel, table=True):
    """One step of a change: ``add`` a meal (the booking's fields, priced at confirm from
    the catalogue), ``remove`` ``quantity`` meals of ``order_line_id``, or ``move``
    ``order_line_id`` to the menu day ``menu_day_id``."""

    __table_args__ = (
        CheckConstraint("quantity >= 1 AND quantity <= 50", name="ck_orderchangeline_quantity"),
    )
    id: int | None = Field(default=None, primary_key=True)
    change_id: int = fk("orderchange.id", ondelete="CASCADE")
    action: str = Field(max_length=8)  # add | remove | move
    order_line_id: int | None = fk("orderline.id", nullable=True, index=False)
    quantity: int = 1
    child_id: int | None = fk("child.id", nullable=True, index=False)
    menu_day_id: int | None = fk("menuday.id", nullable=True, index=False)
    meal_id: int | None = fk("meal.id", nullable=True, index=False)
    portion_id: int | None = fk("portion.id", nullable=True, index=False)
    menu_option_id: int | None = fk("menuoption.id", nullable=True, index=False)
    meal_option_id: int | None = fk("mealoption.id", nullable=True, index=False)
    addon_ids: str = Field(default="", max_length=100)  # "3,7"
    special_note: str | None = Field(default=None, max_length=120)
    allergy_ack: str | None = Field(default=None, max_length=300)
    allergy_ack_at: datetime | None = None
