"""The /api/v1 answers about paid orders: the confirmation, the history, an order's details and
the cancel cart, as dicts of the routes' field names with the money strings in the parent's
language."""

from __future__ import annotations

from typing import Any

from hotmeals.domain.charges import CHARGE_FIELDS
from hotmeals.domain.money import format_money
from hotmeals.domain.pricing import giveback_summary
from hotmeals.i18n import t
from hotmeals.services.ordering.cancelling.cancel_cart import CancelCartDetails, CancelCartItem
from hotmeals.services.ordering.cancelling.cancel_order import CancelReasonView
from hotmeals.services.ordering.confirmation import ChargeLine, Confirmation
from hotmeals.services.ordering.queries import OrderDetail, OrderHistory


def sold_addon_out(name: str, price_cents: int, lang: str) -> dict[str, Any]:
    """An add-on as an order sold it (the confirmation's and the details' lines)."""
    return {"name": name, "price_cents": price_cents, "price": format_money(price_cents, lang)}


def charge_out(charge: ChargeLine, lang: str) -> dict[str, Any]:
    return {
        "name": charge.name,
        "label": charge.label,
        "cents": charge.cents,
        "amount": format_money(charge.cents, lang),
    }


def confirmation_out(order: Confirmation, lang: str) -> dict[str, Any]:
    return {
        "order_id": order.order_id,
        "number": order.number,
        "status": order.status,
        "status_label": order.status_label,
        "created_at": order.created_at.isoformat(),
        "placed_at": order.placed_at.isoformat() if order.placed_at else None,
        "promo_code": order.promo_code,
        "groups": [
            {
                "child_id": group.child_id,
                "child_name": group.child_name,
                "date": group.date.isoformat(),
                "day": group.day,
                "lines": [
                    {
                        "line_id": line.line_id,
                        "meal_id": line.meal_id,
                        "name": line.name,
                        "size": line.size,
                        "size_label": line.size_label,
                        "menu_option": line.menu_option,
                        "meal_option": line.meal_option,
                        "addons": [
                            sold_addon_out(a.name, a.price_cents, lang) for a in line.addons
                        ],
                        "special_note": line.special_note,
                        "allergy_ack": line.allergy_ack,
                        "quantity": line.quantity,
                        "unit_price_cents": line.unit_price_cents,
                        "line_total_cents": line.line_total_cents,
                        "line_total": format_money(line.line_total_cents, lang),
                        "status": line.status,
                    }
                    for line in group.lines
                ],
            }
            for group in order.groups
        ],
        "meal_count": order.meal_count,
        "charges": {name: getattr(order.charges, name) for name in CHARGE_FIELDS},
        "tax_bps": order.tax_bps,
        "charge_lines": [charge_out(c, lang) for c in order.charge_lines],
        "giveback": giveback_summary(order.meal_count, lang),
        "total_pay_cents": order.total_pay_cents,
        "total_pay": format_money(order.total_pay_cents, lang),
        "credit_cents": order.credit_cents,
    }


def history_out(history: OrderHistory, lang: str) -> dict[str, Any]:
    return {
        "tab": history.tab,
        "orders": [
            {
                "order_id": o.order_id,
                "number": o.number,
                "status": o.status,
                "status_label": o.status_label,
                "delivery_dates": [d.isoformat() for d in o.delivery_dates],
                "delivery_dates_label": list(o.delivery_dates_label),
                "ordered_on": o.ordered_on.isoformat(),
                "ordered_on_label": o.ordered_on_label,
                "total_items": o.total_items,
                "active_items": o.active_items,
                "total_pay_cents": o.total_pay_cents,
                "total_pay": format_money(o.total_pay_cents, lang),
                "total_refund_cents": o.total_refund_cents,
                "total_refund": format_money(o.total_refund_cents, lang),
                "children": list(o.children),
                "meals": list(o.meals),
            }
            for o in history.orders
        ],
        "message": "" if history.orders else t("no_data_found", lang),
    }


