"""services/orders.py and services/cancellations.py on SQLite and PostgreSQL against
the simulator: history and detail, the cancel cart and its refund preview, cancel a whole order
(refunds everything: a void before settlement), cancel one meal (a return), repeat safety,
ownership, after-cut-off refusals in EN and FR, the e-mail, and the same cancel twice at once
refunding once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import select

from hotmeals import clock
from hotmeals.api.orders_present import history_out
from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import session_scope
from hotmeals.db.models import CancelCartLine, EmailOutbox, Order, OrderCancellation, Refund
from hotmeals.domain.errors import DomainError
from hotmeals.domain.payment_states import RefundState
from hotmeals.i18n import t
from hotmeals.jobs import payment_round
from hotmeals.services.ordering import queries
from hotmeals.services.ordering.cancelling import cancel_cart, cancel_order
from hotmeals.services.ordering.mails import cancel_notice
from hotmeals.services.runtime import Runtime
from tests import factories as f
from tests.mailparts import received
from tests.orders_support import monday_in, order_sums, paid_order, past_cutoff
from tests.payments_support import SimServer, all_at_once, in_new_loop

# One meal for each of the two children, on two Mondays.
TWO_MEALS = [{"child": 0, "weeks": 2, "quantity": 1}, {"child": 1, "weeks": 3, "quantity": 1}]


async def _cancel_meal(
    engine: Engine, gateway: ConvergeClient, shop: dict, line_id: int, key: str, **kw
) -> cancel_order.CancelResult:
    """``cancel_meal`` of one of the shop parent's meals, with the shop's reason."""
    return await cancel_order.cancel_meal(
        parent_id=shop["parent_id"],
        order_line_id=line_id,
        reason_id=shop["reason_id"],
        request_key=key,
        runtime=Runtime(engine=engine, gateway=gateway),
        **kw,
    )


async def test_history_detail_and_cancel_a_whole_order_refunds_everything(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    order_id, line_ids = await paid_order(
        pay_engine,
        gateway,
        live_sim,
        shop,
        [{"child": 0, "weeks": 2, "quantity": 2}, {"child": 1, "weeks": 3, "quantity": 1}],
    )
    pid = shop["parent_id"]
    with session_scope(pay_engine) as s:
        future = queries.order_history(s, parent_id=pid, tab="future", lang="fr")
        past = queries.order_history(s, parent_id=pid, tab="past")
        detail = queries.order_detail(s, parent_id=pid, order_id=order_id, lang="fr")
    assert [o.order_id for o in future.orders] == [order_id]
    assert future.orders[0].total_items == 3
    assert past.orders == [] and history_out(past, "en")["message"] == "No data found"
    assert [x.state for x in detail.lines] == ["active", "active"]
    assert detail.lines[0].size_label == "1 portion"
    assert detail.total_refund_cents == 0 and detail.refunds == []
    paid, _ = order_sums(pay_engine, order_id)

    result = await cancel_order.cancel_order(
        parent_id=pid,
        order_id=order_id,
        reason_id=shop["reason_id"],
        request_key="whole-1",
        lang="fr",
        runtime=runtime,
    )
    assert result.refund_cents == paid and result.refunded_cents == paid
    assert result.failed_cents == 0 and t("orders_after.cancelled", "fr") == "Commande annulée"
    notice = cancel_notice(paid, "fr", credit_cents=result.credit_cents, failed_cents=0)
    assert "remboursement" in notice
    assert order_sums(pay_engine, order_id) == (paid, paid)
    with session_scope(pay_engine) as s:
        order = s.get(Order, order_id)
        assert order.status == "cancelled"
        invoice = s.exec(select(Refund).where(Refund.order_id == order_id)).one()
        assert invoice.kind == "VOID" and invoice.cancellation_id == result.cancellation_ids[0]
        detail = queries.order_detail(s, parent_id=pid, order_id=order_id)
        mails = s.exec(select(EmailOutbox).where(EmailOutbox.kind == "order_cancelled")).all()
        future = queries.order_history(s, parent_id=pid, tab="future")
        past = queries.order_history(s, parent_id=pid, tab="past")
    assert [x.state for x in detail.lines] == ["cancelled", "cancelled"]
    assert detail.total_refund_cents == paid and len(detail.refunds) == 1
    assert future.orders == [] and [o.order_id for o in past.orders] == [order_id]
    assert any(order.number in m.subject for m in mails)

    again = await cancel_order.cancel_order(
        parent_id=pid,
        order_id=order_id,
        reason_id=shop["reason_id"],
        request_key="whole-1",
        runtime=runtime,
    )
    assert again.repeated and again.refund_cents == paid
    assert order_sums(pay_engine, order_id) == (paid, paid)
    with pytest.raises(DomainError) as info:
        await cancel_order.cancel_order(
            parent_id=pid,
            order_id=order_id,
            reason_id=shop["reason_id"],
            request_key="whole-2",
            runtime=runtime,
        )
    assert info.value.code == "cancel_order_not_cancellable"


async def test_cancel_cart_preview_confirm_and_cancel_meal_add_up_to_what_was_paid(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    order_id, (first, second) = await paid_order(
        pay_engine,
        gateway,
        live_sim,
        shop,
        [
            {"child": 0, "weeks": 2, "quantity": 2, "addons": [shop["addon_id"]]},
            {"child": 1, "weeks": 3, "quantity": 1, "special_note_text": "no onions"},
        ],
    )
    pid = shop["parent_id"]
    paid, _ = order_sums(pay_engine, order_id)
    with session_scope(pay_engine) as s:
        added = cancel_cart.add_to_cancel_cart(s, parent_id=pid, order_line_id=first, quantity=2)
        assert added.cancel_cart_count == 1
        with pytest.raises(DomainError) as info:
            cancel_cart.update_cancel_cart_quantity(
                s, parent_id=pid, cancel_cart_id=added.cancel_cart_id, quantity=3
            )
        assert info.value.code == "cancel_quantity_invalid"
        cancel_cart.update_cancel_cart_quantity(
            s, parent_id=pid, cancel_cart_id=added.cancel_cart_id, quantity=1
        )
        details = cancel_cart.cancel_cart_details(s, parent_id=pid)
        assert cancel_cart.cancel_cart_count(s, parent_id=pid) == 1
        # The meal is named in the parent's language, as on the order's details.
        detail_names = {
            lang: {
                line.order_line_id: line.meal_name
                for line in queries.order_detail(
                    s, parent_id=pid, order_id=order_id, lang=lang
                ).lines
            }
            for lang in ("en", "fr")
        }
        for lang in ("en", "fr"):
            shown = cancel_cart.cancel_cart_details(s, parent_id=pid, lang=lang)
            assert shown.orders[0].lines[0].meal_name == detail_names[lang][first]
        assert detail_names["en"][first] != detail_names["fr"][first]
    preview = details.total_refund_cents
    assert 0 < preview < paid and details.orders[0].lines[0].quantity == 1

    with pytest.raises(DomainError) as info:
        await cancel_cart.confirm_cancel_cart(
            parent_id=pid,
            reason_id=shop["other_id"],
            other_text="  ",
            request_key="cart-1",
            runtime=runtime,
        )
    assert info.value.code == "cancel_other_text_required"
    done = await cancel_cart.confirm_cancel_cart(
        parent_id=pid,
        reason_id=shop["other_id"],
        other_text="Field trip",
        request_key="cart-1",
        runtime=runtime,
    )
    assert done.refund_cents == preview == done.refunded_cents
    assert done.statuses == ["partially_cancelled"]
    repeat = await cancel_cart.confirm_cancel_cart(
        parent_id=pid,
        reason_id=shop["other_id"],
        other_text="Field trip",
        request_key="cart-1",
        runtime=runtime,
    )
    assert repeat.repeated and repeat.refund_cents == preview
    with session_scope(pay_engine) as s:
        assert s.exec(select(CancelCartLine).where(CancelCartLine.parent_id == pid)).all() == []
        row = s.exec(select(OrderCancellation).where(OrderCancellation.order_id == order_id)).one()
        assert row.other_text == "Field trip" and row.kind == "cart"

    meal = await _cancel_meal(pay_engine, gateway, shop, second, "meal-1")
    rest = await _cancel_meal(pay_engine, gateway, shop, first, "meal-2", quantity=1)
    assert rest.statuses == ["cancelled"]
    assert preview + meal.refund_cents + rest.refund_cents == paid
    assert order_sums(pay_engine, order_id) == (paid, paid)
    with session_scope(pay_engine) as s:
        kinds = [r.kind for r in s.exec(select(Refund).where(Refund.order_id == order_id))]
        invoice = s.get(Order, order_id)
    assert kinds == ["RETURN", "RETURN", "RETURN"]
    sale = next(
        t for t in live_sim.get("transactions") if t["kind"] == "SALE" and t["amount_cents"] == paid
    )
    assert sale["refunded_cents"] == paid and invoice.status == "cancelled"


async def test_another_parents_order_line_and_cancel_cart_are_not_found(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    order_id, (line_id,) = await paid_order(pay_engine, gateway, live_sim, shop)
    with session_scope(pay_engine) as s:
        mine = cancel_cart.add_to_cancel_cart(
            s, parent_id=shop["parent_id"], order_line_id=line_id, quantity=1
        )
        other = f.make_parent(s).id
    with session_scope(pay_engine) as s:
        for call, kw in (
            (queries.order_detail, {"order_id": order_id}),
            (cancel_cart.add_to_cancel_cart, {"order_line_id": line_id}),
            (
                cancel_cart.update_cancel_cart_quantity,
                {"cancel_cart_id": mine.cancel_cart_id, "quantity": 1},
            ),
            (cancel_cart.delete_cancel_cart_item, {"cancel_cart_id": mine.cancel_cart_id}),
        ):
            with pytest.raises(DomainError) as info:
                call(s, parent_id=other, **kw)
            assert info.value.message("en") == "No data found"
        assert queries.order_history(s, parent_id=other).orders == []
        assert cancel_cart.cancel_cart_details(s, parent_id=other).orders == []
    for call, kw in (
        (cancel_order.cancel_order, {"order_id": order_id}),
        (cancel_order.cancel_meal, {"order_line_id": line_id}),
    ):
        with pytest.raises(DomainError) as info:
            await call(
                parent_id=other,
                reason_id=shop["reason_id"],
                request_key="x",
                runtime=Runtime(engine=pay_engine, gateway=gateway),
                **kw,
            )
        assert info.value.message("fr") == "Aucune donnée trouvée"
    assert order_sums(pay_engine, order_id)[1] == 0


async def test_after_the_cutoff_a_cancel_is_refused_in_english_and_french(
    pay_engine: Engine,
    gateway: ConvergeClient,
    live_sim: SimServer,
    shop: dict,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    order_id, (line_id,) = await paid_order(pay_engine, gateway, live_sim, shop)
    with session_scope(pay_engine) as s:
        cancel_cart.add_to_cancel_cart(
            s, parent_id=shop["parent_id"], order_line_id=line_id, quantity=1
        )
    late = past_cutoff(monday_in(2)) + timedelta(minutes=1)
    clock.set_now(late)
    texts = {}
    for lang in ("en", "fr"):
        with pytest.raises(DomainError) as info:
            await _cancel_meal(pay_engine, gateway, shop, line_id, f"late-{lang}", lang=lang)
        texts[lang] = info.value.message(lang)
        with pytest.raises(DomainError) as info:
            await cancel_cart.confirm_cancel_cart(
                parent_id=shop["parent_id"],
                reason_id=shop["reason_id"],
                request_key=f"late-cart-{lang}",
                lang=lang,
                runtime=Runtime(engine=pay_engine, gateway=gateway),
            )
        assert info.value.code == "cancel_cart_line_blocked"
    assert "deadline" in texts["en"] and "date limite" in texts["fr"]
    with session_scope(pay_engine) as s:
        detail = queries.order_detail(s, parent_id=shop["parent_id"], order_id=order_id)
        with pytest.raises(DomainError):
            cancel_cart.add_to_cancel_cart(s, parent_id=shop["parent_id"], order_line_id=line_id)
    assert detail.lines[0].can_cancel is False
    assert order_sums(pay_engine, order_id)[1] == 0


async def test_the_same_cancel_twice_at_once_refunds_once(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    order_id, (line_id,) = await paid_order(pay_engine, gateway, live_sim, shop)
    paid, _ = order_sums(pay_engine, order_id)

    def cancel():
        return in_new_loop(
            live_sim,
            cancel_order.cancel_meal,
            parent_id=shop["parent_id"],
            order_line_id=line_id,
            quantity=1,
            reason_id=shop["reason_id"],
            request_key="twice",
            runtime=Runtime(engine=pay_engine),
        )

    results = all_at_once(2, cancel)
    assert not any(isinstance(r, Exception) for r in results), results
    assert sorted(r.repeated for r in results) == [False, True]
    with session_scope(pay_engine) as s:
        rows = s.exec(select(Refund).where(Refund.order_id == order_id)).all()
        cancels = s.exec(
            select(OrderCancellation).where(OrderCancellation.order_id == order_id)
        ).all()
    assert len(rows) == 1 and len(cancels) == 1 and rows[0].state == RefundState.SUCCEEDED
    assert 0 < rows[0].amount_cents < paid

    def other_key(key: str):
        return in_new_loop(
            live_sim,
            cancel_order.cancel_meal,
            parent_id=shop["parent_id"],
            order_line_id=line_id,
            reason_id=shop["reason_id"],
            request_key=key,
            runtime=Runtime(engine=pay_engine),
        )

    # Two different cancels of the rest at once: one refunds the rest, the other finds
    # nothing left to cancel.
    keys = iter(["a", "b"])
    outcomes = all_at_once(2, lambda: other_key(next(keys)))
    assert sum(isinstance(o, DomainError) for o in outcomes) == 1, outcomes
    assert order_sums(pay_engine, order_id) == (paid, paid)


async def test_a_refund_whose_answer_is_lost_is_found_by_the_reconciliation(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    from hotmeals.services import payments
    from tests.payments_support import SHORT

    order_id, (line_id,) = await paid_order(pay_engine, gateway, live_sim, shop)
    paid, _ = order_sums(pay_engine, order_id)
    live_sim.control("fault", kind="lost_answer")
    async with ConvergeClient(live_sim.settings, timeout=SHORT) as impatient:
        result = await _cancel_meal(pay_engine, impatient, shop, line_id, "lost-1", lang="fr")
    assert result.refund_cents == paid and result.pending_cents == paid
    assert result.refunded_cents == 0
    # A retry of the same cancel sends nothing more.
    again = await _cancel_meal(pay_engine, gateway, shop, line_id, "lost-1")
    assert again.repeated and again.refund_cents == paid
    # ... and answers what the first did: the refund is on its way (it answered 0 and 0 before).
    assert (again.pending_cents, again.refunded_cents) == (paid, 0)
    assert again.failed_cents == 0
    notice = cancel_notice(paid, "en", credit_cents=again.credit_cents, failed_cents=0)
    assert "refund of" in notice
    assert order_sums(pay_engine, order_id) == (paid, 0)
    with session_scope(pay_engine) as s:
        [row] = s.exec(select(Refund).where(Refund.order_id == order_id)).all()
    view = await payments.reconcile_refund(
        refund_id=row.id, runtime=Runtime(engine=pay_engine, gateway=gateway)
    )
    assert view.state == RefundState.SUCCEEDED
    assert order_sums(pay_engine, order_id) == (paid, paid)
    with session_scope(pay_engine) as s:
        detail = queries.order_detail(s, parent_id=shop["parent_id"], order_id=order_id)
    assert detail.total_refund_cents == paid


async def test_the_cancel_email_is_in_the_parents_language(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    from hotmeals.db.models import Parent

    order_id, (line_id,) = await paid_order(pay_engine, gateway, live_sim, shop)
    with session_scope(pay_engine) as s:
        parent = s.get(Parent, shop["parent_id"])
        parent.language = "fr"
        s.add(parent)
        number = s.get(Order, order_id).number
    result = await _cancel_meal(pay_engine, gateway, shop, line_id, "fr-mail", quantity=1)
    with session_scope(pay_engine) as s:
        mail = s.exec(
            select(EmailOutbox).where(EmailOutbox.subject == f"Commande annulée : {number}")
        ).one()
    assert mail.language == "fr" and "Repas test" in mail.body_text
    assert "Un remboursement de" in mail.body_text and "lundi" in mail.body_text
    assert result.refund_cents > 0


async def _fail_refund(engine: Engine, gateway: ConvergeClient, order_id: int) -> Refund:
    """The order's newest refund, sent while Converge answered 500 (nothing made), found not
    made by the reconciliation: FAILED."""
    from hotmeals.services import payments

    with session_scope(engine) as s:
        row = s.exec(
            select(Refund).where(Refund.order_id == order_id).order_by(Refund.id.desc())
        ).first()
    view = await payments.reconcile_refund(
        refund_id=row.id, window=timedelta(0), runtime=Runtime(engine=engine, gateway=gateway)
    )
    assert view.state == RefundState.FAILED
    with session_scope(engine) as s:
        return s.get(Refund, row.id)


def _later(minutes: float):
    from hotmeals.clock import now

    return now() + timedelta(minutes=minutes)


async def test_a_refund_converge_never_made_is_sent_again_by_the_periodic_job_once(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    from hotmeals.services import payments

    order_id, (first, second) = await paid_order(pay_engine, gateway, live_sim, shop, TWO_MEALS)
    paid, _ = order_sums(pay_engine, order_id)
    live_sim.control("fault", kind="http_500")
    result = await _cancel_meal(pay_engine, gateway, shop, first, "refused-1")
    owed = result.refund_cents
    assert 0 < owed < paid and result.refunded_cents == 0
    failed = await _fail_refund(pay_engine, gateway, order_id)
    assert failed.retry_at is not None and failed.attention_at is None
    await payment_round.reconcile_round(runtime=runtime)  # not due yet
    assert order_sums(pay_engine, order_id) == (paid, 0)
    [again] = await payments.resend_failed_refunds(runtime=runtime.at(_later(3)))
    assert again.state == RefundState.SUCCEEDED and again.amount_cents == owed
    assert order_sums(pay_engine, order_id) == (paid, owed)
    assert (
        await payments.resend_failed_refunds(runtime=Runtime(engine=pay_engine).at(_later(600)))
        == []
    )
    # The rest cancelled: exactly what was paid back in all, the failed attempt not counted.
    await _cancel_meal(pay_engine, gateway, shop, second, "rest")
    assert (
        await payments.resend_failed_refunds(runtime=Runtime(engine=pay_engine).at(_later(600)))
        == []
    )
    assert order_sums(pay_engine, order_id) == (paid, paid)
    sale = next(
        t
        for t in live_sim.get("transactions")
        if t["kind"] == "SALE" and t["amount_cents"] == paid and t["refunded_cents"] == paid
    )
    assert sale


async def test_a_failed_refund_stays_owed_and_is_not_credit_for_the_next_cancel(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    """The next cancel refunds its own meals only (before, it gave back the failed
    part too, and the failed refund was dropped); the failed one is sent again, once."""
    from hotmeals.services import payments

    order_id, (first, second) = await paid_order(pay_engine, gateway, live_sim, shop, TWO_MEALS)
    paid, _ = order_sums(pay_engine, order_id)
    live_sim.control("fault", kind="http_500")
    owed = (await _cancel_meal(pay_engine, gateway, shop, first, "refused-2")).refund_cents
    await _fail_refund(pay_engine, gateway, order_id)
    rest = await _cancel_meal(pay_engine, gateway, shop, second, "rest-2")
    assert rest.refund_cents == paid - owed
    assert order_sums(pay_engine, order_id) == (paid, paid - owed)
    with session_scope(pay_engine) as s:
        detail = queries.order_detail(s, parent_id=shop["parent_id"], order_id=order_id)
    delayed = [r for r in detail.refunds if r.state == "FAILED"]
    assert [r.amount_cents for r in delayed] == [owed]
    assert delayed[0].state_label == "Refund delayed: we are sending it again"
    [again] = await payments.resend_failed_refunds(
        runtime=Runtime(engine=pay_engine, gateway=gateway).at(_later(3))
    )
    assert again.amount_cents == owed and again.state == RefundState.SUCCEEDED
    assert order_sums(pay_engine, order_id) == (paid, paid)
    assert (
        await payments.resend_failed_refunds(runtime=Runtime(engine=pay_engine).at(_later(600)))
        == []
    )
    assert order_sums(pay_engine, order_id) == (paid, paid)


async def test_a_failed_refund_is_sent_again_with_backoff_then_flagged_and_the_parent_told(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    """Five tries over growing delays (stored on the rows), then a person is needed: the
    operator's list shows it, the order says 'delayed', the parent gets one 'delayed'
    e-mail, and no round sends anything more until the operator asks for a retry."""
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    from hotmeals.cli import main as cli_main
    from hotmeals.services import payments
    from hotmeals.services.payments.refunds import MAX_TRIES, RESEND_DELAYS

    order_id, (first, _second) = await paid_order(pay_engine, gateway, live_sim, shop, TWO_MEALS)
    pid = shop["parent_id"]
    paid, _ = order_sums(pay_engine, order_id)
    live_sim.control("fault", kind="http_500")
    owed = (await _cancel_meal(pay_engine, gateway, shop, first, "flag-1")).refund_cents
    row = await _fail_refund(pay_engine, gateway, order_id)
    elapsed = 0.0
    for attempt in range(2, MAX_TRIES + 1):
        delay = RESEND_DELAYS[attempt - 2].total_seconds() / 60
        # Not before its delay.
        assert (
            await payments.resend_failed_refunds(
                runtime=runtime.at(row.retry_at - timedelta(seconds=1))
            )
            == []
        )
        live_sim.control("fault", kind="http_500")
        [sent] = await payments.resend_failed_refunds(runtime=runtime.at(row.retry_at))
        assert sent.amount_cents == owed and sent.state != RefundState.SUCCEEDED
        elapsed += delay
        row = await _fail_refund(pay_engine, gateway, order_id)
        assert row.attempt == attempt and row.retry_of_id is not None
    assert row.attention_at is not None and row.retry_at is None
    assert elapsed >= 120  # hours of tries, not seconds
    assert (
        await payments.resend_failed_refunds(runtime=Runtime(engine=pay_engine).at(_later(24 * 60)))
        == []
    )
    with session_scope(pay_engine) as s:
        flagged = payments.refunds_needing_attention(s)
        detail = queries.order_detail(s, parent_id=pid, order_id=order_id, lang="fr")
        tries = s.exec(select(Refund).where(Refund.order_id == order_id)).all()
    assert [(r.refund_id, r.amount_cents, r.tries) for r in flagged] == [(row.id, owed, MAX_TRIES)]
    assert len(tries) == MAX_TRIES
    [shown] = [r for r in detail.refunds if r.state == "FAILED"]
    assert shown.state_label == "Remboursement retardé : notre équipe s'en occupe"
    [delayed] = _mails(pay_engine, pid, "refund_delayed")
    assert "is delayed" in delayed.body_text and "still owed" in delayed.body_text
    assert len(_mails(pay_engine, pid, "refund_processing")) == 1
    assert _mails(pay_engine, pid, "refund_made") == []
    assert order_sums(pay_engine, order_id) == (paid, 0)
    url = str(pay_engine.url.render_as_string(hide_password=False))
    assert cli_main(["--url", url, "refunds-needing-attention"]) == 1

    # The operator fixed the cause: one more try at the next round, which goes through.
    assert cli_main(["--url", url, "refund-retry", str(row.id)]) == 0
    [done] = await payments.resend_failed_refunds(runtime=runtime.at(_later(1)))
    assert done.state == RefundState.SUCCEEDED and done.amount_cents == owed
    assert order_sums(pay_engine, order_id) == (paid, owed)
    assert cli_main(["--url", url, "refunds-needing-attention"]) == 0
    assert len(_mails(pay_engine, pid, "refund_made")) == 1


def _mails(engine: Engine, parent_id: int, kind: str) -> list[EmailOutbox]:
    from hotmeals.db.models import Parent

    with session_scope(engine) as s:
        parent = s.get(Parent, parent_id)
        return list(
            s.exec(
                select(EmailOutbox)
                .where(EmailOutbox.to_address == parent.email, EmailOutbox.kind == kind)
                .order_by(EmailOutbox.id)
            ).all()
        )


async def test_the_refund_email_waits_for_converge_and_follows_the_refund_setting(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    """The cancel e-mail says what refund is due; the refund e-mail goes out once Converge
    approved it, with the amount, once (the periodic job run twice adds none); with the
    parent's 'refund' notification off, the cancel is still confirmed and no refund e-mail
    is sent."""
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    from hotmeals.domain.money import format_money
    from hotmeals.services import notifications

    order_id, (first, second) = await paid_order(pay_engine, gateway, live_sim, shop, TWO_MEALS)
    pid = shop["parent_id"]
    paid, _ = order_sums(pay_engine, order_id)
    done = await _cancel_meal(pay_engine, gateway, shop, first, "mail-1")
    assert 0 < done.refunded_cents == done.refund_cents < paid
    amount = format_money(done.refund_cents, "en")
    [cancelled] = _mails(pay_engine, pid, "order_cancelled")
    assert f"A refund of {amount} is due for these meals. We will e-mail you" in (
        cancelled.body_text
    )
    [made] = _mails(pay_engine, pid, "refund_made")
    assert made.subject.startswith("Refund made: ") and made.language == "en"
    assert f"{amount} has been refunded to your card" in made.body_text
    got, html = received(made)  # as the parent's mail program gets it
    assert got.content_type == "multipart/alternative" and html.lang == "en"
    assert any(f"{amount} has been refunded to your card" in p for p in html.paragraphs)
    assert [href for href, _ in html.links] == [
        f"http://localhost:1805/parent/edit-profile/order-details?id={order_id}"
    ]
    got, html = received(cancelled)
    assert html.captions == ["Cancelled meals"] and len(html.rows) == 1
    assert [scope for _, scope in html.headers] == ["col", "col", "rowgroup"]
    assert html.rows[0][0] and html.rows[0][1] == "1"
    assert _mails(pay_engine, pid, "refund_processing") == []
    await payment_round.reconcile_round(runtime=runtime)
    await payment_round.reconcile_round(runtime=runtime)
    assert len(_mails(pay_engine, pid, "refund_made")) == 1

    with session_scope(pay_engine) as s:
        notifications.update_preferences(session=s, parent_id=pid, preferences={"refund": False})
    rest = await _cancel_meal(pay_engine, gateway, shop, second, "mail-2")
    assert rest.refunded_cents == rest.refund_cents > 0
    assert order_sums(pay_engine, order_id) == (paid, paid)
    quiet = _mails(pay_engine, pid, "order_cancelled")[-1]
    assert len(_mails(pay_engine, pid, "order_cancelled")) == 2
    assert "You can follow it on the order's details." in quiet.body_text
    assert len(_mails(pay_engine, pid, "refund_made")) == 1


async def test_a_refund_converge_refused_is_e_mailed_in_progress_then_made_once(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    """No answer from Converge: 'being processed' (in the parent's language), nothing more
    when the reconciliation finds no refund, then 'refunded' with the amount when the
    periodic job's retry goes through."""
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    from hotmeals.db.models import Parent
    from hotmeals.domain.money import format_money
    from hotmeals.services import payments

    order_id, (first, _second) = await paid_order(pay_engine, gateway, live_sim, shop, TWO_MEALS)
    pid = shop["parent_id"]
    with session_scope(pay_engine) as s:
        parent = s.get(Parent, pid)
        parent.language = "fr"
        s.add(parent)
        number = s.get(Order, order_id).number
    live_sim.control("fault", kind="http_500")
    result = await _cancel_meal(pay_engine, gateway, shop, first, "refused-mail")
    owed = result.refund_cents
    assert owed > 0 and result.refunded_cents == 0
    amount = format_money(owed, "fr")
    [waiting] = _mails(pay_engine, pid, "refund_processing")
    assert waiting.subject == f"Remboursement en cours : {number}" and waiting.language == "fr"
    assert f"Votre remboursement de {amount}" in waiting.body_text
    assert _mails(pay_engine, pid, "refund_made") == []
    with session_scope(pay_engine) as s:
        [row] = s.exec(select(Refund).where(Refund.order_id == order_id)).all()
    view = await payments.reconcile_refund(refund_id=row.id, window=timedelta(0), runtime=runtime)
    assert view.state == RefundState.FAILED
    assert len(_mails(pay_engine, pid, "refund_processing")) == 1
    # The periodic job, once the next try is due, twice.
    await payments.resend_failed_refunds(runtime=runtime.at(_later(3)))
    await payments.resend_failed_refunds(runtime=runtime.at(_later(3)))
    assert order_sums(pay_engine, order_id)[1] == owed
    [made] = _mails(pay_engine, pid, "refund_made")
    assert made.subject == f"Remboursement effectué : {number}"
    assert f"{amount} a été remboursé sur votre carte" in made.body_text
    assert len(_mails(pay_engine, pid, "refund_processing")) == 1


async def test_a_lost_refund_answer_found_by_two_reconciliations_at_once_mails_once(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine)
    import asyncio

    from hotmeals.services import payments
    from tests.payments_support import SHORT

    order_id, (line_id,) = await paid_order(pay_engine, gateway, live_sim, shop)
    pid = shop["parent_id"]
    live_sim.control("fault", kind="lost_answer")
    async with ConvergeClient(live_sim.settings, timeout=SHORT) as impatient:
        result = await _cancel_meal(pay_engine, impatient, shop, line_id, "lost-mail")
    assert result.pending_cents == result.refund_cents > 0
    assert len(_mails(pay_engine, pid, "refund_processing")) == 1
    with session_scope(pay_engine) as s:
        [row] = s.exec(select(Refund).where(Refund.order_id == order_id)).all()
    views = await asyncio.gather(
        asyncio.to_thread(
            in_new_loop,
            live_sim,
            payments.reconcile_refund,
            refund_id=row.id,
            runtime=runtime,
        ),
        asyncio.to_thread(
            in_new_loop,
            live_sim,
            payments.reconcile_refund,
            refund_id=row.id,
            runtime=runtime,
        ),
    )
    assert any(v.state == RefundState.SUCCEEDED for v in views), views
    with session_scope(pay_engine) as s:
        assert s.get(Refund, row.id).state == RefundState.SUCCEEDED
    assert len(_mails(pay_engine, pid, "refund_made")) == 1
    assert len(_mails(pay_engine, pid, "refund_processing")) == 1


async def test_a_cancel_cart_over_two_orders_is_all_or_nothing_when_one_is_refused(
    pay_engine: Engine,
    gateway: ConvergeClient,
    live_sim: SimServer,
    shop: dict,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another tab cancels the second order between the cart's check and its
    confirm. Before, the first order stayed cancelled with a PENDING refund this call never
    sent; now nothing is cancelled, nothing reserved, and a new confirm does the rest."""
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    pid = shop["parent_id"]
    first_order, (first,) = await paid_order(
        pay_engine, gateway, live_sim, shop, [{"child": 0, "weeks": 2, "quantity": 1}]
    )
    second_order, (second,) = await paid_order(
        pay_engine, gateway, live_sim, shop, [{"child": 1, "weeks": 3, "quantity": 1}]
    )
    paid_first, _ = order_sums(pay_engine, first_order)
    with session_scope(pay_engine) as s:
        cancel_cart.add_to_cancel_cart(s, parent_id=pid, order_line_id=first)
        cancel_cart.add_to_cancel_cart(s, parent_id=pid, order_line_id=second)
    checked = cancel_cart._cart_plan

    def other_tab_meanwhile(session, **kw):
        plan = checked(session, **kw)
        got = in_new_loop(
            live_sim,
            cancel_order.cancel_order,
            parent_id=pid,
            order_id=second_order,
            reason_id=shop["reason_id"],
            request_key="other-tab",
            runtime=Runtime(engine=pay_engine),
        )
        assert not isinstance(got, Exception), got
        return plan

    monkeypatch.setattr(cancel_cart, "_cart_plan", other_tab_meanwhile)
    with pytest.raises(DomainError) as info:
        await cancel_cart.confirm_cancel_cart(
            parent_id=pid,
            reason_id=shop["reason_id"],
            request_key="cart-race",
            runtime=runtime,
        )
    assert info.value.code in ("cancel_order_not_cancellable", "order_line_not_found")
    with session_scope(pay_engine) as s:
        assert s.get(Order, first_order).status == "placed"
        assert s.exec(select(Refund).where(Refund.order_id == first_order)).all() == []
        left = s.exec(select(CancelCartLine).where(CancelCartLine.parent_id == pid)).all()
    assert [x.order_line_id for x in left] == [first]
    monkeypatch.setattr(cancel_cart, "_cart_plan", checked)
    done = await cancel_cart.confirm_cancel_cart(
        parent_id=pid,
        reason_id=shop["reason_id"],
        request_key="cart-race-2",
        runtime=runtime,
    )
    assert done.order_ids == [first_order] and done.refunded_cents == paid_first
    assert order_sums(pay_engine, first_order) == (paid_first, paid_first)
