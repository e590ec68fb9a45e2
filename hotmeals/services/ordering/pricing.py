"""Pricing the cart with the parent's promo code and donation, once for the summary
(OrderSummary / CheckOrderSummary) and for the checkout.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session

from hotmeals import clock
from hotmeals.db.models import PromoCode
from hotmeals.domain.charges import check_promo
from hotmeals.domain.credit import payment_split
from hotmeals.domain.cutoff import before_cutoff
from hotmeals.domain.dates import full_day
from hotmeals.domain.errors import DomainError
from hotmeals.services import credit, donations, promos
from hotmeals.services.ordering.cart import CartSummary, summary_at
from hotmeals.services.payments.credit_pay import CreditLine, credit_share


@dataclass(frozen=True)
class PricedCart:
    summary: CartSummary  # ``cart.summary_at`` with the promo and the donation
    promo_row: PromoCode | None  # the promo's row: an order records where its terms came from


def price_cart(
    session: Session,
    *,
    parent_id: int,
    promo_code: str | None = None,
    donation: int | str | None = None,
    lang: str = "en",
    now: datetime,
    require_payable: bool = False,
    name_past_cutoff: bool = False,
    with_diets: bool = True,
) -> PricedCart:
    """The cart summary with the parent's promo code (``promos.usable_promo``, its minimum
    checked against the payable meal net by ``domain.charges.check_promo``) and an optional
    donation ($1 to $500, ``donations.parse_amount``). With ``require_payable`` a cart with
    nothing payable is refused: ``cart_nothing_payable``, or with ``name_past_cutoff`` (the
    checkout) ``orderpay_cutoff_passed`` naming the first day whose cut-off passed when that
    is why. ``with_diets``: each line's fit for its child's dietary needs (what the parent
    reads; the checkout, which only charges, leaves it out: one statement less)."""
    row = None
    promo = None
    if promo_code:
        row = promos.usable_promo(session=session, parent_id=parent_id, code=promo_code, now=now)
        promo = promos.to_promo(row)
    gift = 0
    if donation not in (None, "", 0, "0"):
        gift = donations.parse_amount(donation)
    summary = summary_at(
        session,
        parent_id=parent_id,
        lang=lang,
        now=now,
        promo=promo,
        school_donation_cents=gift,
        with_diets=with_diets,
    )
    if require_payable and summary.payable_count == 0:
        if name_past_cutoff:
            past = sorted(
                group.date.isoformat()
                for group in summary.groups
                for line in group.lines
                if not before_cutoff(line.cutoff_at, now)
            )
            if past:
                raise DomainError("orderpay_cutoff_passed", day=full_day(past[0], lang))
        raise DomainError("cart_nothing_payable")
    if promo is not None:
        check_promo(promo, summary.charges.meal_net_cents, lang)
    return PricedCart(summary, row)


@dataclass(frozen=True)
class PricedSummary:
    """The cart priced with the promo and the donation, and how it would be paid: family
    credit first (``credit_cents``), the card the rest (``card_cents``); ``credit_lines`` the
    lines of family credit's share and the card's when credit pays some (none otherwise)."""

    summary: CartSummary
    credit_cents: int
    card_cents: int
    credit_lines: tuple[CreditLine, ...]


def priced_summary(
    *,
    session: Session,
    parent_id: int,
    promo_code: str | None = None,
    donation_cents: int | None = None,
    require_payable: bool = False,
    lang: str = "en",
) -> PricedSummary:
    """OrderSummary / CheckOrderSummary: ``price_cart``'s summary (with ``require_payable``,
    before paying, a cart with nothing payable is refused), with what family credit would pay
    of it."""
    summary = price_cart(
        session,
        parent_id=parent_id,
        promo_code=promo_code,
        donation=donation_cents,
        lang=lang,
        now=clock.now(),
        require_payable=require_payable,
    ).summary
    total = summary.charges.total_pay_cents
    split = payment_split(total, credit.balance(session, parent_id))
    return PricedSummary(
        summary=summary,
        credit_cents=split.credit_cents,
        card_cents=split.card_cents,
        credit_lines=credit_share(split.credit_cents, split.card_cents, done=False),
    )
