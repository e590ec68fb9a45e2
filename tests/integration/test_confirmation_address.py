"""The confirmation's own address: ``confirmation.placed_order_confirmation`` shows a
paid order by its number to its parent only, on SQLite and PostgreSQL; an order still being
paid, another parent's and an unknown number all answer ``payment_order_not_found``."""

# ruff: noqa: F811 - the checkout tests' shop fixture is imported from test_checkout.py

from __future__ import annotations

import pytest
from sqlalchemy.engine import Engine

from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import session_scope
from hotmeals.db.models import Child, Meal, Payment
from hotmeals.domain.errors import DomainError
from hotmeals.services.ordering import confirmation, queries
from tests import factories as f
from tests.integration.test_checkout import _complete, _start, add, shop  # noqa: F401 - fixture
from tests.payments_support import SimServer, lightbox_submit


def _refused(engine: Engine, parent_id: int, number: object) -> None:
    with session_scope(engine) as s:
        with pytest.raises(DomainError) as err:
            confirmation.placed_order_confirmation(s, parent_id=parent_id, number=number)
    assert err.value.code == "payment_order_not_found"


async def test_a_paid_order_is_shown_by_its_number_to_its_parent_only(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    add(pay_engine, shop)
    started = await _start(pay_engine, gateway, shop)
    # Opened but not paid yet: no confirmation at its address.
    _refused(pay_engine, shop["parent_id"], started.order_number)
    # The Lightbox shows the invoice: it starts with the order's number, so the parent can
    # match the two, and stays one per attempt (Converge has no idempotency key).
    with session_scope(pay_engine) as s:
        invoice = s.get(Payment, started.payment_id).invoice_number
    assert invoice.startswith(started.order_number + "-") and len(invoice) <= 25
    txn = lightbox_submit(live_sim, started.hosted.token)["response"]["ssl_txn_id"]
    placed = await _complete(pay_engine, gateway, shop, started.payment_id, txn)
    assert placed.status == "placed"
    with session_scope(pay_engine) as s:
        shown = confirmation.placed_order_confirmation(
            s, parent_id=shop["parent_id"], number=started.order_number.lower(), lang="fr"
        )
        other = f.make_parent(s).id
    assert shown.number == started.order_number
    assert shown.order_id == started.order_id
    assert shown.total_pay_cents > 0 and shown.groups
    # The tax line names the rate the order stored.
    tax = next(c for c in shown.charge_lines if c.name == "tax_cents")
    assert tax.label == "Taxe (TVH 13\u00a0%)" and shown.tax_bps == 1300
    # The history card says whose meals and which, in one statement with the days.
    with session_scope(pay_engine) as s:
        history = queries.order_history(s, parent_id=shop["parent_id"], lang="en")
        kid = s.get(Child, shop["children"][0]).first_name
        meal = s.get(Meal, shop["meal_id"]).name_en
    card = next(o for o in history.orders if o.number == started.order_number)
    assert card.children == [kid] and card.meals == [meal]
    _refused(pay_engine, other, started.order_number)
    for bad in ("HM-999999", "", " ", "x" * 40, 12, None):
        _refused(pay_engine, shop["parent_id"], bad)


def test_each_attempt_at_an_order_has_its_own_invoice_starting_with_the_order_number() -> None:
    from hotmeals.services.payments.records import new_invoice_number

    made = {new_invoice_number("ORDER", order_number="HM-000123") for _ in range(50)}
    assert len(made) == 50 and all(n.startswith("HM-000123-") and len(n) <= 25 for n in made)
    # A number too long for Converge's 25 characters: the usual invoice instead.
    assert new_invoice_number("ORDER", order_number="HM-" + "9" * 17).startswith("HMO-")
    assert new_invoice_number("DONATION").startswith("HMD-")
