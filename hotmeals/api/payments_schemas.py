"""Request and answer payloads of the card payment, saved card and donation calls
(``api/payments.py``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, Field, model_validator

from hotmeals.api.account_schemas import In
from hotmeals.api.deps import (
    Id,
    ShortText,
    examples,
)
from hotmeals.domain.errors import DomainError


class SessionTokenIn(In):
    model_config = examples(
        {"purpose": "order", "promo_code": "WELCOME10", "donation_cents": 500},
        {"purpose": "order", "card_id": 2},
        {"purpose": "donation", "amount": "10.00", "school_id": 1, "save_card": True},
    )

    @model_validator(mode="before")
    @classmethod
    def _one_unit(cls, data: Any) -> Any:
        """Money has one unit per field: ``donation_cents`` is cents, as in the
        summary calls; ``donation`` and ``amount`` are text in dollars. A bare number in a
        dollars field (a client sending the summary's 500 meant $5.00, not $500) is refused,
        and so are two donations that disagree."""
        if not isinstance(data, dict):
            return data
        for name in ("donation", "amount"):
            value = data.get(name)
            if isinstance(value, int | float) and not isinstance(value, bool):
                raise DomainError("money_unit_ambiguous", field=name, name=name)
        cents, dollars = data.get("donation_cents"), data.get("donation")
        if cents not in (None, "") and dollars not in (None, ""):
            raise DomainError("money_unit_ambiguous", field="donation", name="donation")
        return data

    purpose: Literal["donation", "order"] | None = Field(
        default=None,
        description="What is paid: 'order' (the parent's cart, priced on the server) or "
        "'donation'.",
    )
    amount: ShortText | None = Field(
        default=None, description="Donation amount in dollars, '10.00' ($1 to $500)."
    )
    school_id: Id | None = Field(
        default=None,
        description="A school of one of the parent's children (default: the "
        "default child's school).",
    )
    save_card: bool | None = Field(
        default=False, description="Pre-tick 'save this card' in the Lightbox."
    )
    promo_code: ShortText | None = Field(
        default=None, description="order: a promo code (check_promocode); none by default."
    )
    donation_cents: int | None = Field(
        default=None,
        ge=0,
        le=10_000_000,
        validation_alias=AliasChoices("donation_cents", "school_donation_cents"),
        description="order: an optional school donation added to the order, in cents as in "
        "CheckOrderSummary (500 is $5.00; 100 to 50000).",
    )
    donation: ShortText | None = Field(
        default=None,
        description="order: the same donation as text in dollars, '5.00' (older clients; "
        "prefer donation_cents). A number here is refused: send cents as donation_cents.",
    )
    card_id: Id | None = Field(
        default=None,
        description="order: charge this saved card (GetCards) at once instead of opening the "
        "Lightbox; the answer then says what happened.",
    )
    use_credit: bool = Field(
        default=True,
        description="order: family credit pays first (all of it: placed at once, no card; "
        "part: the card pays the rest). false: the card pays everything.",
    )


class SavedCardPayIn(SessionTokenIn):
    card_id: Id | None = Field(default=None, description="A saved card (GetCards).")


class ConfirmIn(In):
    payment_id: Id | None = None
    ssl_txn_id: ShortText | None = Field(
        default=None, description="From the Lightbox's onApproval."
    )
    ssl_token: ShortText | None = Field(
        default=None, description="From onApproval when the payer ticked 'save card'."
    )


class DeclinedIn(In):
    payment_id: Id | None = None
    ssl_result_message: ShortText | None = Field(
        default=None, description="From the Lightbox's onDeclined, e.g. 'DECLINED'."
    )


class SaveCardIn(In):
    ssl_token: ShortText | None = Field(default=None, description="From the add-card Lightbox.")


class CardIdIn(In):
    card_id: Id | None = None


class SessionOut(BaseModel):
    payment_id: int
    ssl_txn_auth_token: str = Field(description="Give it to PayWithConverge.open().")
    lightbox_url: str = Field(description="The PayWithConverge.js script to load.")
    amount: str
    amount_cents: int
    invoice_number: str
    purpose: str
    order_id: int | None = Field(default=None, description="order: the order being paid.")
    order_number: str | None = Field(default=None, description="order: e.g. HM-000123.")
    status: str | None = Field(
        default=None,
        description="order with card_id: placed, declined, pending (being confirmed) or "
        "voided; null when the Lightbox is to be opened. placed at once, with no token, when "
        "family credit pays the whole order.",
    )
    credit_cents: int = Field(
        default=0,
        description="order: what family credit pays (spent when the order is placed); "
        "amount_cents is then what the card pays.",
    )


class PaymentOut(BaseModel):
    id: int
    purpose: str
    state: str = Field(description="CREATED, UNKNOWN, APPROVED, DECLINED, ERROR or EXPIRED.")
    amount: str
    amount_cents: int
    invoice_number: str
    card_brand: str | None
    card_masked: str | None
    approval_code: str | None
    result_message: str | None
    verified: bool
    refunded_cents: int
    refundable_cents: int
    created_at: str
    card: dict | None = None


class CardOut(BaseModel):
    id: int
    brand: str
    masked: str
    last4: str
    expiry: str
    created_at: str


class AddCardOut(BaseModel):
    ssl_txn_auth_token: str
    lightbox_url: str
    transaction_type: str


class DonationOut(BaseModel):
    id: int
    amount: str
    amount_cents: int
    amount_display: str
    school_id: int | None
    school: str
    status: str
    date: str
    card: str