def detail_out(order: OrderDetail, lang: str) -> dict[str, Any]:
    return {
        "order_id": order.order_id,
        "number": order.number,
        "status": order.status,
        "status_label": order.status_label,
        "ordered_on": order.ordered_on.isoformat(),
        "promo_code": order.promo_code,
        "lines": [
            {
                "order_line_id": line.order_line_id,
                "child_id": line.child_id,
                "child_name": line.child_name,
                "date": line.date.isoformat(),
                "day": line.day,
                "meal_id": line.meal_id,
                "meal_name": line.meal_name,
                "size": line.size,
                "size_label": line.size_label,
                "menu_option": line.menu_option,
                "meal_option": line.meal_option,
                "addons": [sold_addon_out(a.name, a.price_cents, lang) for a in line.addons],
                "special_note": line.special_note,
                "quantity": line.quantity,
                "cancelled_quantity": line.cancelled_quantity,
                "active_quantity": line.active_quantity,
                "unit_price_cents": line.unit_price_cents,
                "line_total_cents": line.line_total_cents,
                "line_total": format_money(line.line_total_cents, lang),
                "state": line.state,
                "state_label": line.state_label,
                "moved_from": line.moved_from.isoformat() if line.moved_from else None,
                "can_cancel": line.can_cancel,
                "cutoff_at": line.cutoff_at.isoformat(),
            }
            for line in order.lines
        ],
        "charges": [charge_out(c, lang) for c in order.charges],
        "total_pay_cents": order.total_pay_cents,
        "total_refund_cents": order.total_refund_cents,
        "total_refund": format_money(order.total_refund_cents, lang),
        "refunds": [
            {
                "refund_id": r.refund_id,
                "amount_cents": r.amount_cents,
                "amount": format_money(r.amount_cents, lang),
                "kind": r.kind,
                "state": r.state,
                "state_label": r.state_label,
                "date": r.date.isoformat(),
                "date_label": r.date_label,
            }
            for r in order.refunds
        ],
        "voided_attempts": [
            {
                "payment_id": v.payment_id,
                "amount_cents": v.amount_cents,
                "amount": format_money(v.amount_cents, lang),
                "refunded_cents": v.refunded_cents,
                "state": v.state,
                "state_label": v.state_label,
                "date": v.date.isoformat(),
                "text": t(
                    "orders_after.voided_attempt",
                    lang,
                    amount=format_money(v.amount_cents, lang),
                    day=v.date_label,
                    state=v.state_label,
                ),
            }
            for v in order.voided_attempts
        ],
        "can_cancel": order.can_cancel,
    }


def cancel_cart_item_out(item: CancelCartItem) -> dict[str, Any]:
    return {
        "cancel_cart_id": item.cancel_cart_id,
        "order_line_id": item.order_line_id,
        "quantity": item.quantity,
        "cancel_cart_count": item.cancel_cart_count,
    }


def cancel_cart_details_out(cart: CancelCartDetails, lang: str) -> dict[str, Any]:
    return {
        "orders": [
            {
                "order_id": o.order_id,
                "number": o.number,
                "lines": [
                    {
                        "cancel_cart_id": x.cancel_cart_id,
                        "order_line_id": x.order_line_id,
                        "child_name": x.child_name,
                        "date": x.date.isoformat(),
                        "day": x.day,
                        "meal_name": x.meal_name,
                        "size_label": x.size_label,
                        "quantity": x.quantity,
                        "max_quantity": x.max_quantity,
                        "line_total": format_money(x.line_total_cents, lang),
                        "cancellable": x.cancellable,
                        "reason": x.reason,
                    }
                    for x in o.lines
                ],
                "refund_cents": o.refund_cents,
                "refund": format_money(o.refund_cents, lang),
            }
            for o in cart.orders
        ],
        "count": cart.count,
        "total_refund_cents": cart.total_refund_cents,
        "total_refund": format_money(cart.total_refund_cents, lang),
        "message": "" if cart.count else t("no_data_found", lang),
    }


def reason_out(reason: CancelReasonView, lang: str) -> dict[str, Any]:
    return {
        "reason_id": reason.reason_id,
        "code": reason.code,
        "label": reason.label(lang),
        "is_other": reason.is_other,
    }
