"""Modify a paid order: the doors of the modify-an-order screens and of the /api/v1
``order/...`` calls. Add meals and remove meals in a draft (with the booking's rules), see the
difference, confirm it (``change_confirm``), and finish or report the payment of an increase
(``change_payment``; a move's payment finishes through the same two doors)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import TYPE_CHECKING

from sqlmodel import Session

from hotmeals import clock
from hotmeals.db.models import OrderChange, OrderChangeLine
from hotmeals.domain.cutoff import before_cutoff
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import LineStatus
from hotmeals.i18n import normalize_lang
from hotmeals.services import credit
from hotmeals.services.ordering import lines as line_rules
from hotmeals.services.ordering.changing.change_confirm import confirm
from hotmeals.services.ordering.changing.change_payment import change_of_payment, settle
from hotmeals.services.ordering.changing.change_plan import (
    ADD,
    DRAFT_MAX_STEPS,
    REMOVE,
    ChangeQuote,
    draft_steps,
    ensure_changeable,
    find_draft,
    load_for_change,
    own_order,
    plan_change,
    quote_of,
)
from hotmeals.services.ordering.changing.change_result import ChangeResult
from hotmeals.services.ordering.labels import meal_name
from hotmeals.services.ordering.loaded_order import active_quantity, line_closes
from hotmeals.services.payments import confirm_approval, report_browser_failure
from hotmeals.services.payments.reconciliation import browser_reason
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing.Unpack from Python 3.12


@dataclass(frozen=True)
class ModifyLine:
    """One line of the order being modified: what it is, what the draft removes of it
    (``remove_quantity``, by the steps ``remove_steps``), its price as sold, its state (active,
    moved, cancelled) and whether it can still change (active, before its cut-off)."""

    order_line_id: int
    child_id: int
    child_name: str
    meal_date: date
    meal_id: int
    name: str  # in the parent's language
    size: str
    quantity: int
    active_quantity: int
    remove_quantity: int
    remove_steps: tuple[int, ...]
    price_cents: int
    status: str
    cutoff_at: datetime
    can_change: bool
    delivered_quantity: int = 0  # meals handed out (a delivered line: kept as it is)


@dataclass(frozen=True)
class AddedMeal:
    """A meal the draft adds, priced from today's catalogue (``ok``); one that broke a rule
    since says why (``problem``, in the parent's language) and has no day, name or price."""

    change_line_id: int
    child_id: int | None
    menu_day_id: int | None
    meal_id: int | None
    meal_date: date | None
    name: str
    size: str
    quantity: int
    price_cents: int
    ok: bool
    problem: str


@dataclass(frozen=True)
class StepProblem:
    """A step of the draft that breaks a rule now, and why (in the parent's language)."""

    change_line_id: int
    message: str


@dataclass(frozen=True)
class ModifyInfo:
    """ModifyOrderInfo: the order's lines, the meals the draft adds, the steps that break a
    rule now, whether the draft has any step, and the quote of the change."""

    order_id: int
    number: str
    change_id: int | None
    lines: tuple[ModifyLine, ...]
    added: tuple[AddedMeal, ...]
    problems: tuple[StepProblem, ...]
    has_changes: bool
    quote: ChangeQuote


def add_to_my_order(
    *,
    session: Session,
    parent_id: int,
    order_id: int,
    lang: str = "en",
    **choice: Unpack[line_rules.MealChoice],
) -> ModifyInfo:
    """AddToMyOrder: a meal for a child on a day, added to the order's draft change, with the
    rules of AddToCart (the same ``check_line``); priced from the catalogue when confirmed.
    Answers ``modify_order_info``."""
    lang = normalize_lang(lang)
    now = clock.now()
    order = own_order(session, parent_id=parent_id, order_id=order_id, lock=True)
    _batch, checked = line_rules.check_added_line(
        session, parent_id=parent_id, request=line_rules.chosen_line(choice), lang=lang, now=now
    )
    change = find_draft(session, order, create=True, now=now)
    assert change is not None
    if len(draft_steps(session, change.id)) >= DRAFT_MAX_STEPS:
        raise DomainError("order_change_too_many", max=DRAFT_MAX_STEPS)
    session.add(
        OrderChangeLine(
            change_id=change.id or 0,
            action=ADD,
            quantity=checked.quantity,
            child_id=checked.child.id,
            menu_day_id=checked.menu_day.id,
            meal_id=checked.meal.id,
            portion_id=checked.portion.id,
            menu_option_id=checked.menu_option_id,
            meal_option_id=checked.meal_option_id,
            addon_ids=",".join(str(a.id) for a in checked.addons),
            special_note=checked.note,
            allergy_ack=checked.ack_text,
            allergy_ack_at=now if checked.ack_text else None,
        )
    )
    return _draft_changed(session, change, now, parent_id=parent_id, lang=lang)


def _draft_changed(
    session: Session, change: OrderChange, now: datetime, *, parent_id: int, lang: str
) -> ModifyInfo:
    """The draft was changed now: ``modify_order_info`` of its order."""
    change.updated_at = now
    session.add(change)
    session.flush()
    return modify_order_info(
        session=session, parent_id=parent_id, order_id=change.order_id, lang=lang
    )


def delete_from_modify_order(
    *,
    session: Session,
    parent_id: int,
    order_id: int,
    order_line_id: int = 0,
    quantity: int | None = None,
    change_line_id: int | None = None,
    lang: str = "en",
) -> ModifyInfo:
    """DeleteFromModifyOrder: remove ``quantity`` (None: all still active) meals of the
    order line ``order_line_id`` (before its cut-off), or take back a step of the draft
    (``change_line_id``: a meal added, or a removal). Answers ``modify_order_info``."""
    lang = normalize_lang(lang)
    now = clock.now()
    order = own_order(session, parent_id=parent_id, order_id=order_id, lock=True)
    if change_line_id is not None:
        change = find_draft(session, order, create=False, now=now)
        step = session.get(OrderChangeLine, change_line_id)
        if change is None or step is None or step.change_id != change.id:
            raise DomainError("order_change_step_not_found", field="change_line_id")
        session.delete(step)
        return _draft_changed(session, change, now, parent_id=parent_id, lang=lang)
    loaded = load_for_change(session, order)
    line = loaded.line(order_line_id)
    if line is None:
        raise DomainError("order_change_line_not_found", field="order_line_id")
    ensure_changeable(loaded, line, now, lang)
    change = find_draft(session, order, create=True, now=now)
    assert change is not None
    steps = draft_steps(session, change.id)
    already = sum(s.quantity for s in steps if s.action == REMOVE and s.order_line_id == line.id)
    left = active_quantity(line) - already
    count = left if quantity is None else quantity
    if not 1 <= count <= left:
        raise DomainError("order_change_quantity_invalid", field="quantity", max=max(left, 0))
    if len(steps) >= DRAFT_MAX_STEPS:
        raise DomainError("order_change_too_many", max=DRAFT_MAX_STEPS)
    session.add(
        OrderChangeLine(
            change_id=change.id or 0, action=REMOVE, order_line_id=line.id, quantity=count
        )
    )
    return _draft_changed(session, change, now, parent_id=parent_id, lang=lang)


def modify_order_info(
    *, session: Session, parent_id: int, order_id: int, lang: str = "en"
) -> ModifyInfo:
    """ModifyOrderInfo: the order's lines (each with what the draft removes and whether it
    can still change), the meals the draft adds (priced from today's catalogue; a meal that
    broke a rule since is flagged with the reason) and the quote: the new total against
    what is held (paid - refunded), to pay or to refund. A fixed number of statements."""
    lang = normalize_lang(lang)
    now = clock.now()
    order = own_order(session, parent_id=parent_id, order_id=order_id, lock=False)
    loaded = load_for_change(session, order)
    change = find_draft(session, order, create=False, now=now)
    steps = draft_steps(session, change.id if change else None)
    plan, problems = plan_change(session, loaded, steps, lang=lang, now=now, strict=False)
    removes: dict[int, list[int]] = {}
    for step in steps:
        if step.action == REMOVE:
            removes.setdefault(step.order_line_id or 0, []).append(step.id or 0)
    lines = []
    for line in loaded.lines:
        closes = line_closes(line, loaded.vendors[line.vendor_id])
        child = loaded.children[line.child_id]
        active = active_quantity(line)
        lines.append(
            ModifyLine(
                order_line_id=line.id or 0,
                child_id=line.child_id,
                child_name=f"{child.first_name} {child.last_name}",
                meal_date=line.meal_date,
                meal_id=line.meal_id,
                name=meal_name(loaded.meals.get(line.meal_id), line.meal_name, lang),
                size=line.size,
                quantity=line.quantity,
                active_quantity=active,
                remove_quantity=plan.removed.get(line.id or 0, 0),
                remove_steps=tuple(removes.get(line.id or 0, [])),
                price_cents=line.line_total_cents,
                status="moved"
                if (line.moved_from_date and active)
                else "active"
                if active
                else LineStatus.DELIVERED.value
                if line.status == LineStatus.DELIVERED
                else LineStatus.CANCELLED.value,
                cutoff_at=closes,
                can_change=active > 0 and before_cutoff(closes, now),
                delivered_quantity=line.quantity - line.cancelled_quantity
                if line.status == LineStatus.DELIVERED
                else 0,
            )
        )
    checked_steps = {step.id: checked for step, checked in plan.added}
    added = []
    for step in steps:
        if step.action != ADD:
            continue
        checked = checked_steps.get(step.id)
        added.append(
            AddedMeal(
                change_line_id=step.id or 0,
                child_id=step.child_id,
                menu_day_id=step.menu_day_id,
                meal_id=step.meal_id,
                meal_date=checked.menu_day.meal_date if checked else None,
                name=meal_name(checked.meal, "", lang) if checked else "",
                size=checked.portion.size if checked else "",
                quantity=step.quantity,
                price_cents=checked.price.total_cents if checked else 0,
                ok=checked is not None,
                problem=problems.get(step.id or 0, ""),
            )
        )
    return ModifyInfo(
        order_id=order.id or 0,
        number=order.number,
        change_id=change.id if change else None,
        lines=tuple(lines),
        added=tuple(added),
        problems=tuple(StepProblem(k, v) for k, v in problems.items()),
        has_changes=bool(steps),
        quote=quote_of(plan, credit_balance=credit.balance(session, parent_id)),
    )


async def modify_confirm_order(
    *,
    parent_id: int,
    order_id: int,
    lang: str = "en",
    runtime: Runtime = APP,
    request_key: str | None = None,
    card_id: int | None = None,
    save_card: bool = False,
    refund_to: str = "",
    use_credit: bool = True,
) -> ChangeResult:
    """ModifyConfirmOrder: confirm the order's draft. A decrease (or no difference) is applied
    at once and refunded to the card or to family credit (``refund_to``; "": the family's
    standing choice); an increase is paid first with family credit (``use_credit``), then
    charged to the saved card ``card_id`` or answers a Lightbox session (``status`` ``pay``;
    then ``complete_change_payment``), and the order changes once the payment is approved.
    ``request_key``: the same key again answers what the first call did."""
    lang = normalize_lang(lang)
    key = await run_in_transaction(
        _own_id, engine=runtime.engine, parent_id=parent_id, order_id=order_id
    )
    return await confirm(
        parent_id=parent_id,
        order_id=key,
        change_id=None,
        lang=lang,
        runtime=runtime,
        request_key=request_key,
        card_id=card_id,
        save_card=save_card,
        refund_to=refund_to,
        use_credit=use_credit,
    )


def _own_id(session: Session, *, parent_id: int, order_id: int) -> int:
    order = own_order(session, parent_id=parent_id, order_id=order_id, lock=False)
    return order.id or 0


async def _paid_change(parent_id: int, payment_id: int, *, runtime: Runtime) -> int:
    """The parent's change that ``payment_id`` pays for (or ``payment_not_found``)."""
    return await run_in_transaction(
        change_of_payment, engine=runtime.engine, parent_id=parent_id, payment_id=payment_id
    )


async def complete_change_payment(
    *,
    parent_id: int,
    payment_id: int,
    txn_id: str,
    runtime: Runtime = APP,
) -> ChangeResult:
    """After the Lightbox's ``onApproval`` for a change: Converge confirms the sale and the
    change is applied in the same transaction (or, when it cannot be any more, dropped and the
    charge voided; so is the sale of an attempt its change no longer waits for). Safe to
    repeat."""
    change_id = await _paid_change(parent_id, payment_id, runtime=runtime)
    # None (not used here) for a second sale of a paid attempt: recorded apart and voided.
    await confirm_approval(
        payment_id=payment_id, txn_id=txn_id, parent_id=parent_id, runtime=runtime
    )
    return await settle(change_id, parent_id=parent_id, payment_id=payment_id, runtime=runtime)


async def change_payment_declined(
    *,
    parent_id: int,
    payment_id: int,
    message: str = "",
    outcome: str = "declined",
    runtime: Runtime = APP,
) -> ChangeResult:
    """ModifyChangeDeclined: the Lightbox's ``onDeclined`` / ``onError`` / ``onCancelled``
    for a change (``outcome``). Only a hint: Converge is asked first; a sale it
    made applies the change (or is voided). Otherwise nothing is charged as far as Converge
    shows, nothing changes, and the change is a draft again; the attempt stays open for the
    reconciliation and the next attempt to ask about."""
    change_id = await _paid_change(parent_id, payment_id, runtime=runtime)
    reason = browser_reason(message)
    asked = await report_browser_failure(
        payment_id=payment_id, parent_id=parent_id, message=reason, runtime=runtime
    )
    result = await settle(change_id, parent_id=parent_id, payment_id=payment_id, runtime=runtime)
    if result.status == "declined" and not (asked.answered and outcome == "declined"):
        result = replace(result, notice="order_change.not_confirmed")
    return result


# -- the payment handler's part (OrderChangePayment) ----------------------------------------------
