"""The price of one order line: tiered unit price, surcharges, and the special-note fee.

A portion (small, or large = "1 portion + upgrade") has price tiers; the unit price for a
quantity is the tier with the greatest ``min_quantity`` not above it, so ordering more can lower
the unit price. Menu- and meal-option surcharges and add-ons are per meal and multiply with the
quantity.

Special-note fee: $1 per message, and a line carries at most one message: a line whose note is
not blank pays ``SPECIAL_NOTE_FEE_CENTS`` once, whatever its quantity, because the message is
printed on that line's labels. Cancelling part of a line keeps its fee; cancelling the whole line
drops it.

All amounts are integer cents.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.i18n import t

MEAL_PRICE_MIN_CENTS = 500
"""Meals start at $5 per portion."""
MEAL_PRICE_MAX_CENTS = 725
"""The upsized portion costs at most $7.25."""
SPECIAL_NOTE_FEE_CENTS = 100
"""$1 per special message, printed with the label."""
SCHOOL_GIVEBACK_CENTS = 50
"""Of each meal, $0.50 goes to the school community."""
NUTRITION_GIVEBACK_CENTS = 20
"""Of each meal, $0.20 goes to local children's nutrition programs."""

MIN_QUANTITY = 1
MAX_QUANTITY = 50


class PortionSize(StrEnum):
    SMALL = "small"  # "1 portion"
    LARGE = "large"  # "1 portion + upgrade"

    @property
    def label_key(self) -> str:
        return f"portion_{self.value}"


@dataclass(frozen=True)
class PriceTier:
    min_quantity: int
    unit_price_cents: int


@dataclass(frozen=True)
class Portion:
    size: PortionSize
    tiers: tuple[PriceTier, ...]


@dataclass(frozen=True)
class LineInput:
    """What the parent chose for one line; surcharges are per meal. For a line already sold,
    every price is the one stored on the order line (``special_note_fee_cents`` included), so
    re-pricing it never reads today's catalogue."""

    portion_tiers: Sequence[PriceTier]
    quantity: int
    option_cents: Sequence[int] = field(default_factory=tuple)
    addon_cents: Sequence[int] = field(default_factory=tuple)
    special_note: str | None = None
    special_note_fee_cents: int = SPECIAL_NOTE_FEE_CENTS


@dataclass(frozen=True)
class LinePrice:
    unit_cents: int
    """The tier price of one meal, before surcharges."""
    meal_cents: int
    """(unit + option surcharges + add-ons) * quantity."""
    special_note_fee_cents: int
    total_cents: int
    """meal_cents + special_note_fee_cents."""


def validate_quantity(quantity: object) -> int:
    """A line's quantity, 1 to 50, else ``DomainError("invalid_quantity")``."""
    if (
        not isinstance(quantity, int)
        or isinstance(quantity, bool)
        or not MIN_QUANTITY <= quantity <= MAX_QUANTITY
    ):
        raise DomainError("invalid_quantity", field="quantity", min=MIN_QUANTITY, max=MAX_QUANTITY)
    return quantity


def validate_tiers(tiers: Sequence[PriceTier]) -> None:
    """A vendor's tiers: one starting at quantity 1, distinct steps, prices from $5 to $7.25."""
    if not tiers:
        raise DomainError("invalid_price_tiers", field="tiers")
    steps = [tier.min_quantity for tier in tiers]
    if len(set(steps)) != len(steps) or min(steps) != MIN_QUANTITY:
        raise DomainError("invalid_price_tiers", field="tiers")
    for tier in tiers:
        if not MEAL_PRICE_MIN_CENTS <= tier.unit_price_cents <= MEAL_PRICE_MAX_CENTS:
            # The message states $5.00 and $7.25 in each language's format (tested).
            raise DomainError("price_out_of_range", field="tiers")


def unit_price(tiers: Sequence[PriceTier], quantity: int) -> int:
    """The unit price of the tier with the greatest ``min_quantity <= quantity``."""
    best: PriceTier | None = None
    for tier in tiers:
        if tier.min_quantity <= quantity and (
            best is None or tier.min_quantity > best.min_quantity
        ):
            best = tier
    if best is None:
        raise DomainError("price_unavailable", field="quantity")
    return best.unit_price_cents


def has_special_note(note: str | None) -> bool:
    return bool(note and note.strip())


def _surcharges(amounts: Sequence[int], name: str) -> int:
    for cents in amounts:
        if not isinstance(cents, int) or isinstance(cents, bool) or cents < 0:
            raise DomainError("invalid_amount", field=name)
    return sum(amounts)


def price_line(line: LineInput) -> LinePrice:
    """Price one line; raises ``invalid_quantity`` outside 1..50."""
    quantity = validate_quantity(line.quantity)
    unit = unit_price(line.portion_tiers, quantity)
    per_meal = (
        unit
        + _surcharges(line.option_cents, "option_cents")
        + _surcharges(line.addon_cents, "addon_cents")
    )
    meal_cents = per_meal * quantity
    fee = (
        _surcharges((line.special_note_fee_cents,), "special_note_fee_cents")
        if has_special_note(line.special_note)
        else 0
    )
    return LinePrice(
        unit_cents=unit,
        meal_cents=meal_cents,
        special_note_fee_cents=fee,
        total_cents=meal_cents + fee,
    )


def tiers_to_text(tiers: Sequence[PriceTier]) -> str:
    """``"1:650,10:600"``: the tiers as an order line stores them (min quantity:unit cents)."""
    return ",".join(
        f"{t.min_quantity}:{t.unit_price_cents}"
        for t in sorted(tiers, key=lambda t: t.min_quantity)
    )


def tiers_from_text(text: str) -> tuple[PriceTier, ...]:
    """The tiers stored by ``tiers_to_text``; ``ValueError`` for anything else."""
    tiers = []
    for part in (text or "").split(","):
        quantity, _, cents = part.partition(":")
        if not quantity.strip().isdigit() or not cents.strip().isdigit():
            raise ValueError(f"not a stored price tier: {part!r}")
        tiers.append(PriceTier(int(quantity), int(cents)))
    return tuple(tiers)


def giveback(meal_count: int) -> tuple[int, int]:
    """(school community cents, nutrition program cents) for ``meal_count`` meals."""
    if not isinstance(meal_count, int) or isinstance(meal_count, bool) or meal_count < 0:
        raise ValueError("meal_count must be a non-negative int")
    return meal_count * SCHOOL_GIVEBACK_CENTS, meal_count * NUTRITION_GIVEBACK_CENTS


def giveback_summary(meal_count: int, lang: str) -> dict:
    """What ``meal_count`` meals give back, as the cart and the confirmation show it: the
    cents of each share and the sentence naming them."""
    school, nutrition = giveback(meal_count)
    return {
        "school_cents": school,
        "nutrition_cents": nutrition,
        "message": t(
            "giveback_line",
            lang,
            school=format_money(school, lang),
            nutrition=format_money(nutrition, lang),
        ),
    }
