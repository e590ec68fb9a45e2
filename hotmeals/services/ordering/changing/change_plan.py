"""Changing a paid order: what a change does, checked and priced. A modify (add meals, remove
meals) and a move of one meal to another date are both an ``OrderChange``; this module reads
the order and the change's steps and works out the order after it and the difference to pay or
to refund (``modify``, ``move`` and ``change_confirm`` are the doors and the confirm).

**The draft.** A modification is written as a draft first (``OrderChange`` state ``draft``,
one per order, with one ``OrderChangeLine`` per step: ``add`` a meal, ``remove`` some
quantity of an order line). A move is a change with one ``move`` step, confirmed at once.

**The rules are the booking's.** An added meal goes through ``services.cart``'s
``load_batch``/``check_line`` (the child is the parent's, the meal on the child's school menu
that day, the day open and before its cut-off, the allergy rule, portion, options, add-ons),
when it is added and again when the change is confirmed and when its payment is approved. A
removed or moved meal must be active and before its cut-off; a move's target is a day on which
the same vendor serves the child's school, open, before its cut-off, with the same meal.

**The money.** The order after the change is priced with the order's stored terms
(``OrderTerms.from_stored``: tax, card fee, promo): the lines it keeps at the prices they were
sold at (``domain.refunds.sold_line``), added and moved meals at today's catalogue prices.
``difference = new total - (paid - refunded)`` (paid: approved payments of the order;
refunded: refunds succeeded or still pending). ``difference <= 0``: the change is applied at
once and ``-difference`` goes back to the card (``services.payments`` refunds: a void before
settlement, a return after; never more than is refundable on the order, exact to the cent;
nothing when the promo's minimum stops being met, as for a cancel). ``difference > 0``: an
``ORDER_CHANGE`` payment of exactly that amount (Lightbox or saved card); the order changes
only once Converge approves it (``change_apply.apply_paid_change``), and if by then a step
cannot be applied any more (a cut-off passed, the meal was cancelled meanwhile) the change is
dropped and the payment voided.

**Concurrency.** Every write locks the ``Order`` row first (``records.lock_row``), and re-reads
the lines under it, so a move racing a cancel (or another move) of the same meal applies once
and refunds once; the refund rows are reserved in the transaction that applies the change.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime

from sqlmodel import Session, col, select

from hotmeals.db.models import (
    Child,
    Meal,
    Order,
    OrderChange,
    OrderChangeLine,
    OrderLine,
    OrderLineAddOn,
    Payment,
    Vendor,
)
from hotmeals.domain.charges import CHARGE_FIELDS as ORDER_CHARGE_FIELDS
from hotmeals.domain.charges import OrderCharges
from hotmeals.domain.credit import payment_split
from hotmeals.domain.cutoff import before_cutoff
from hotmeals.domain.dates import long_moment
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.orders import PAID_STATUSES, OrderStatus
from hotmeals.domain.payment_states import PaymentMethod, PaymentState
from hotmeals.domain.pricing import LinePrice, price_line
from hotmeals.domain.refunds import refund_for_cancel
from hotmeals.i18n import t
from hotmeals.services.ids import rows_by_id
from hotmeals.services.ordering import lines as line_rules
from hotmeals.services.ordering.cancelling.refund_plan import order_charges
from hotmeals.services.ordering.labels import order_day
from hotmeals.services.ordering.loaded_order import (
    LoadedOrder,
    active_quantity,
    line_closes,
    load_order,
    refuse_delivered,
)
from hotmeals.services.payments.credit_pay import CreditLine, credit_share
from hotmeals.services.payments.records import lock_row

DRAFT, PAYING, APPLIED, DROPPED = "draft", "paying", "applied", "dropped"
MODIFY, MOVE = "modify", "move"
ADD, REMOVE, MOVE_STEP = "add", "remove", "move"
DRAFT_MAX_STEPS = 50
LIVE = (PaymentState.CREATED, PaymentState.UNKNOWN)
# The order's charges a change prices again: the school donation and the additional charge
# stay the order's as paid.
KEPT_CHARGES = ("school_donation_cents", "additional_charge_cents")
CHARGE_FIELDS = tuple(name for name in ORDER_CHARGE_FIELDS if name not in KEPT_CHARGES)


@dataclass
class ChangeLoaded:
    """``loaded_order.load_order``'s order (lines, vendors, add-ons, approved payments,
    refunds) with the lines' children and meals (their names): seven statements whatever the
    number of lines."""

    base: LoadedOrder
    children: dict[int, Child]
    meals: dict[int, Meal]

    @property
    def order(self) -> Order:
        return self.base.order

    @property
    def lines(self) -> list[OrderLine]:
        return self.base.lines

    @property
    def vendors(self) -> dict[int, Vendor]:
        return self.base.vendors

    @property
    def addons(self) -> dict[int, list[OrderLineAddOn]]:
        return self.base.addons

    def line(self, line_id: int) -> OrderLine | None:
        return self.base.line(line_id)


def load_for_change(session: Session, order: Order) -> ChangeLoaded:
    base = load_order(session, order_id=order.id, parent_id=order.parent_id)
    children: dict[int, Child] = {}
    meals: dict[int, Meal] = {}
    if base.lines:
        children = rows_by_id(session, Child, (x.child_id for x in base.lines))
        meals = rows_by_id(session, Meal, (x.meal_id for x in base.lines))
    return ChangeLoaded(base=base, children=children, meals=meals)


def own_order(session: Session, *, parent_id: int, order_id: int, lock: bool) -> Order:
    """The parent's paid order (locked when ``lock``); another parent's or an unknown id (0
    too) is 'not found', a cancelled or delivered one 'can no longer be changed'."""
    order = lock_row(session, Order, order_id) if lock else session.get(Order, order_id)
    if order is None or order.parent_id != parent_id:
        raise DomainError("order_change_order_not_found", field="order_id")
    if OrderStatus(order.status) not in PAID_STATUSES:
        raise DomainError("order_change_not_modifiable", field="order_id", number=order.number)
    return order


def line_order(session: Session, *, parent_id: int, order_line_id: int, lock: bool) -> Order:
    """The order of the parent's order line ``order_line_id`` (locked when ``lock``; 0 is
    'not found')."""
    found = session.exec(
        select(col(OrderLine.order_id), col(Order.parent_id))
        .join(Order, col(Order.id) == OrderLine.order_id)
        .where(col(OrderLine.id) == order_line_id)
    ).first()
    if found is None or found[1] != parent_id:
        raise DomainError("order_change_line_not_found", field="order_line_id")
    return own_order(session, parent_id=parent_id, order_id=found[0], lock=lock)


def ensure_changeable(loaded: ChangeLoaded, line: OrderLine, now: datetime, lang: str) -> None:
    """The line is active and its meal day's cut-off still ahead (the change doors' cut-off:
    ``order_change_cutoff_passed`` with the day and when it closed)."""
    if active_quantity(line) <= 0:
        refuse_delivered(line, lang)
        raise DomainError("order_change_line_not_active", field="order_line_id")
    ensure_change_open(line, line_closes(line, loaded.vendors[line.vendor_id]), now, lang)


def ensure_change_open(line: OrderLine, closes: datetime, now: datetime, lang: str) -> None:
    if not before_cutoff(closes, now):
        raise DomainError(
            "order_change_cutoff_passed",
            field="order_line_id",
            day=order_day(line.meal_date, lang),
            when=long_moment(closes, lang),
        )


def find_draft(
    session: Session, order: Order, *, create: bool, now: datetime
) -> OrderChange | None:
    """The order's draft modification (created when ``create``)."""
    found = session.exec(
        select(OrderChange)
        .where(
            col(OrderChange.order_id) == order.id,
            col(OrderChange.state) == DRAFT,
            col(OrderChange.kind) == MODIFY,
        )
        .order_by(col(OrderChange.id))
    ).first()
    if found is None and create:
        found = new_change(session, order, kind=MODIFY, now=now)
    return found


