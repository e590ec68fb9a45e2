"""Money-moving records: cart, orders and their lines, the cancel cart, payments, refunds,
stored cards, promo codes and donations. Amounts are integer cents.

What was paid and what can still be refunded are sums over ``Payment`` and ``Refund`` rows, one
row per attempt, never a stored flag. ``Order.total_refund_cents`` is the §3 charge shown to the
parent; the refund service updates it in the same transaction as the refund row it sums.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlmodel import Field, SQLModel

from hotmeals.db.models._base import created_at_field, fk


class CartLine(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id", ondelete="CASCADE")
    child_id: int = fk("child.id")
    menu_day_id: int = fk("menuday.id")
    meal_id: int = fk("meal.id")
    portion_id: int = fk("portion.id")
    quantity: int = 1
    menu_option_id: int | None = fk("menuoption.id", nullable=True)
    meal_option_id: int | None = fk("mealoption.id", nullable=True)
    special_note: str | None = Field(default=None, max_length=120)
    created_at: datetime = created_at_field()


class CartLineAddOn(SQLModel, table=True):
    cart_line_id: int = Field(foreign_key="cartline.id", primary_key=True, ondelete="CASCADE")
    addon_id: int = Field(foreign_key="addon.id", primary_key=True)


class PromoCode(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(max_length=32, unique=True, index=True)  # stored upper-cased
    description_en: str = Field(default="", max_length=200)
    description_fr: str = Field(default="", max_length=200)
    percent_bps: int = 0  # 1000 = 10 %
    amount_off_cents: int = 0
    min_order_cents: int = 0
    parent_id: int | None = fk("parent.id", nullable=True)  # None: open to every parent
    valid_from: date | None = None
    valid_until: date | None = None
    max_uses: int | None = None
    is_active: bool = True


class Order(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    number: str = Field(max_length=20, unique=True, index=True)  # shown to parents: HM-000123
    parent_id: int = fk("parent.id")
    status: str = Field(default="PENDING_PAYMENT", max_length=24)  # domain.orders.OrderStatus
    promo_code_id: int | None = fk("promocode.id", nullable=True)
    # The nine charges of spec §3.
    meal_net_cents: int = 0
    special_note_fees_cents: int = 0
    processing_fee_cents: int = 0
    tax_cents: int = 0
    discount_cents: int = 0
    school_donation_cents: int = 0
    additional_charge_cents: int = 0
    total_pay_cents: int = 0
    total_refund_cents: int = 0
    created_at: datetime = created_at_field()
    placed_at: datetime | None = None
    updated_at: datetime = created_at_field()


class OrderLine(SQLModel, table=True):
    """One meal for one child on one date; names and prices are copied at order time."""

    id: int | None = Field(default=None, primary_key=True)
    order_id: int = fk("order.id", ondelete="CASCADE")
    child_id: int = fk("child.id")
    menu_day_id: int = fk("menuday.id")
    vendor_id: int = fk("vendor.id")
    meal_id: int = fk("meal.id")
    portion_id: int = fk("portion.id")
    meal_date: date = Field(index=True)
    meal_name: str = Field(max_length=120)
    size: str = Field(max_length=8)  # small, large
    menu_option_name: str = Field(default="", max_length=80)
    meal_option_name: str = Field(default="", max_length=80)
    quantity: int
    cancelled_quantity: int = 0
    unit_price_cents: int
    options_cents: int = 0  # per meal
    addons_cents: int = 0  # per meal
    special_note: str | None = Field(default=None, max_length=120)
    special_note_fee_cents: int = 0
    line_total_cents: int
    status: str = Field(default="ACTIVE", max_length=16)  # domain.orders.LineStatus


class OrderLineAddOn(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    order_line_id: int = fk("orderline.id", ondelete="CASCADE")
    addon_id: int = fk("addon.id")
    name: str = Field(max_length=80)
    price_cents: int


class CancelCartLine(SQLModel, table=True):
    """Quantities of an order line the parent has chosen to cancel, before confirming."""

    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id", ondelete="CASCADE")
    order_line_id: int = fk("orderline.id", ondelete="CASCADE")
    quantity: int = 1
    created_at: datetime = created_at_field()


class CancelReason(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(max_length=32, unique=True)
    label_en: str = Field(max_length=120)
    label_fr: str = Field(max_length=120)
    is_other: bool = False  # the 'Other' entry, with free text
    sort: int = 0


class OrderCancellation(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    order_id: int = fk("order.id")
    reason_id: int | None = fk("cancelreason.id", nullable=True)
    other_text: str | None = Field(default=None, max_length=500)
    created_at: datetime = created_at_field()


class Payment(SQLModel, table=True):
    """One charge attempt through Converge. ``state``: CREATED (session token issued),
    APPROVED (confirmed by txnquery), DECLINED, ERROR, UNKNOWN (time-out, being reconciled)."""

    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id")
    order_id: int | None = fk("order.id", nullable=True)
    donation_id: int | None = fk("donation.id", nullable=True)
    purpose: str = Field(default="ORDER", max_length=16)  # ORDER, ORDER_CHANGE, DONATION
    invoice_number: str = Field(max_length=25, unique=True, index=True)
    amount_cents: int
    state: str = Field(default="CREATED", max_length=16)
    converge_txn_id: str | None = Field(default=None, max_length=64, index=True)
    approval_code: str | None = Field(default=None, max_length=16)
    card_brand: str | None = Field(default=None, max_length=20)
    card_masked: str | None = Field(default=None, max_length=24)
    result_message: str | None = Field(default=None, max_length=120)
    settled: bool = False
    verified_at: datetime | None = None
    created_at: datetime = created_at_field()
    updated_at: datetime = created_at_field()


class Refund(SQLModel, table=True):
    """One refund attempt against a payment: VOID (whole, unsettled) or RETURN (ccreturn).
    ``state``: PENDING, SUCCEEDED, FAILED, UNKNOWN."""

    id: int | None = Field(default=None, primary_key=True)
    payment_id: int = fk("payment.id")
    order_id: int | None = fk("order.id", nullable=True)
    amount_cents: int
    kind: str = Field(max_length=8)  # VOID, RETURN
    state: str = Field(default="PENDING", max_length=16)
    converge_txn_id: str | None = Field(default=None, max_length=64)
    result_message: str | None = Field(default=None, max_length=120)
    reason: str = Field(default="", max_length=200)
    created_at: datetime = created_at_field()
    updated_at: datetime = created_at_field()


class StoredCard(SQLModel, table=True):
    """A saved card: Converge's token plus what a parent recognises; never the number or CVV."""

    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id", ondelete="CASCADE")
    converge_token: str = Field(max_length=32)
    brand: str = Field(default="", max_length=20)
    masked: str = Field(max_length=24)  # 40**********0002
    exp_month: int | None = None
    exp_year: int | None = None
    created_at: datetime = created_at_field()
    deleted_at: datetime | None = None


class Donation(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id")
    school_id: int | None = fk("school.id", nullable=True)
    amount_cents: int
    status: str = Field(default="PENDING", max_length=16)  # PENDING, PAID, FAILED, REFUNDED
    created_at: datetime = created_at_field()
