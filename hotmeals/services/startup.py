"""What every process does once, before it serves a call: register each payment purpose's
handler with the payment service.

The payment service (``services/payments/purposes.py``) keeps the registry and knows none of
the modules above it; this is the one place that names them all, called explicitly by each
entry point: the /api/v1 app (``api.app.create_api``, which the Reflex app mounts, so the
screens, the API and the in-app job rounds have them), ``python -m hotmeals.jobs``,
``python -m hotmeals.cli`` and ``python -m hotmeals.admin``; the tests call it in
``tests/conftest.py``. ``tests/unit/test_startup.py`` checks that importing the services
registers nothing and that each entry point registers every purpose.
"""

from __future__ import annotations

from hotmeals.services.donations import DonationPayment
from hotmeals.services.ordering.payment_purposes import OrderChangePayment, OrderPayment
from hotmeals.services.payments.purposes import CardCheck, missing_purposes, register


def register_payment_purposes() -> None:
    """Every purpose's handler registered (again: the same handlers, so calling it twice is
    harmless); ``RuntimeError`` if a purpose is left without one."""
    for handler in (CardCheck(), OrderPayment(), OrderChangePayment(), DonationPayment()):
        register(handler)
    missing = missing_purposes()
    if missing:
        raise RuntimeError(f"payment purposes without a handler: {sorted(missing)}")
