"""The e-mails of a paid order's life, in the parent's language, queued in the transaction
that records what they tell (sent once it commits): a cancel, a refund Converge answered, an
applied change or move."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlmodel import Session, col, select

from hotmeals.db.models import Child, Meal, Order, OrderChange, Parent, Refund
from hotmeals.domain.money import format_money
from hotmeals.domain.payment_states import RefundKind, RefundState
from hotmeals.i18n import normalize_lang, t
from hotmeals.services import links, mail, notifications
from hotmeals.services.mail_html import MailTable
from hotmeals.services.ordering.changing.change_plan import MOVE, ChangePlan, difference_text
from hotmeals.services.ordering.labels import meal_name, order_day, size_label
from hotmeals.services.ordering.loaded_order import LoadedOrder


def queue_cancel_mail(
    session: Session,
    loaded: LoadedOrder,
    quantities: Mapping[int, int],
    *,
    refund_cents: int,
    credit_cents: int = 0,
) -> None:
    """The 'Order Cancelled' e-mail in the parent's language: what was cancelled and the
    refund that is due (sent after the transaction commits; always sent: it confirms what the
    parent did). The refund itself is e-mailed once Converge answers (``queue_refund_mail``)."""
    parent = session.get(Parent, loaded.order.parent_id)
    if parent is None or not parent.email:
        return
    lang = normalize_lang(parent.language)
    names = dict(
        session.exec(
            select(col(Child.id), col(Child.first_name)).where(
                col(Child.id).in_(sorted({x.child_id for x in loaded.lines}) or [0])
            )
        ).all()
    )
    french: dict[int, str] = {}
    if lang == "fr":
        french = {
            mid: name
            for mid, name in session.exec(
                select(col(Meal.id), col(Meal.name_fr)).where(
                    col(Meal.id).in_(sorted({x.meal_id for x in loaded.lines}) or [0])
                )
            ).all()
            if mid is not None and name
        }
    items: list[str] = []
    rows: list[tuple[str, ...]] = []
    last_heading = ""
    for line in loaded.lines:
        qty = quantities.get(line.id or 0)
        if not qty:
            continue
        child = names.get(line.child_id, "")
        meal = french.get(line.meal_id, line.meal_name)
        size = size_label(line.size, lang)
        day = order_day(line.meal_date, lang)
        items.append(
            t(
                "orders_after.mail_line",
                lang,
                child=child,
                quantity=qty,
                meal=meal,
                size=size,
                day=day,
            )
        )
        heading = t("orderpay.mail_group", lang, child=child, day=day)
        if heading != last_heading:
            rows.append((heading,))
            last_heading = heading
        rows.append((t("orderpay.mail_meal", lang, meal=meal, size=size), str(qty)))
    send_order_mail(
        session,
        parent,
        "order_cancelled",
        lang,
        loaded.order,
        lines=MailTable(
            text="\n".join(items),
            caption=t("mail.caption.cancelled", lang),
            columns=(t("mail.col.meal", lang), t("mail.col.quantity", lang)),
            rows=tuple(rows),
            numeric=frozenset({1}),
        ),
        refund=cancel_mail_refund(session, parent, refund_cents, lang, credit_cents=credit_cents),
    )


def queue_refund_mail(session: Session, refund: Refund, *, first: bool) -> None:
    """The parent's refund e-mail, once Converge has answered (called by the order payment
    handlers in the transaction that records the refund's new state, so once per refund and
    never twice, even with several workers), in the parent's language and only when the
    parent's 'refund' notification is on (docs/product.md, "Refund e-mails"):

    - SUCCEEDED: the amount refunded to the card;
    - FAILED or UNKNOWN as Converge's first answer: the refund is being processed (the
      periodic job retries it; its success sends the e-mail above). A later reconciliation
      and a failed retry send nothing more."""
    if refund.order_id is None:
        return
    succeeded = refund.state == RefundState.SUCCEEDED
    # The last try failed: the parent is told, once (the move to FAILED happens once), that
    # the refund is delayed and a person is on it.
    delayed = refund.state == RefundState.FAILED and refund.attention_at is not None
    if not succeeded and not delayed and (not first or refund.attempt > 1):
        return
    order = session.get(Order, refund.order_id)
    if order is None:
        return
    parent = session.get(Parent, order.parent_id)
    if parent is None or not parent.email:
        return
    if not notifications.is_enabled(session=session, parent_id=parent.id or 0, kind="refund"):
        return  # the parent turned refund e-mails off (settings, notifications)
    lang = normalize_lang(parent.language)
    kind = "refund_made" if succeeded else "refund_delayed" if delayed else "refund_processing"
    if refund.kind == RefundKind.CREDIT:
        kind = "refund_to_credit"  # done at once, never delayed
    send_order_mail(
        session,
        parent,
        kind,
        lang,
        order,
        amount=format_money(refund.amount_cents, lang),
    )


def send_order_mail(
    session: Session, parent: Parent, template: str, lang: str, order: Order, **params: Any
) -> None:
    """An e-mail about ``order`` to its parent in ``lang`` (``mail.<template>``, queued under
    the template's name as its kind), with the order's number and the link to its details."""
    mail.send_templated(
        session=session,
        to=parent.email,
        template=template,
        language=lang,
        name=parent.first_name,
        number=order.number,
        order_url=links.order_url(order.id or 0),
        **params,
    )


def cancel_mail_refund(
    session: Session, parent: Parent, refund_cents: int, lang: str, *, credit_cents: int = 0
) -> str:
    """The cancel e-mail's refund line: what is due, never yet what was refunded (Converge
    has not answered when it is written); the refund e-mail follows when the parent wants it.
    What went to family credit (``credit_cents``) is said as done."""

    if refund_cents <= 0:
        return t("orders_after.no_refund", lang)
    if credit_cents > 0:
        return refund_notice(refund_cents, lang, credit_cents=credit_cents)
    amount = format_money(refund_cents, lang)
    if notifications.is_enabled(session=session, parent_id=parent.id or 0, kind="refund"):
        return t("orders_after.mail_refund_due", lang, amount=amount)
    return t("orders_after.mail_refund_due_quiet", lang, amount=amount)


def refund_notice(
    refund_cents: int, lang: str, *, credit_cents: int = 0, ahead: bool = False
) -> str:
    """Where a refund of ``refund_cents`` goes: the card, family credit (``credit_cents`` of
    it) or both. The one way every cancel door says it: after the cancel (its answer, the
    e-mail) and, ``ahead``, before it ("Are you sure?", from ``cancel_order.refund_preview``),
    where credit's share is still to come."""
    if refund_cents <= 0:
        return t("orders_after.no_refund", lang)
    card_cents = refund_cents - credit_cents
    if credit_cents <= 0:
        return t("orders_after.refund_notice", lang, amount=format_money(refund_cents, lang))
    if card_cents <= 0:
        key = "credit.refund_ahead" if ahead else "credit.refund_notice"
        return t(key, lang, amount=format_money(credit_cents, lang))
    return t(
        "credit.refund_notice_split",
        lang,
        credit=format_money(credit_cents, lang),
        card=format_money(card_cents, lang),
    )