def new_change(session: Session, order: Order, *, kind: str, now: datetime) -> OrderChange:
    """A new draft change of ``kind`` (modify or move) for the order, flushed (its id set)."""
    change = OrderChange(
        order_id=order.id or 0,
        parent_id=order.parent_id,
        kind=kind,
        state=DRAFT,
        created_at=now,
        updated_at=now,
    )
    session.add(change)
    session.flush()
    return change


def draft_steps(session: Session, change_id: int | None) -> list[OrderChangeLine]:
    if change_id is None:
        return []
    return list(
        session.exec(
            select(OrderChangeLine)
            .where(col(OrderChangeLine.change_id) == change_id)
            .order_by(col(OrderChangeLine.id))
        ).all()
    )


def step_request(step: OrderChangeLine, *, quantity: int | None = None) -> line_rules.LineRequest:
    return line_rules.LineRequest(
        child_id=step.child_id or 0,  # none: not found
        meal_id=step.meal_id or 0,
        portion_id=step.portion_id,
        menu_day_id=step.menu_day_id,
        quantity=quantity if quantity is not None else step.quantity,
        menu_option_id=step.menu_option_id,
        meal_option_id=step.meal_option_id,
        addons=[int(x) for x in step.addon_ids.split(",") if x],
        special_note=step.special_note,
        allergy_ack=bool(step.allergy_ack),
        ack_given=step.allergy_ack or None,  # still naming what needs it when confirmed
        # The diet notice was seen when the step was added (AddToMyOrder): a preference.
        diet_ack=True,
    )


