"""The cancel cart: the parent picks meals of paid orders and quantities to cancel, sees the
refund each order would get, and confirms them all at once with a reason (one
``OrderCancellation`` and one refund per order; all the orders or none)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from sqlalchemy import select as select_rows
from sqlmodel import Session, col, func, select

from hotmeals import clock
from hotmeals.db.models import CancelCartLine, Child, Meal, Order, OrderCancellation, OrderLine
from hotmeals.domain.errors import DomainError, suppress_refusal
from hotmeals.domain.pricing import MAX_QUANTITY
from hotmeals.i18n import normalize_lang
from hotmeals.services.ordering.cancelling.cancel import (
    CancelAsk,
    CancelPlan,
    checked_request,
    find_cancellation,
)
from hotmeals.services.ordering.cancelling.cancel_order import (
    Canceller,
    CancelResult,
    cancellable_quantity,
    finish_cancels,
    own_line,
    reserve_cancel,
)
from hotmeals.services.ordering.cancelling.refund_plan import refund_plan
from hotmeals.services.ordering.labels import order_day, size_label
from hotmeals.services.ordering.loaded_order import LoadedOrder, load_orders
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing.Unpack from Python 3.12


@dataclass(frozen=True)
class CancelCartItem:
    """A cancel-cart line as written, with the cart's new count."""

    cancel_cart_id: int
    order_line_id: int
    quantity: int
    cancel_cart_count: int


@dataclass(frozen=True)
class CancelCartLineView:
    """A line of the cancel cart: the meal as sold, the quantity chosen, what is left of it
    (``max_quantity``) and why it cannot be cancelled any more (``reason``, "" when it can)."""

    cancel_cart_id: int
    order_line_id: int
    child_name: str
    date: date
    day: str
    meal_name: str
    size_label: str
    quantity: int
    max_quantity: int
    line_total_cents: int
    cancellable: bool
    reason: str


@dataclass(frozen=True)
class CancelCartOrder:
    """The cancel cart's lines of one order, with the refund the order would get."""

    order_id: int
    number: str
    lines: list[CancelCartLineView]
    refund_cents: int


@dataclass(frozen=True)
class CancelCartDetails:
    orders: list[CancelCartOrder]
    count: int  # the lines in the cancel cart
    total_refund_cents: int


def _quantity(value: int, most: int) -> int:
    if not 1 <= value <= most:
        raise DomainError("cancel_quantity_invalid", field="quantity", max=most)
    return value


def cancel_cart_count(session: Session, *, parent_id: int) -> int:
    """The header's cancel-cart count (spec §4: the UI shows its local count when above 0,
    otherwise this): the number of lines in the parent's cancel cart."""
    return int(
        session.exec(
            select(func.count())
            .select_from(CancelCartLine)
            .where(col(CancelCartLine.parent_id) == parent_id)
        ).one()
    )


def add_to_cancel_cart(
    session: Session,
    *,
    parent_id: int,
    order_line_id: int,
    quantity: int = 1,
    lang: str = "en",
) -> CancelCartItem:
    """AddToCancelCart: put ``quantity`` meals of one of the parent's paid lines in the cancel
    cart (a line already there gets this quantity: a repeat changes nothing). Refused after the
    line's cut-off, beyond what is left of it (a quantity below 1 too), for another parent's
    line (or id 0)."""
    lang = normalize_lang(lang)
    line, order, vendor = own_line(session, parent_id, order_line_id)
    left = cancellable_quantity(line, order, vendor, clock.now(), lang)
    qty = _quantity(quantity, min(left, MAX_QUANTITY))
    row = session.exec(
        select(CancelCartLine).where(
            col(CancelCartLine.parent_id) == parent_id, col(CancelCartLine.order_line_id) == line.id
        )
    ).first()
    if row is None:
        row = CancelCartLine(parent_id=parent_id, order_line_id=line.id or 0, quantity=qty)
    row.quantity = qty
    return _saved(session, row, parent_id)


def _saved(session: Session, row: CancelCartLine, parent_id: int) -> CancelCartItem:
    """The cancel cart line, written: the answer of the calls that put a quantity in it."""
    session.add(row)
    session.flush()
    return CancelCartItem(
        cancel_cart_id=row.id or 0,
        order_line_id=row.order_line_id,
        quantity=row.quantity,
        cancel_cart_count=cancel_cart_count(session, parent_id=parent_id),
    )


