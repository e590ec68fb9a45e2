"""The answers of the calls that change a paid order as /api/v1 gives them (GetMealsList,
MealOrderDetail, GetDatesForModifyMeal, ModifyOrderInfo, AddToMyOrder, DeleteFromModifyOrder,
ModifyMeal, ModifyConfirmOrder, ModifyChangePaid, ModifyChangeDeclined): the services' values
with the days and the money written out in the parent's language."""

from __future__ import annotations

from typing import Any

from hotmeals.api.cart_present import credit_line_out
from hotmeals.domain.charges import OrderCharges
from hotmeals.domain.money import format_money
from hotmeals.services.ordering.changing.change_plan import CHARGE_FIELDS, ChangeQuote, quote_text
from hotmeals.services.ordering.changing.change_result import ChangeResult, change_message
from hotmeals.services.ordering.changing.modify import AddedMeal, ModifyInfo, ModifyLine
from hotmeals.services.ordering.changing.move import MealView, MoveDates
from hotmeals.services.ordering.labels import order_day
from hotmeals.services.payments import HostedSession


def meal_out(meal: MealView, lang: str) -> dict[str, Any]:
    """One of the parent's meals (GetMealsList's rows, MealOrderDetail)."""
    return {
        "order_line_id": meal.order_line_id,
        "order_id": meal.order_id,
        "order_number": meal.order_number,
        "child_id": meal.child_id,
        "child_name": meal.child_name,
        "date": meal.meal_date.isoformat(),
        "day": order_day(meal.meal_date, lang),
        "meal_id": meal.meal_id,
        "name": meal.name,
        "image": meal.image,
        "size": meal.size,
        "size_label": meal.size_label,
        "menu_option": meal.menu_option,
        "meal_option": meal.meal_option,
        "addons": list(meal.addons),
        "special_note": meal.special_note,
        "quantity": meal.quantity,
        "price_cents": meal.price_cents,
        "price": format_money(meal.price_cents, lang),
        "vendor": meal.vendor,
        "status": meal.status,
        "moved_from_date": meal.moved_from_date.isoformat() if meal.moved_from_date else None,
        "cutoff_at": meal.cutoff_at.isoformat(),
        "can_change": meal.can_change,
    }


def move_dates_out(found: MoveDates, lang: str) -> dict[str, Any]:
    """GetDatesForModifyMeal's answer."""
    return {
        "order_line_id": found.order_line_id,
        "date": found.meal_date.isoformat(),
        "cutoff_at": found.cutoff_at.isoformat(),
        "vendor": found.vendor,
        "dates": [
            {
                "date": day.meal_date.isoformat(),
                "day": order_day(day.meal_date, lang),
                "menu_day_id": day.menu_day_id,
                "cutoff_at": day.cutoff_at.isoformat(),
                "meal_served": day.meal_served,
            }
            for day in found.dates
        ],
    }


def charges_out(charges: OrderCharges, lang: str) -> dict[str, Any]:
    """The order's charges after a change: the repriced ones, the school donation and the
    additional charge as paid, and the total to pay written out."""
    out: dict[str, Any] = {name: getattr(charges, name) for name in CHARGE_FIELDS}
    out["school_donation_cents"] = charges.school_donation_cents
    out["additional_charge_cents"] = charges.additional_charge_cents
    out["total_pay"] = format_money(charges.total_pay_cents, lang)
    return out


def quote_out(quote: ChangeQuote, lang: str) -> dict[str, Any]:
    """The quote of a change: the difference, and of an increase what family credit and the
    card pay (with the lines "Family credit −$x.xx" / "To pay by card $y.yy")."""
    return {
        "paid_cents": quote.paid_cents,
        "refunded_cents": quote.refunded_cents,
        "new_total_cents": quote.new_total_cents,
        "difference_cents": quote.difference_cents,
        "to_pay_cents": quote.to_pay_cents,
        "to_refund_cents": quote.to_refund_cents,
        "to_pay": format_money(quote.to_pay_cents, lang),
        "to_refund": format_money(quote.to_refund_cents, lang),
        "message": quote_text(quote.difference_cents, lang),
        "charges": charges_out(quote.charges, lang),
        "credit_cents": quote.credit_cents,
        "card_cents": quote.card_cents,
        "credit_lines": [credit_line_out(line, lang) for line in quote.credit_lines],
    }


def modify_line_out(line: ModifyLine, lang: str) -> dict[str, Any]:
    return {
        "order_line_id": line.order_line_id,
        "child_id": line.child_id,
        "child_name": line.child_name,
        "date": line.meal_date.isoformat(),
        "day": order_day(line.meal_date, lang),
        "meal_id": line.meal_id,
        "name": line.name,
        "size": line.size,
        "quantity": line.quantity,
        "active_quantity": line.active_quantity,
        "remove_quantity": line.remove_quantity,
        "remove_steps": list(line.remove_steps),
        "price_cents": line.price_cents,
        "price": format_money(line.price_cents, lang),
        "status": line.status,
        "cutoff_at": line.cutoff_at.isoformat(),
        "can_change": line.can_change,
    }


def added_out(added: AddedMeal, lang: str) -> dict[str, Any]:
    return {
        "change_line_id": added.change_line_id,
        "child_id": added.child_id,
        "menu_day_id": added.menu_day_id,
        "meal_id": added.meal_id,
        "date": added.meal_date.isoformat() if added.meal_date else None,
        "name": added.name,
        "size": added.size,
        "quantity": added.quantity,
        "price_cents": added.price_cents,
        "price": format_money(added.price_cents, lang),
        "ok": added.ok,
        "problem": added.problem,
    }


def modify_info_out(info: ModifyInfo, lang: str) -> dict[str, Any]:
    """ModifyOrderInfo's answer (AddToMyOrder's and DeleteFromModifyOrder's too)."""
    return {
        "order_id": info.order_id,
        "number": info.number,
        "change_id": info.change_id,
        "lines": [modify_line_out(line, lang) for line in info.lines],
        "added": [added_out(added, lang) for added in info.added],
        "problems": [
            {"change_line_id": p.change_line_id, "message": p.message} for p in info.problems
        ],
        "has_changes": info.has_changes,
        **quote_out(info.quote, lang),
    }


def hosted_out(hosted: HostedSession) -> dict[str, Any]:
    return {
        "payment_id": hosted.payment_id,
        "token": hosted.token,
        "lightbox_url": hosted.lightbox_url,
        "amount_cents": hosted.amount_cents,
        "invoice_number": hosted.invoice_number,
        "purpose": hosted.purpose,
        "transaction_type": hosted.transaction_type,
    }


def change_out(result: ChangeResult, lang: str) -> dict[str, Any]:
    """What a confirmed change (or a move, or its payment) did, and what the parent reads of
    it."""
    return {
        "status": result.status,
        "order_id": result.order_id,
        "order_number": result.order_number,
        "change_id": result.change_id,
        "difference_cents": result.difference_cents,
        "message": change_message(result, lang),
        "payment_id": result.payment_id,
        "hosted": hosted_out(result.hosted) if result.hosted else None,
        "refund_cents": result.refund_cents,
        "refund_ok": result.refund_ok,
        "credit_cents": result.credit_cents,
    }