@dataclass
class ChangePlan:
    """What a change does to an order, checked: the quantities removed per line, the added
    meals (checked as the cart checks them), the moved lines with their target day, and the
    order's charges after it."""

    loaded: ChangeLoaded
    removed: dict[int, int]
    added: list[tuple[OrderChangeLine, line_rules.CheckedLine]]
    moved: list[tuple[OrderLine, line_rules.CheckedLine]]
    charges: OrderCharges
    paid: int
    refunded: int
    batch: line_rules.Batch | None = None
    before: OrderCharges | None = None  # the charges of the order as it is, before the change

    @property
    def difference(self) -> int:
        """> 0: to pay; < 0: to refund (never more than is held). Removing meals only never
        costs the parent anything (as a cancel: ``domain.refunds.refund_for_cancel``)."""
        held = self.paid - self.refunded
        diff = max(self.charges.total_pay_cents - held, -held)
        if not self.added and not self.moved:
            return -refund_for_cancel(self.paid, self.refunded, self.charges.total_pay_cents)
        return diff


@contextmanager
def _step_checked(
    problems: dict[int, str], step: OrderChangeLine, *, lang: str, strict: bool
) -> Iterator[None]:
    """A step's broken rule: raised when ``strict``; otherwise noted against the step's id
    in ``problems`` (in the parent's language) and the step left out."""
    try:
        yield
    except DomainError as err:
        if strict:
            raise
        problems[step.id or 0] = err.message(lang)


def plan_change(
    session: Session,
    loaded: ChangeLoaded,
    steps: Sequence[OrderChangeLine],
    *,
    lang: str,
    now: datetime,
    strict: bool,
) -> tuple[ChangePlan, dict[int, str]]:
    """Check every step against the order as it is now and price the result. ``strict``:
    the first broken rule raises; otherwise broken steps are left out and reported by id
    (the difference screen shows them). Fixed number of statements for any number of steps."""
    problems: dict[int, str] = {}
    removed: dict[int, int] = {}
    moved_steps: list[tuple[OrderChangeLine, OrderLine]] = []
    for step in steps:
        if step.action not in (REMOVE, MOVE_STEP):
            continue
        line = loaded.line(step.order_line_id or 0)
        with _step_checked(problems, step, lang=lang, strict=strict):
            if line is None:
                raise DomainError("order_change_line_not_found", field="order_line_id")
            ensure_changeable(loaded, line, now, lang)
            if step.action == REMOVE:
                left = active_quantity(line) - removed.get(line.id or 0, 0)
                if step.quantity > left:
                    raise DomainError("order_change_quantity_invalid", field="quantity", max=left)
                removed[line.id or 0] = removed.get(line.id or 0, 0) + step.quantity
            else:
                moved_steps.append((step, line))
    requests: list[tuple[OrderChangeLine, line_rules.LineRequest]] = [
        (step, step_request(step)) for step in steps if step.action == ADD
    ]
    for step, line in moved_steps:
        requests.append(
            (
                step,
                line_rules.LineRequest(
                    child_id=line.child_id,
                    meal_id=line.meal_id,
                    portion_id=line.portion_id,
                    menu_day_id=step.menu_day_id,
                    quantity=active_quantity(line),
                    menu_option_id=line.menu_option_id,
                    meal_option_id=line.meal_option_id,
                    addons=[a.addon_id for a in loaded.addons.get(line.id or 0, [])],
                    special_note=line.special_note,
                    # Acknowledged when booked: the line's acknowledgement must still name
                    # every allergen that needs one now; Major is refused still.
                    allergy_ack=True,
                    ack_given=line.allergy_ack or "",
                    diet_ack=True,  # booked already: the diet notice was seen then
                ),
            )
        )
    added: list[tuple[OrderChangeLine, line_rules.CheckedLine]] = []
    moved: list[tuple[OrderLine, line_rules.CheckedLine]] = []
    batch = None
    if requests:
        batch = line_rules.load_batch(
            session,
            parent_id=loaded.order.parent_id,
            requests=[r for _, r in requests],
            lang=lang,
        )
        moves = {step.id: line for step, line in moved_steps}
        for step, request in requests:
            with _step_checked(problems, step, lang=lang, strict=strict):
                checked = line_rules.check_line(batch, request, lang=lang, now=now)
                if step.action == MOVE_STEP:
                    line = moves[step.id]
                    if checked.vendor.id != line.vendor_id:
                        raise DomainError("order_change_other_vendor", field="date")
                    moved.append((line, checked))
                else:
                    added.append((step, checked))
    moved_ids = {line.id for line, _ in moved}
    prices: list[LinePrice] = []
    for line, sold in loaded.base.sold_lines():  # what is kept, as it was sold
        if line.id in moved_ids:
            continue
        keep = sold.quantity - removed.get(line.id or 0, 0)
        if keep > 0:
            prices.append(price_line(replace(sold, quantity=keep)))
    prices += [checked.price for _, checked in added]
    prices += [checked.price for _, checked in moved]
    paid = loaded.base.paid_cents
    return (
        ChangePlan(
            loaded=loaded,
            removed=removed,
            added=added,
            moved=moved,
            charges=order_charges(loaded.base, prices),
            paid=paid,
            refunded=min(loaded.base.reserved_refund_cents, paid),
            batch=batch,
            before=order_charges(
                loaded.base, [price_line(sold) for _, sold in loaded.base.sold_lines()]
            ),
        ),
        problems,
    )


