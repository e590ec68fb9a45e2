"""The cart's answers as /api/v1 gives them (AddToCart, DeleteCart, UpdateCartQuantity,
OrderSummary, CheckOrderSummary, check_promocode, AddManyToCart, RepeatWeek): the services'
values with the money written out in the parent's language."""

from __future__ import annotations

from typing import Any

from hotmeals.api.menu_present import allergy_mark_out, diet_fit_out
from hotmeals.domain.charges import CHARGE_FIELDS
from hotmeals.domain.money import format_money
from hotmeals.domain.pricing import giveback_summary
from hotmeals.services.ordering.cart import AddedLine, CartGroup, CartItem, CartSummary
from hotmeals.services.ordering.pricing import PricedSummary
from hotmeals.services.payments.credit_pay import CreditLine, credit_line_label


def added_out(line: AddedLine, lang: str) -> dict[str, Any]:
    """AddToCart's answer: the line and the cart's count."""
    return {
        "cart_id": line.cart_id,
        "child_id": line.child_id,
        "menu_day_id": line.menu_day_id,
        "date": line.date.isoformat(),
        "meal_id": line.meal_id,
        "portion_id": line.portion_id,
        "quantity": line.quantity,
        "unit_price_cents": line.unit_price_cents,
        "line_total_cents": line.line_total_cents,
        "line_total": format_money(line.line_total_cents, lang),
        "allergy_ack": line.allergy_ack,
        "allergy_notice": line.allergy_notice,
        "cart_count": line.cart_count,
    }


def cart_count_out(count: int) -> dict[str, Any]:
    """DeleteCart's answer."""
    return {"cart_count": count}


def cart_line_out(line: CartItem, lang: str) -> dict[str, Any]:
    return {
        "cart_id": line.cart_id,
        "meal_id": line.meal_id,
        "menu_day_id": line.menu_day_id,
        "vendor": line.vendor,
        "name": line.name,
        "image": line.image,
        "portion_id": line.portion_id,
        "size": line.size,
        "size_label": line.size_label,
        "quantity": line.quantity,
        "menu_option": line.menu_option,
        "meal_option": line.meal_option,
        "addons": [
            {
                "id": a.id,
                "name": a.name,
                "price_cents": a.price_cents,
                "price": format_money(a.price_cents, lang),
            }
            for a in line.addons
        ],
        "special_note": line.special_note,
        "allergy_ack": line.allergy_ack,
        "allergy": allergy_mark_out(line.allergy),
        "unit_price_cents": line.unit_price_cents,
        "special_note_fee_cents": line.special_note_fee_cents,
        "line_total_cents": line.line_total_cents,
        "line_total": format_money(line.line_total_cents, lang),
        "cutoff_at": line.cutoff_at.isoformat(),
        "payable": line.payable,
        "problems": list(line.problems),
        "diet": diet_fit_out(line.diet, lang),
    }


def cart_group_out(group: CartGroup, lang: str) -> dict[str, Any]:
    return {
        "child_id": group.child_id,
        "child_name": group.child_name,
        "child_first_name": group.child_first_name,
        "date": group.date.isoformat(),
        "lines": [cart_line_out(line, lang) for line in group.lines],
    }


def cart_summary_out(summary: CartSummary, lang: str) -> dict[str, Any]:
    """The cart by child and date, its charges, the total to pay and what it gives back
    (UpdateCartQuantity's answer; OrderSummary's with the credit)."""
    charges = summary.charges
    cents = {name: getattr(charges, name) for name in (*CHARGE_FIELDS, "total_refund_cents")}
    return {
        "groups": [cart_group_out(group, lang) for group in summary.groups],
        "cart_count": summary.cart_count,
        "payable_count": summary.payable_count,
        "meal_count": summary.meal_count,
        "charges": cents,
        "total_pay": format_money(charges.total_pay_cents, lang),
        "giveback": giveback_summary(summary.meal_count, lang),
        "promo_code": summary.promo_code,
        "tax_bps": summary.tax_bps,
    }


def order_summary_out(priced: PricedSummary, lang: str) -> dict[str, Any]:
    """OrderSummary's, CheckOrderSummary's and check_promocode's answer: the cart summary and
    what family credit and the card would pay."""
    return {
        **cart_summary_out(priced.summary, lang),
        "credit_cents": priced.credit_cents,
        "card_cents": priced.card_cents,
        "credit_lines": [credit_line_out(line, lang) for line in priced.credit_lines],
    }


def credit_line_out(line: CreditLine, lang: str) -> dict[str, Any]:
    """A line of family credit's share or the card's, as the charges' lines are written."""
    return {
        "name": line.name,
        "label": credit_line_label(line, lang),
        "cents": line.cents,
        "amount": format_money(line.cents, lang),
    }