def _own_cart_line(session: Session, parent_id: int, cancel_cart_id: int) -> CancelCartLine:
    row = session.get(CancelCartLine, cancel_cart_id) if cancel_cart_id > 0 else None
    if row is None or row.parent_id != parent_id:
        raise DomainError("cancel_cart_line_not_found", field="cancel_cart_id")
    return row


def update_cancel_cart_quantity(
    session: Session,
    *,
    parent_id: int,
    cancel_cart_id: int,
    quantity: int,
    lang: str = "en",
) -> CancelCartItem:
    """UpdateCancelCartQuantity: 1..what is left of the line (before its cut-off)."""
    lang = normalize_lang(lang)
    row = _own_cart_line(session, parent_id, cancel_cart_id)
    line, order, vendor = own_line(session, parent_id, row.order_line_id)
    left = cancellable_quantity(line, order, vendor, clock.now(), lang)
    row.quantity = _quantity(quantity, min(left, MAX_QUANTITY))
    return _saved(session, row, parent_id)


def delete_cancel_cart_item(session: Session, *, parent_id: int, cancel_cart_id: int) -> int:
    """DeleteCancelCartItem: remove one line from the cancel cart; the cart's new count."""
    row = _own_cart_line(session, parent_id, cancel_cart_id)
    session.delete(row)
    session.flush()
    return cancel_cart_count(session, parent_id=parent_id)


def cancel_cart_details(session: Session, *, parent_id: int, lang: str = "en") -> CancelCartDetails:
    """CancelCartDetails: the cancel cart's lines grouped by order, each order with the
    refund it would get (``plan_cancel_refund`` with the order's stored terms), and the total.
    A line whose cut-off passed (or that was cancelled meanwhile) is flagged ``cancellable:
    False`` with the reason, and left out of the refund. A fixed number of statements whatever
    the number of lines and orders."""
    lang = normalize_lang(lang)
    current = clock.now()
    rows = session.execute(
        select_rows(CancelCartLine, OrderLine, Order, Child, col(Meal.name_fr))
        .join(OrderLine, col(OrderLine.id) == CancelCartLine.order_line_id)
        .join(Order, col(Order.id) == OrderLine.order_id)
        .join(Child, col(Child.id) == OrderLine.child_id)
        .outerjoin(Meal, col(Meal.id) == OrderLine.meal_id)
        .where(col(CancelCartLine.parent_id) == parent_id, col(Order.parent_id) == parent_id)
        .order_by(col(Order.id), col(OrderLine.meal_date), col(OrderLine.id))
    ).all()
    order_ids = sorted({r[2].id or 0 for r in rows})
    loaded = load_orders(session, order_ids)
    groups = []
    total = 0
    for oid in order_ids:
        lo = loaded[oid]
        mine = [r for r in rows if r[2].id == oid]
        quantities: dict[int, int] = {}
        out_lines = []
        for cart_row, line, order, child, name_fr in mine:
            current_line = lo.line(line.id or 0) or line
            reason = ""
            try:
                left = cancellable_quantity(
                    current_line, order, lo.vendors[line.vendor_id], current, lang
                )
                if cart_row.quantity > left:
                    raise DomainError("cancel_quantity_invalid", max=left)
            except DomainError as err:
                reason = err.message(lang)
                left = 0
            if not reason:
                quantities[line.id or 0] = cart_row.quantity
            out_lines.append(
                CancelCartLineView(
                    cancel_cart_id=cart_row.id or 0,
                    order_line_id=line.id or 0,
                    child_name=f"{child.first_name} {child.last_name}",
                    date=line.meal_date,
                    day=order_day(line.meal_date, lang),
                    # As sold; the French name of the catalogue in French (as order_detail).
                    meal_name=(name_fr if lang == "fr" and name_fr else line.meal_name),
                    size_label=size_label(line.size, lang),
                    quantity=cart_row.quantity,
                    max_quantity=left,
                    line_total_cents=line.line_total_cents,
                    cancellable=not reason,
                    reason=reason,
                )
            )
        refund = _planned_refund(lo, quantities) if quantities else 0
        total += refund
        groups.append(
            CancelCartOrder(
                order_id=oid, number=lo.order.number, lines=out_lines, refund_cents=refund
            )
        )
    return CancelCartDetails(orders=groups, count=len(rows), total_refund_cents=total)