def difference_text(diff_cents: int, lang: str, *, pay: str, refund: str, even: str) -> str:
    """What a change's difference means for the parent, in ``lang``: the message ``pay`` (more
    to pay), ``refund`` (money back) or ``even``, with the amount (the change's e-mail, and the
    quote's sentence: ``quote_text``)."""
    if diff_cents > 0:
        return t(pay, lang, amount=format_money(diff_cents, lang))
    if diff_cents < 0:
        return t(refund, lang, amount=format_money(-diff_cents, lang))
    return t(even, lang)


def quote_text(diff_cents: int, lang: str) -> str:
    """The quote's sentence before a change is confirmed ("You will pay $x more.", "$x will
    be refunded...", or even), the one both doors show."""
    return difference_text(
        diff_cents,
        lang,
        pay="order_change.info_pay",
        refund="order_change.info_refund",
        even="order_change.info_even",
    )


@dataclass(frozen=True)
class ChangeQuote:
    """The quote of a change before it is confirmed: what the order was paid and refunded,
    its new total and the difference (> 0 to pay, < 0 to refund), the order's charges after
    the change, and of an increase what family credit (used first) and the card would pay,
    with the lines under the total that say so (none when credit pays nothing)."""

    paid_cents: int
    refunded_cents: int
    new_total_cents: int
    difference_cents: int
    charges: OrderCharges
    credit_cents: int
    card_cents: int
    credit_lines: tuple[CreditLine, ...]

    @property
    def to_pay_cents(self) -> int:
        return max(self.difference_cents, 0)

    @property
    def to_refund_cents(self) -> int:
        return max(-self.difference_cents, 0)


def quote_of(plan: ChangePlan, *, credit_balance: int = 0) -> ChangeQuote:
    """The plan's quote, family credit's ``credit_balance`` paying an increase first."""
    diff = plan.difference
    split = payment_split(max(diff, 0), credit_balance)
    return ChangeQuote(
        paid_cents=plan.paid,
        refunded_cents=plan.refunded,
        new_total_cents=plan.charges.total_pay_cents,
        difference_cents=diff,
        charges=plan.charges,
        credit_cents=split.credit_cents,
        card_cents=split.card_cents,
        credit_lines=credit_share(split.credit_cents, split.card_cents, done=False),
    )


def change_credit_share(change: OrderChange, payment: Payment | None) -> int:
    """What family credit pays of ``change``'s increase besides its card payment (the
    confirm opened the card attempt for the increase less the credit it planned to use)."""
    if payment is None or payment.method != PaymentMethod.CARD:
        return 0
    return max(change.amount_cents - payment.amount_cents, 0)