def cancel_notice(refund_cents: int, lang: str, *, credit_cents: int, failed_cents: int) -> str:
    """What a cancel's answer says of its refund (``cancel_order.CancelResult``):
    ``refund_notice``, or, when Converge refused a refund, that the cancel stands and the money
    is not on its way yet."""
    if failed_cents:
        return t("cancel_refund_failed", lang)
    return refund_notice(refund_cents, lang, credit_cents=credit_cents)


def queue_change_mail(
    session: Session, order: Order, change: OrderChange, plan: ChangePlan
) -> None:
    """The e-mail of an applied change, in the parent's language."""
    parent = session.get(Parent, order.parent_id)
    if parent is None or not parent.email:
        return
    lang = normalize_lang(parent.language)
    money = difference_text(
        change.amount_cents,
        lang,
        pay="order_change.mail_paid",
        refund="order_change.mail_refund",
        even="order_change.mail_even",
    )
    steps = []
    for line_id, qty in sorted(plan.removed.items()):
        line = plan.loaded.line(line_id)
        assert line is not None
        name = meal_name(plan.loaded.meals.get(line.meal_id), line.meal_name, lang)
        steps.append(
            t(
                "order_change.mail_removed",
                lang,
                quantity=qty,
                meal=name,
                day=order_day(line.meal_date, lang),
            )
        )
    for _, checked in plan.added:
        steps.append(
            t(
                "order_change.mail_added",
                lang,
                quantity=checked.quantity,
                meal=meal_name(checked.meal, "", lang),
                child=checked.child.first_name,
                day=order_day(checked.menu_day.meal_date, lang),
            )
        )
    for line, _ in plan.moved:
        steps.append(
            t(
                "order_change.mail_moved",
                lang,
                meal=meal_name(plan.loaded.meals.get(line.meal_id), line.meal_name, lang),
                old=order_day(line.moved_from_date or line.meal_date, lang),
                new=order_day(line.meal_date, lang),
            )
        )
    template = "meal_moved" if change.kind == MOVE else "order_changed"
    send_order_mail(
        session,
        parent,
        template,
        lang,
        order,
        changes="\n".join(f"  - {step}" for step in steps),
        money=money,
        total=format_money(plan.charges.total_pay_cents, lang),
    )