def _planned_refund(loaded: LoadedOrder, quantities: dict[int, int]) -> int:
    try:
        return refund_plan(loaded, quantities).refund_cents
    except DomainError:
        return 0


def _cart_plan(
    session: Session, *, parent_id: int, lang: str
) -> list[tuple[int, dict[int, int], list[int]]]:
    """The cancel cart by order: (order id, {line id: quantity}, cart line ids). Every line
    must still be cancellable (else the first problem is raised, naming its day)."""
    details = cancel_cart_details(session, parent_id=parent_id, lang=lang)
    if not details.orders:
        raise DomainError("cancel_cart_empty")
    out = []
    for group in details.orders:
        for line in group.lines:
            if not line.cancellable:
                raise DomainError("cancel_cart_line_blocked", reason=line.reason)
        out.append(
            (
                group.order_id,
                {x.order_line_id: x.quantity for x in group.lines},
                [x.cancel_cart_id for x in group.lines],
            )
        )
    return out


def _retried_cart(session: Session, *, parent_id: int, request_key: str) -> list[CancelPlan]:
    """The cancellations already made under this key for this parent's orders (a retried
    confirm whose cancel cart is empty now)."""
    ids = session.exec(
        select(col(OrderCancellation.order_id))
        .join(Order, col(Order.id) == OrderCancellation.order_id)
        .where(
            col(Order.parent_id) == parent_id,
            col(OrderCancellation.request_key) == request_key,
            col(OrderCancellation.kind) == "cart",
        )
        .order_by(col(OrderCancellation.order_id))
    ).all()
    plans = [find_cancellation(session, oid, request_key) for oid in ids]
    return [p for p in plans if p is not None]


async def confirm_cancel_cart(
    *,
    parent_id: int,
    lang: str = "en",
    runtime: Runtime = APP,
    **ask: Unpack[CancelAsk],
) -> CancelResult:
    """CancelCart: cancel everything in the cancel cart, one ``OrderCancellation`` and one
    refund per order (the card's share to the card or to family credit: ``refund_to``, None
    for the family's standing choice), with the reason; the cart is emptied. A line that can
    no longer be cancelled (its cut-off passed, or it was cancelled meanwhile) refuses the whole
    confirm with its reason (``cancel_cart_line_blocked``): the orders are cancelled all or
    none.
    Repeat-safe by ``request_key``: a retry whose cart is empty answers what the first did."""
    lang = normalize_lang(lang)
    engine = runtime.engine
    request = await checked_request(runtime=runtime, **ask)
    groups = None
    with suppress_refusal("cancel_cart_empty"):
        groups = await run_in_transaction(_cart_plan, engine=engine, parent_id=parent_id, lang=lang)
    if groups is None:
        done = await run_in_transaction(
            _retried_cart, engine=engine, parent_id=parent_id, request_key=request.request_key
        )
        if not done:
            raise DomainError("cancel_cart_empty")
        return await finish_cancels(done, runtime=runtime)
    plans = await run_in_transaction(
        _reserve_cart, engine=engine, by=Canceller(parent_id, request, lang), groups=groups
    )
    return await finish_cancels(plans, runtime=runtime)


def _reserve_cart(
    session: Session, *, by: Canceller, groups: list[tuple[int, dict[int, int], list[int]]]
) -> list[CancelPlan]:
    """Every order of the cancel cart in one transaction, all or nothing: when one
    is refused (another tab cancelled it meanwhile, a cut-off passed), no order is cancelled
    and no refund reserved, so nothing is left cancelled with refunds this call never sends.
    The orders are locked in id order (``groups`` is sorted), so two confirms never wait on
    each other in opposite orders."""
    return [
        reserve_cancel(
            session,
            by=by,
            order_id=order_id,
            quantities=quantities,
            kind="cart",
            drop_cart_ids=cart_ids,
        )
        for order_id, quantities, cart_ids in sorted(groups, key=lambda g: g[0])
    ]
