"""Money-moving records: cart, orders and their lines, the cancel cart, cancellations,
payments, refunds, stored cards, promo codes and donations. Amounts are integer cents.

What was paid and what can still be refunded are sums over ``Payment`` and ``Refund`` rows, one
row per attempt, never a stored flag; the order's "total refund" (docs/product.md §3) is the
sum of its succeeded refunds (``services.payments.records.order_refunded_cents``).

An order keeps what it was sold at: each line its tiers, option, add-on and note-fee prices
(``OrderLine``, ``OrderLineAddOn``), the order its tax and card-fee rates and its promo's terms
(``Order.tax_bps`` ... ``Order.promo_*``), so a refund never reads today's catalogue.

Status columns hold the values of the domain's ``StrEnum`` types (``domain/orders.py``,
``domain/payment_states.py``).
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import CheckConstraint, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from hotmeals.db.models._base import created_at_field, fk
from hotmeals.domain.orders import LineStatus, OrderStatus
from hotmeals.domain.payment_states import DonationStatus, PaymentState, Purpose, RefundState
from hotmeals.domain.pricing import MAX_QUANTITY, MIN_QUANTITY

_QUANTITY_RANGE = f"quantity >= {MIN_QUANTITY} AND quantity <= {MAX_QUANTITY}"


class CartLine(SQLModel, table=True):
    __table_args__ = (
        CheckConstraint(_QUANTITY_RANGE, name="ck_cartline_quantity"),
        # The parent's cart, grouped by child and meal day (the cart screen, the header count).
        Index("ix_cartline_parent_child_day", "parent_id", "child_id", "menu_day_id"),
    )
    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id", ondelete="CASCADE", index=False)
    child_id: int = fk("child.id")
    menu_day_id: int = fk("menuday.id")
    meal_id: int = fk("meal.id")
    portion_id: int = fk("portion.id")
    quantity: int = 1
    menu_option_id: int | None = fk("menuoption.id", nullable=True)
    meal_option_id: int | None = fk("mealoption.id", nullable=True)
    special_note: str | None = Field(default=None, max_length=120)
    # A High or Medium allergen of the child: what the parent acknowledged and when
    # (domain.allergy.ensure_can_add); copied to the order line at payment.
    allergy_ack: str | None = Field(default=None, max_length=300)
    allergy_ack_at: datetime | None = None
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
    status: str = Field(default=OrderStatus.PENDING_PAYMENT, max_length=24)  # OrderStatus
    promo_code_id: int | None = fk("promocode.id", nullable=True)  # where the terms came from
    # The charges of docs/product.md §3 as computed at payment; "total refund" is a sum of
    # refunds (see the module docstring), not a column.
    meal_net_cents: int = 0
    special_note_fees_cents: int = 0
    processing_fee_cents: int = 0
    tax_cents: int = 0
    discount_cents: int = 0
    school_donation_cents: int = 0
    additional_charge_cents: int = 0
    total_pay_cents: int = 0
    # The terms in force at payment (domain.charges.ChargeRates and Promo): refunds re-price
    # with these, never with today's settings or promo row.
    tax_bps: int
    processing_fee_bps: int
    processing_fee_fixed_cents: int
    promo_code: str | None = Field(default=None, max_length=32)
    promo_kind: str | None = Field(default=None, max_length=8)  # domain.charges.PromoKind
    promo_value: int = 0  # basis points (percent) or cents (fixed)
    promo_min_order_cents: int = 0
    # What the order was made from (services/checkout.py): a second checkout of the same cart
    # content (two tabs, a double tap) finds this pending order instead of writing another.
    cart_fingerprint: str | None = Field(default=None, max_length=64)
    created_at: datetime = created_at_field()
    placed_at: datetime | None = None
    updated_at: datetime = created_at_field()


class OrderLine(SQLModel, table=True):
    """One meal for one child on one date; names and prices are copied at order time.

    Prices as sold, per meal: ``price_tiers`` (the portion's tiers, ``domain.pricing``
    ``tiers_to_text``), ``unit_price_cents`` (the tier price for the quantity ordered),
    ``menu_option_cents``, ``meal_option_cents``, the add-ons in ``OrderLineAddOn.price_cents``;
    ``special_note_fee_cents`` is the line's note fee when it has a note (once per line)."""

    __table_args__ = (
        CheckConstraint(_QUANTITY_RANGE, name="ck_orderline_quantity"),
        CheckConstraint(
            "cancelled_quantity >= 0 AND cancelled_quantity <= quantity",
            name="ck_orderline_cancelled_quantity",
        ),
        # A child's meals by day (the calendar's "already ordered", the cut-off checks).
        Index("ix_orderline_child_date", "child_id", "meal_date"),
    )
    id: int | None = Field(default=None, primary_key=True)
    order_id: int = fk("order.id", ondelete="CASCADE")
    child_id: int = fk("child.id", index=False)
    menu_day_id: int = fk("menuday.id")
    vendor_id: int = fk("vendor.id")
    meal_id: int = fk("meal.id")
    portion_id: int = fk("portion.id")
    menu_option_id: int | None = fk("menuoption.id", nullable=True)
    meal_option_id: int | None = fk("mealoption.id", nullable=True)
    meal_date: date = Field(index=True)
    meal_name: str = Field(max_length=120)
    size: str = Field(max_length=8)  # domain.pricing.PortionSize
    menu_option_name: str = Field(default="", max_length=80)
    meal_option_name: str = Field(default="", max_length=80)
    quantity: int
    cancelled_quantity: int = 0
    price_tiers: str = Field(max_length=200)  # "1:650,10:600" (min quantity:unit cents)
    unit_price_cents: int
    menu_option_cents: int = 0  # per meal
    meal_option_cents: int = 0  # per meal
    special_note: str | None = Field(default=None, max_length=120)
    special_note_fee_cents: int = 0
    line_total_cents: int
    allergy_ack: str | None = Field(default=None, max_length=300)  # as on the cart line
    allergy_ack_at: datetime | None = None
    status: str = Field(default=LineStatus.ACTIVE, max_length=16)  # LineStatus
    # The cart line it was made from, deleted when the payment is approved (no foreign key:
    # cart lines come and go; lines added to the cart after checkout started stay).
    cart_line_id: int | None = None
    # Set when the parent moved the meal to another date (services/order_changes.py): the
    # date it was first ordered for; the order shows the line as moved.
    moved_from_date: date | None = None


