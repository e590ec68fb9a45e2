"""What a payment pays for: one handler per purpose, registered by the module that owns it.

A payment row says what it is for (``Payment.purpose``, a ``domain.payment_states.Purpose``). When
the payment service records an outcome it calls that purpose's handler, in the same
transaction and under the payment's row lock:

- ``approved``: Converge confirmed the sale (whether the browser's Lightbox or the server's
  saved-card sale produced it, and whether confirmation or reconciliation found it);
- ``failed``: declined, refused or expired: nothing was charged;
- ``refunded``: a refund of the payment succeeded (void or return);
- ``refund_answered``: a refund's outcome was recorded (succeeded, failed or unknown): the
  order purposes queue the parent's refund e-mail there, so it is written once, with the
  state change that caused it.

Handlers change only what the payment is for (the order, the donation) and write no money:
payments and refunds are rows of their own, and what was paid or refunded is a sum over them
(``records.order_paid_cents``, ``records.order_refunded_cents``).

The payment service knows no purpose but its own card check: the handlers are defined by the
modules above it (``services/ordering/payment_purposes.py`` the order and order-change
payments, ``services/donations.py`` the donation) and registered with ``register`` by
``services/startup.register_payment_purposes``, which every entry point calls before it serves;
``missing_purposes`` says which are not.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

from sqlmodel import Session

from hotmeals.db.models import Payment, Refund
from hotmeals.domain.errors import DomainError
from hotmeals.domain.payment_states import Purpose


class PurposeHandler(ABC):
    """The effects of one purpose's payment outcomes on what it pays for."""

    purpose: ClassVar[Purpose]

    def reserved(self, session: Session, payment: Payment) -> None:
        """A new attempt was written (same transaction); most purposes have nothing to do."""
        return None

    @abstractmethod
    def approved(self, session: Session, payment: Payment) -> None: ...

    @abstractmethod
    def failed(self, session: Session, payment: Payment) -> None: ...

    @abstractmethod
    def refunded(self, session: Session, payment: Payment, refund: Refund) -> None: ...

    def refund_answered(
        self, session: Session, payment: Payment, refund: Refund, *, first: bool
    ) -> None:
        """``refund`` moved to SUCCEEDED, FAILED or UNKNOWN (same transaction, under the
        payment's lock: once per move). ``first``: Converge's own answer to the request, not
        a later reconciliation. Nothing to do by default."""
        return None

    def still_owed(self, session: Session, payment: Payment, refund: Refund) -> int:
        """How much of the FAILED ``refund`` is still owed, under the payment's lock, before
        it is sent again. By default all of it (the payment's own refundable sum caps it
        anyway)."""
        return refund.amount_cents


_handlers: dict[Purpose, PurposeHandler] = {}
HANDLERS: Mapping[Purpose, PurposeHandler] = MappingProxyType(_handlers)
"""The registered handlers by purpose (read-only view)."""


def register(handler: PurposeHandler) -> PurposeHandler:
    """Make ``handler`` the one for its purpose. Registering the same class again (a module
    imported twice under two names) replaces it; a different class for a registered purpose
    is a programming error."""
    current = _handlers.get(handler.purpose)
    if current is not None and type(current) is not type(handler):
        raise RuntimeError(
            f"purpose {handler.purpose} already has handler {type(current).__name__}"
        )
    _handlers[handler.purpose] = handler
    return handler


def missing_purposes() -> set[Purpose]:
    """The purposes no module has registered a handler for (empty once the app is loaded)."""
    return set(Purpose) - set(_handlers)


def handler_for(purpose: str) -> PurposeHandler:
    handler = _handlers.get(Purpose(purpose))
    if handler is None:
        raise RuntimeError(
            f"no handler registered for payment purpose {purpose!r} "
            "(each entry point calls services.startup.register_payment_purposes)"
        )
    return handler


class CardCheck(PurposeHandler):
    """A card verified or saved with no money moving: nothing is bought, nothing refunded."""

    purpose = Purpose.CARD_CHECK

    def approved(self, session: Session, payment: Payment) -> None:
        if payment.amount_cents:
            raise DomainError("payment_purpose_invalid")

    def failed(self, session: Session, payment: Payment) -> None:
        return None

    def refunded(self, session: Session, payment: Payment, refund: Refund) -> None:
        raise DomainError("refund_exceeds_paid", refundable_cents=0)
