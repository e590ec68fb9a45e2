"""An order's charges (docs/product.md §3): from priced lines to what the parent pays.

Order of computation, every step on integer cents:

1. ``meal_net_cents``: the sum of the lines' ``meal_cents``.
2. ``special_note_fees_cents``: the sum of the lines' special-note fees.
3. ``discount_cents``: the promo applied to the meal net only (not to note fees, tax, fees or the
   donation). A promo with a minimum order applies only when the meal net reaches it; the
   discount never exceeds the meal net.
4. ``processing_fee_cents``: ``processing_fee_bps`` of the pre-tax amount charged to the card
   (meal net - discount + note fees + donation + additional charge), plus
   ``processing_fee_fixed_cents``. When that amount is 0 no card is charged and the fee is 0.
5. ``tax_cents``: ``tax_bps`` (Ontario HST, 13 % by default) of
   meal net - discount + note fees + processing fee. The fee is part of the price of a taxable
   supply, so it is taxed with it. The donation is a gift and is never taxed; the additional
   charge is an amount already worked out elsewhere (e.g. a price difference when an order is
   modified) and is added as is. Whether school meals are zero-rated or exempt is a question for
   the operator's tax adviser: set ``tax_bps=0`` where they are.
6. ``total_pay_cents``: meal net - discount + note fees + processing fee + tax + donation +
   additional charge.

Rounding: each rate-based charge (percent discount, processing fee, tax) is rounded once, half
up, to the cent, with ``money.round_half_up``; the total is the sum of the rounded charges, so
the receipt always adds up.

No lines means no order: every field is 0, including the school donation and the additional
charge. The donation is the parent's optional gift attached to an order; it stays while the
order has at least one line, and cancelling the last line refunds it with everything else.

``total_refund_cents`` is always 0 here; ``refunds.py`` fills it in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import BPS_DENOMINATOR, apply_bps, format_money
from hotmeals.domain.pricing import LinePrice
from hotmeals.i18n import normalize_lang, t

ONTARIO_HST_BPS = 1300

# The charges an order stores (``Order``'s columns, as ``OrderCharges`` names them), in the
# order they are computed.
CHARGE_FIELDS = (
    "meal_net_cents",
    "special_note_fees_cents",
    "processing_fee_cents",
    "tax_cents",
    "discount_cents",
    "school_donation_cents",
    "additional_charge_cents",
    "total_pay_cents",
)
# The charge lines as the parent reads them (confirmation, order detail, receipt), in that
# order, each with its label's message key; the total last.
CHARGE_LINES = (
    ("meal_net_cents", "orderpay.charge_meal_net"),
    ("special_note_fees_cents", "orderpay.charge_note_fees"),
    ("discount_cents", "orderpay.charge_discount"),
    ("processing_fee_cents", "orderpay.charge_processing"),
    ("tax_cents", "orderpay.charge_tax"),
    ("school_donation_cents", "orderpay.charge_donation"),
    ("additional_charge_cents", "orderpay.charge_additional"),
    ("total_pay_cents", "orderpay.charge_total"),
)
# The lines shown even at 0 (the others only when they apply).
ALWAYS_SHOWN = ("meal_net_cents", "tax_cents", "total_pay_cents")


def _non_negative_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@dataclass(frozen=True)
class ChargeRates:
    """Configured per deployment; a card fee is off unless the operator sets one."""

    processing_fee_bps: int = 0
    processing_fee_fixed_cents: int = 0
    tax_bps: int = ONTARIO_HST_BPS

    def __post_init__(self) -> None:
        for name in ("processing_fee_bps", "processing_fee_fixed_cents", "tax_bps"):
            if not _non_negative_int(getattr(self, name)):
                raise ValueError(f"{name} must be a non-negative int")
        if self.processing_fee_bps > BPS_DENOMINATOR or self.tax_bps > BPS_DENOMINATOR:
            raise ValueError("a rate above 100 % is a configuration error")


class PromoKind(StrEnum):
    PERCENT = "percent"  # value in basis points of the meal net: 1000 = 10 %
    FIXED = "fixed"  # value in cents off the meal net


@dataclass(frozen=True)
class Promo:
    kind: PromoKind
    value: int
    min_order_cents: int = 0
    code: str = ""

    def __post_init__(self) -> None:
        if not _non_negative_int(self.value) or not _non_negative_int(self.min_order_cents):
            raise ValueError("promo value and minimum must be non-negative ints")
        if self.kind == PromoKind.PERCENT and self.value > BPS_DENOMINATOR:
            raise ValueError("a percent promo is at most 10000 bps")

    @classmethod
    def percent(cls, bps: int, *, min_order_cents: int = 0, code: str = "") -> Promo:
        return cls(PromoKind.PERCENT, bps, min_order_cents, code)

    @classmethod
    def fixed(cls, cents: int, *, min_order_cents: int = 0, code: str = "") -> Promo:
        return cls(PromoKind.FIXED, cents, min_order_cents, code)

    def applies_to(self, meal_net_cents: int) -> bool:
        return meal_net_cents > 0 and meal_net_cents >= self.min_order_cents

    def discount(self, meal_net_cents: int) -> int:
        """Cents off ``meal_net_cents``: 0 below the minimum, never more than the meal net."""
        if not self.applies_to(meal_net_cents):
            return 0
        if self.kind == PromoKind.PERCENT:
            off = apply_bps(meal_net_cents, self.value)
        else:
            off = self.value
        return min(off, meal_net_cents)


def check_promo(promo: Promo, meal_net_cents: int, lang: str | None = "en") -> None:
    """When a parent applies a code: ``promo_min_order_not_met`` if the cart is too small."""
    if not promo.applies_to(meal_net_cents):
        raise DomainError(
            "promo_min_order_not_met",
            field="promo_code",
            minimum=format_money(promo.min_order_cents, lang),
        )


@dataclass(frozen=True)
class OrderTerms:
    """The rates and the promo in force when an order was paid, as the order stores them
    (``Order.tax_bps`` ... ``Order.promo_min_order_cents``): refunds and modifications re-price
    with these, never with today's settings or today's promo row."""

    rates: ChargeRates
    promo: Promo | None = None

    @classmethod
    def from_stored(
        cls,
        *,
        tax_bps: int,
        processing_fee_bps: int,
        processing_fee_fixed_cents: int,
        promo_code: str | None = None,
        promo_kind: str | None = None,
        promo_value: int = 0,
        promo_min_order_cents: int = 0,
    ) -> OrderTerms:
        rates = ChargeRates(
            processing_fee_bps=processing_fee_bps,
            processing_fee_fixed_cents=processing_fee_fixed_cents,
            tax_bps=tax_bps,
        )
        promo = None
        if promo_kind:
            kind = PromoKind(promo_kind)
            promo = Promo(kind, promo_value, promo_min_order_cents, promo_code or "")
        return cls(rates, promo)

    def to_stored(self) -> dict[str, int | str | None]:
        """The column values of ``Order`` that record these terms."""
        promo = self.promo
        return {
            "tax_bps": self.rates.tax_bps,
            "processing_fee_bps": self.rates.processing_fee_bps,
            "processing_fee_fixed_cents": self.rates.processing_fee_fixed_cents,
            "promo_code": promo.code if promo else None,
            "promo_kind": promo.kind.value if promo else None,
            "promo_value": promo.value if promo else 0,
            "promo_min_order_cents": promo.min_order_cents if promo else 0,
        }


@dataclass(frozen=True)
class OrderCharges:
    meal_net_cents: int = 0
    special_note_fees_cents: int = 0
    processing_fee_cents: int = 0
    tax_cents: int = 0
    discount_cents: int = 0
    school_donation_cents: int = 0
    additional_charge_cents: int = 0
    total_pay_cents: int = 0
    total_refund_cents: int = 0


def compute_charges(
    lines: Sequence[LinePrice],
    rates: ChargeRates,
    promo: Promo | None = None,
    school_donation_cents: int = 0,
    additional_charge_cents: int = 0,
) -> OrderCharges:
    """The nine charges of an order; see the module docstring for bases and rounding."""
    if not _non_negative_int(school_donation_cents):
        raise DomainError("invalid_amount", field="school_donation")
    if not _non_negative_int(additional_charge_cents):
        raise DomainError("invalid_amount", field="additional_charge")
    if not lines:
        return OrderCharges()

    meal_net = sum(line.meal_cents for line in lines)
    note_fees = sum(line.special_note_fee_cents for line in lines)
    discount = promo.discount(meal_net) if promo is not None else 0
    goods = meal_net - discount + note_fees

    card_base = goods + school_donation_cents + additional_charge_cents
    processing_fee = 0
    if card_base > 0:
        processing_fee = (
            apply_bps(card_base, rates.processing_fee_bps) + rates.processing_fee_fixed_cents
        )
    tax = apply_bps(goods + processing_fee, rates.tax_bps)
    total = card_base + processing_fee + tax
    return OrderCharges(
        meal_net_cents=meal_net,
        special_note_fees_cents=note_fees,
        processing_fee_cents=processing_fee,
        tax_cents=tax,
        discount_cents=discount,
        school_donation_cents=school_donation_cents,
        additional_charge_cents=additional_charge_cents,
        total_pay_cents=total,
        total_refund_cents=0,
    )


def tax_label(tax_bps: int, lang: str) -> str:
    """The tax line's name with its rate, as an order stored it: "Tax (HST 13%)",
    "Taxe (TVH 13 %)"; a rate of 0 is plain "Tax"."""
    if tax_bps <= 0:
        return t("orderpay.charge_tax", lang)
    rate = f"{tax_bps / 100:g}"
    if normalize_lang(lang) == "fr":
        rate = rate.replace(".", ",") + "\u00a0%"
    else:
        rate += "%"
    return t("charge.tax_rate", lang, rate=rate)


def charge_label(name: str, key: str, tax_bps: int, lang: str) -> str:
    """A charge line's label: ``key``'s message, the tax line naming its rate."""
    return tax_label(tax_bps, lang) if name == "tax_cents" else t(key, lang)


def shown_cents(name: str, cents: int) -> int:
    """A charge as the parent reads it: the discount is money off, shown negative."""
    return -cents if name == "discount_cents" else cents