class OrderLineAddOn(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    order_line_id: int = fk("orderline.id", ondelete="CASCADE")
    addon_id: int = fk("addon.id")
    name: str = Field(max_length=80)
    price_cents: int  # per meal, as sold


class CancelCartLine(SQLModel, table=True):
    """Quantities of an order line the parent has chosen to cancel, before confirming."""

    __table_args__ = (CheckConstraint(_QUANTITY_RANGE, name="ck_cancelcartline_quantity"),)
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
    """One confirmed cancel (a whole order, a cancel cart, one meal, the decrease of a
    modify): which quantities of which lines it took (``OrderCancellationLine``) and the
    refunds it caused (``Refund.cancellation_id``)."""

    __table_args__ = (
        # A retried or double-clicked cancel carries the same key and is recorded once.
        UniqueConstraint("order_id", "request_key", name="uq_ordercancellation_request"),
    )
    id: int | None = Field(default=None, primary_key=True)
    order_id: int = fk("order.id")
    kind: str = Field(default="order", max_length=16)  # order, cart, meal, modify
    reason_id: int | None = fk("cancelreason.id", nullable=True)
    other_text: str | None = Field(default=None, max_length=500)
    request_key: str | None = Field(default=None, max_length=64)
    actor: str = Field(default="", max_length=40)
    created_at: datetime = created_at_field()


class OrderCancellationLine(SQLModel, table=True):
    """``quantity`` meals of one order line, cancelled by one cancellation."""

    __table_args__ = (
        UniqueConstraint("cancellation_id", "order_line_id"),
        CheckConstraint("quantity > 0", name="ck_ordercancellationline_quantity"),
    )
    id: int | None = Field(default=None, primary_key=True)
    cancellation_id: int = fk("ordercancellation.id", ondelete="CASCADE")
    order_line_id: int = fk("orderline.id")
    quantity: int


class Payment(SQLModel, table=True):
    """One charge attempt through Converge; ``state`` and ``purpose`` are
    ``domain.payment_states.PaymentState`` and ``Purpose`` values."""

    __table_args__ = (
        # The reconciliation scan: open payments by age.
        Index("ix_payment_state_updated_at", "state", "updated_at"),
    )
    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id")
    order_id: int | None = fk("order.id", nullable=True)
    donation_id: int | None = fk("donation.id", nullable=True)
    purpose: str = Field(default=Purpose.ORDER, max_length=16)  # Purpose
    invoice_number: str = Field(max_length=25, unique=True, index=True)
    amount_cents: int
    state: str = Field(default=PaymentState.CREATED, max_length=16)  # PaymentState
    converge_txn_id: str | None = Field(default=None, max_length=64, index=True)
    approval_code: str | None = Field(default=None, max_length=16)
    card_brand: str | None = Field(default=None, max_length=20)
    card_masked: str | None = Field(default=None, max_length=24)
    result_message: str | None = Field(default=None, max_length=120)
    settled: bool = False
    verified_at: datetime | None = None
    # When Converge's word on this attempt was taken (its sale confirmed, its own answer
    # recorded, or no sale once the session was over). Empty on a failure only a browser
    # reported: the reconciliation asks Converge about it once.
    closed_at: datetime | None = None
    # A second approved sale under another attempt's invoice: a row of its own (its own
    # refund), pointing at that attempt.
    duplicate_of_id: int | None = fk("payment.id", nullable=True)
    created_at: datetime = created_at_field()
    updated_at: datetime = created_at_field()
    # ``domain.payment_states.PaymentMethod``: the card (Converge) or family credit
    # (no Converge transaction; written APPROVED with its ledger row when the order is placed).
    method: str = Field(default="card", max_length=8, sa_column_kwargs={"server_default": "card"})


class Refund(SQLModel, table=True):
    """One refund attempt against a payment: ``kind`` and ``state`` are
    ``domain.payment_states.RefundKind`` and ``RefundState`` values. ``cancellation_id``: the
    cancellation that caused it, if any.

    A refund Converge refused is sent again: ``attempt`` counts the tries of one
    refund (1 for the first), ``retry_of_id`` is the FAILED row this one sends again, a
    FAILED row's ``retry_at`` is when the periodic job sends it again (None: not scheduled),
    and ``attention_at`` is set when the last try failed: an operator must act
    (``python -m hotmeals.cli refunds-needing-attention``)."""

    __table_args__ = (
        # The reconciliation scan: open refunds by age.
        Index("ix_refund_state_updated_at", "state", "updated_at"),
        # The resend scan: failed refunds due again.
        Index("ix_refund_retry_at", "retry_at"),
    )
    id: int | None = Field(default=None, primary_key=True)
    payment_id: int = fk("payment.id")
    order_id: int | None = fk("order.id", nullable=True)
    cancellation_id: int | None = fk("ordercancellation.id", nullable=True)
    amount_cents: int
    kind: str = Field(max_length=8)  # RefundKind
    state: str = Field(default=RefundState.PENDING, max_length=16)  # RefundState
    converge_txn_id: str | None = Field(default=None, max_length=64)
    result_message: str | None = Field(default=None, max_length=120)
    reason: str = Field(default="", max_length=200)
    created_at: datetime = created_at_field()
    updated_at: datetime = created_at_field()
    attempt: int = Field(default=1, sa_column_kwargs={"server_default": "1"})
    retry_of_id: int | None = Field(default=None, index=True)
    retry_at: datetime | None = None
    attention_at: datetime | None = None


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
    status: str = Field(default=DonationStatus.PENDING, max_length=16)  # DonationStatus
    created_at: datetime = created_at_field()
