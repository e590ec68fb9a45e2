"""The payment service on a real, migrated database (SQLite and PostgreSQL) against the
simulator over HTTP: hosted payments confirmed by txnquery, concurrent confirmations, time-outs
reconciled into exactly one charge, declines recorded with their message."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from sqlalchemy.engine import Engine

from hotmeals.clock import now as utcnow
from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import session_scope
from hotmeals.db.models import Donation, Payment
from hotmeals.domain.errors import DomainError
from hotmeals.services import cards, donations, payments
from hotmeals.services.runtime import Runtime
from tests.payments_support import (
    DECLINED_CARD,
    SHORT,
    VISA,
    SimServer,
    all_at_once,
    audit_kinds,
    in_new_loop,
    lightbox_submit,
    payment_row,
    reserve_donation_payment,
    sim_txns,
)


async def start(engine: Engine, gateway: ConvergeClient, family: dict, cents: int = 1000):
    return await donations.start_donation(
        parent_id=family["parent_id"], amount=cents, runtime=Runtime(engine=engine, gateway=gateway)
    )


async def test_a_hosted_payment_counts_only_once_txnquery_confirms_it(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    session = await start(pay_engine, gateway, family, 1250)
    assert session.token and session.lightbox_url.endswith("/hosted-payments/PayWithConverge.js")
    assert len(session.invoice_number) <= 25 and session.invoice_number.startswith("HMD-")
    assert payment_row(pay_engine, session.payment_id).state == "CREATED"

    answer = lightbox_submit(live_sim, session.token)
    assert answer["outcome"] == "approval"
    view = await payments.confirm_payment(
        payment_id=session.payment_id,
        txn_id=answer["response"]["ssl_txn_id"],
        parent_id=family["parent_id"],
        runtime=Runtime(engine=pay_engine, gateway=gateway),
    )
    assert view.state == "APPROVED" and view.verified and view.amount_cents == 1250
    assert view.card_masked == "40**********0002" and view.card_brand == "VISA"
    assert view.refundable_cents == 1250
    row = payment_row(pay_engine, session.payment_id)
    assert row.verified_at is not None and row.converge_txn_id == answer["response"]["ssl_txn_id"]
    with session_scope(pay_engine) as db:
        assert db.get(Donation, row.donation_id).status == "PAID"
    assert audit_kinds(pay_engine, "payment", session.payment_id) == [
        "payment.created",
        "payment.approved",
    ]


async def test_invoice_numbers_are_unique_per_charge(
    pay_engine: Engine, gateway: ConvergeClient, family: dict
) -> None:
    sessions = [await start(pay_engine, gateway, family) for _ in range(5)]
    invoices = {s.invoice_number for s in sessions}
    assert len(invoices) == 5 and all(len(i) <= 25 for i in invoices)


async def test_an_approval_of_another_payment_does_not_confirm_this_one(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    mine = await start(pay_engine, gateway, family, 1000)
    other = await start(pay_engine, gateway, family, 1000)  # same amount, other invoice
    answer = lightbox_submit(live_sim, other.token)
    with pytest.raises(DomainError) as info:
        await payments.confirm_payment(
            payment_id=mine.payment_id,
            txn_id=answer["response"]["ssl_txn_id"],
            runtime=runtime,
        )
    assert info.value.code == "payment_not_verified"
    assert payment_row(pay_engine, mine.payment_id).state == "CREATED"
    assert "payment.verification_failed" in audit_kinds(pay_engine, "payment", mine.payment_id)
    for bogus in ("", "not a txn", "x" * 200, "010101AD3-0000"):
        with pytest.raises(DomainError):
            await payments.confirm_payment(
                payment_id=mine.payment_id, txn_id=bogus, runtime=runtime
            )


async def test_another_parent_cannot_confirm_or_see_the_payment(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    session = await start(pay_engine, gateway, family)
    answer = lightbox_submit(live_sim, session.token)
    with pytest.raises(DomainError) as info:
        await payments.confirm_payment(
            payment_id=session.payment_id,
            txn_id=answer["response"]["ssl_txn_id"],
            parent_id=family["parent_id"] + 999,
            runtime=Runtime(engine=pay_engine, gateway=gateway),
        )
    assert info.value.code == "payment_not_found"


@pytest.mark.timeout(120)
def test_twenty_concurrent_confirmations_of_one_approval_record_one_payment(
    pay_engine: Engine, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine)
    session = in_new_loop(
        live_sim,
        donations.start_donation,
        parent_id=family["parent_id"],
        amount=2000,
        runtime=runtime,
    )
    txn_id = lightbox_submit(live_sim, session.token)["response"]["ssl_txn_id"]

    results = all_at_once(
        20,
        lambda: in_new_loop(
            live_sim,
            payments.confirm_payment,
            payment_id=session.payment_id,
            txn_id=txn_id,
            parent_id=family["parent_id"],
            runtime=runtime,
        ),
    )
    assert all(isinstance(r, payments.PaymentView) for r in results), results
    assert {(r.state, r.txn_id) for r in results} == {("APPROVED", txn_id)}
    with session_scope(pay_engine) as db:
        rows = db.exec(Payment.__table__.select().where(Payment.converge_txn_id == txn_id)).all()
        assert len(rows) == 1
        assert db.get(Donation, rows[0].donation_id).status == "PAID"
    kinds = audit_kinds(pay_engine, "payment", session.payment_id)
    assert kinds.count("payment.approved") == 1
    assert len(sim_txns(live_sim, session.invoice_number, "SALE")) == 1


async def test_a_lost_confirmation_is_reconciled_into_one_charge(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    session = await start(pay_engine, gateway, family, 1500)
    txn_id = lightbox_submit(live_sim, session.token)["response"]["ssl_txn_id"]
    live_sim.control("fault", kind="no_answer", scope="xml")
    async with ConvergeClient(live_sim.settings, timeout=SHORT) as impatient:
        view = await payments.confirm_payment(
            payment_id=session.payment_id,
            txn_id=txn_id,
            runtime=Runtime(engine=pay_engine, gateway=impatient),
        )
    assert view.state == "UNKNOWN" and view.refundable_cents == 0

    view = await payments.reconcile_payment(payment_id=session.payment_id, runtime=runtime)
    assert view.state == "APPROVED" and view.txn_id == txn_id
    # The browser's retry after the reconciliation changes nothing.
    again = await payments.confirm_payment(
        payment_id=session.payment_id, txn_id=txn_id, runtime=runtime
    )
    assert again.state == "APPROVED"
    assert len(sim_txns(live_sim, session.invoice_number, "SALE")) == 1
    kinds = audit_kinds(pay_engine, "payment", session.payment_id)
    assert kinds == ["payment.created", "payment.unknown", "payment.approved"]


async def saved_card(engine: Engine, gateway: ConvergeClient, sim: SimServer, family: dict):
    runtime = Runtime(engine=engine, gateway=gateway)
    add = await cards.start_add_card(parent_id=family["parent_id"], runtime=runtime)
    answer = lightbox_submit(sim, add.token)
    return await cards.save_card(
        parent_id=family["parent_id"],
        token=answer["response"]["ssl_token"],
        runtime=runtime,
    )


async def reserve(engine: Engine, family: dict, cents: int) -> Payment:
    with session_scope(engine) as db:
        return reserve_donation_payment(db, parent_id=family["parent_id"], amount_cents=cents)


async def test_a_timed_out_card_sale_is_reconciled_never_retried(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    card = await saved_card(pay_engine, gateway, live_sim, family)
    payment = await reserve(pay_engine, family, 2500)
    # Converge charges the card, then the answer is lost on the way back.
    live_sim.control("fault", kind="lost_answer", scope="xml")
    async with ConvergeClient(live_sim.settings, timeout=SHORT) as impatient:
        view = await payments.charge_stored_card(
            payment_id=payment.id,
            parent_id=family["parent_id"],
            card_id=card.id,
            runtime=Runtime(engine=pay_engine, gateway=impatient),
        )
    assert view.state == "UNKNOWN"
    # A second click is not a second charge.
    with pytest.raises(DomainError) as info:
        await payments.charge_stored_card(
            payment_id=payment.id,
            parent_id=family["parent_id"],
            card_id=card.id,
            runtime=runtime,
        )
    assert info.value.code == "payment_not_open"
    view = await payments.reconcile_payment(payment_id=payment.id, runtime=runtime)
    assert view.state == "APPROVED" and view.verified
    assert len(sim_txns(live_sim, payment.invoice_number, "SALE")) == 1


async def test_a_sale_that_never_reached_converge_expires_and_a_new_attempt_charges_once(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    card = await saved_card(pay_engine, gateway, live_sim, family)
    first = await reserve(pay_engine, family, 3000)
    live_sim.control("fault", kind="no_answer", scope="xml")
    async with ConvergeClient(live_sim.settings, timeout=SHORT) as impatient:
        view = await payments.charge_stored_card(
            payment_id=first.id,
            parent_id=family["parent_id"],
            card_id=card.id,
            runtime=Runtime(engine=pay_engine, gateway=impatient),
        )
    assert view.state == "UNKNOWN"
    # Too early to tell: the attempt stays open.
    view = await payments.reconcile_payment(payment_id=first.id, runtime=runtime)
    assert view.state == "UNKNOWN"
    later = utcnow() + payments.SESSION_WINDOW + timedelta(minutes=1)
    view = await payments.reconcile_payment(
        payment_id=first.id, runtime=replace(runtime, clock=lambda: later)
    )
    assert view.state == "EXPIRED"

    second = await reserve(pay_engine, family, 3000)
    view = await payments.charge_stored_card(
        payment_id=second.id,
        parent_id=family["parent_id"],
        card_id=card.id,
        runtime=runtime,
    )
    assert view.state == "APPROVED"
    sales = [t for t in sim_txns(live_sim, kind="SALE") if t["amount_cents"] == 3000]
    assert [t["invoice_number"] for t in sales] == [second.invoice_number]


@pytest.mark.timeout(120)
def test_concurrent_charges_of_one_payment_charge_the_card_once(
    pay_engine: Engine, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine)
    card = in_new_loop(live_sim, _saved_card_sync, runtime=runtime, sim=live_sim, family=family)
    payment = _reserve_sync(pay_engine, family, 4200)
    results = all_at_once(
        10,
        lambda: in_new_loop(
            live_sim,
            payments.charge_stored_card,
            payment_id=payment.id,
            parent_id=family["parent_id"],
            card_id=card.id,
            runtime=runtime,
        ),
    )
    approved = [r for r in results if isinstance(r, payments.PaymentView)]
    refused = [r for r in results if isinstance(r, DomainError)]
    assert len(approved) == 1 and approved[0].state == "APPROVED"
    assert len(refused) == 9 and {e.code for e in refused} == {"payment_not_open"}
    assert len(sim_txns(live_sim, payment.invoice_number, "SALE")) == 1


async def _saved_card_sync(*, runtime, sim, family):
    return await saved_card(runtime.engine, runtime.gateway, sim, family)


def _reserve_sync(engine: Engine, family: dict, cents: int) -> Payment:
    with session_scope(engine) as db:
        return reserve_donation_payment(db, parent_id=family["parent_id"], amount_cents=cents)


async def test_a_decline_is_recorded_with_its_message(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    session = await start(pay_engine, gateway, family, 1000)
    answer = lightbox_submit(live_sim, session.token, number=DECLINED_CARD)
    assert answer["outcome"] == "declined"
    with session_scope(pay_engine) as db:
        view = payments.record_decline(
            db,
            payment_id=session.payment_id,
            message=answer["response"]["ssl_result_message"],
            parent_id=family["parent_id"],
        )
    assert view.state == "DECLINED" and view.result_message == "DECLINED"
    row = payment_row(pay_engine, session.payment_id)
    with session_scope(pay_engine) as db:
        assert db.get(Donation, row.donation_id).status == "FAILED"
    assert "payment.declined" in audit_kinds(pay_engine, "payment", session.payment_id)


async def test_a_declined_saved_card_sale_keeps_the_message(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    card = await saved_card(pay_engine, gateway, live_sim, family)
    live_sim.control("config", decline_by_cents="1")
    payment = await reserve(pay_engine, family, 1059)  # .59: DECLINED by the test host rule
    view = await payments.charge_stored_card(
        payment_id=payment.id,
        parent_id=family["parent_id"],
        card_id=card.id,
        runtime=runtime,
    )
    assert view.state == "DECLINED" and view.result_message == "DECLINED"
    payment = await reserve(pay_engine, family, 1096)  # .96: errorCode 3000, nothing charged
    view = await payments.charge_stored_card(
        payment_id=payment.id,
        parent_id=family["parent_id"],
        card_id=card.id,
        runtime=runtime,
    )
    assert view.state == "ERROR" and view.result_message.startswith("3000")


async def test_a_refused_session_token_closes_the_attempt(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    live_sim.control("fault", kind="http_500", scope="token")
    with pytest.raises(DomainError) as info:
        await start(pay_engine, gateway, family)
    assert info.value.code == "payment_unavailable"
    with session_scope(pay_engine) as db:
        last = db.exec(Payment.__table__.select().order_by(Payment.id.desc())).first()
    assert last.state == "ERROR"


async def test_an_unpaid_hosted_session_expires_after_the_window(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    session = await start(pay_engine, gateway, family)
    view = await payments.reconcile_payment(payment_id=session.payment_id, runtime=runtime)
    assert view.state == "CREATED"
    later = utcnow() + payments.SESSION_WINDOW + timedelta(seconds=1)
    view = await payments.reconcile_payment(
        payment_id=session.payment_id, runtime=replace(runtime, clock=lambda: later)
    )
    assert view.state == "EXPIRED"
    assert VISA  # the card never reached Converge


async def test_the_periodic_job_settles_lost_confirmations_and_abandoned_sessions(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    paid = await start(pay_engine, gateway, family, 3300)  # paid, but the browser never said so
    lightbox_submit(live_sim, paid.token)
    abandoned = await start(pay_engine, gateway, family, 3400)
    fresh_now = await payments.reconcile_open_payments(runtime=runtime)
    assert paid.payment_id not in {v.id for v in fresh_now}  # the session may still be in use

    later = utcnow() + payments.SESSION_WINDOW + timedelta(minutes=1)
    views = await payments.reconcile_open_payments(runtime=replace(runtime, clock=lambda: later))
    states = {v.id: v.state for v in views}
    assert states[paid.payment_id] == "APPROVED"
    assert states[abandoned.payment_id] == "EXPIRED"
    assert payment_row(pay_engine, paid.payment_id).verified_at is not None


async def test_the_periodic_job_settles_a_refund_whose_answer_was_lost(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    session = await start(pay_engine, gateway, family, 2800)
    txn_id = lightbox_submit(live_sim, session.token)["response"]["ssl_txn_id"]
    await payments.confirm_payment(payment_id=session.payment_id, txn_id=txn_id, runtime=runtime)
    live_sim.control("fault", kind="lost_answer", scope="xml")
    async with ConvergeClient(live_sim.settings, timeout=SHORT) as impatient:
        result = await payments.refund(
            payment_id=session.payment_id,
            amount_cents=800,
            runtime=Runtime(engine=pay_engine, gateway=impatient),
        )
    assert result.pending_cents == 800 and result.refunds[0].state == "UNKNOWN"
    later = utcnow() + timedelta(minutes=5)
    views = await payments.reconcile_open_refunds(runtime=replace(runtime, clock=lambda: later))
    mine = [v for v in views if v.payment_id == session.payment_id]
    assert [v.state for v in mine] == ["SUCCEEDED"] and mine[0].txn_id
    with session_scope(pay_engine) as db:
        view = payments.get_payment_view(db, payment_id=session.payment_id)
    assert (view.refunded_cents, view.refundable_cents) == (800, 2000)
