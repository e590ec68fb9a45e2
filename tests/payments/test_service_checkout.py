"""ordering/checkout.py (payment) on SQLite and PostgreSQL against the Converge simulator
over HTTP: a real cart priced to the cent from the database, the cart becoming one order in one
transaction, two tabs paying at once, cut-offs passing between adding and paying, a declined
card and its retry, an approval that cannot place its order voided (at once or by the
reconciliation), the confirmation e-mail, and ownership."""

# ruff: noqa: F811 - pytest fixtures are imported from service_support

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import func, select

from hotmeals import clock
from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import session_scope
from hotmeals.db.models import (
    AddOn,
    CartLine,
    EmailOutbox,
    MealOption,
    Order,
    OrderLine,
    OrderLineAddOn,
    Payment,
    PriceTier,
    PromoCode,
    Refund,
)
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import OrderStatus
from hotmeals.domain.payment_states import PaymentState, RefundState
from hotmeals.domain.pricing import giveback_summary
from hotmeals.jobs import payment_round
from hotmeals.services import cards, payments
from hotmeals.services.ordering import cart, checkout, confirmation, settle
from hotmeals.services.runtime import Runtime
from hotmeals.settings import get_settings
from tests import factories as f
from tests.mailparts import received
from tests.payments.service_support import (  # noqa: F401 - fixtures
    all_at_once,
    gateway,
    in_new_loop,
    lightbox_submit,
    live_sim,
    pay_engine,
    sim_txns,
)
from tests.payments.support import DECLINED_CARD, MASTERCARD, VISA, SimServer


def _monday_in(weeks: int) -> date:
    today = clock.now().date()
    return today + timedelta(days=(7 - today.weekday()) % 7 + 7 * weeks)


def _cutoff(day: date) -> datetime:
    """The test vendor's cut-off: the day before at 10:00 Toronto (EST or EDT: take the later
    bound, 15:00 UTC, then one hour more to be past it in either)."""
    return datetime(day.year, day.month, day.day, 16, 0, tzinfo=UTC) - timedelta(days=1)


@pytest.fixture
def shop(pay_engine: Engine, live_sim: SimServer) -> dict:
    """A parent with two children, a vendor (cut-off: the day before at 10:00), a meal with a
    bulk tier, a meal option and an add-on, served on two Mondays at each child's school."""
    live_sim.control("config", decline_by_cents="0")
    with session_scope(pay_engine) as s:
        parent = f.make_parent(s)
        first = f.make_child(s, parent, is_default=True)
        second = f.make_child(s, parent)
        vendor = f.make_vendor(s, cutoff_days_before=1, cutoff_time="10:00")
        meal = f.make_meal(s, vendor, bulk={5: 25}, meal_options={"Gluten-free bun": 75})
        addon = AddOn(vendor_id=vendor.id, name_en="Apple", name_fr="Pomme", price_cents=125)
        s.add(addon)
        soon, later = _monday_in(2), _monday_in(3)
        days = {}
        for child in (first, second):
            school = f.child_school(s, child)
            for day in (soon, later):
                if (school.id, day) not in days:
                    days[(school.id, day)] = f.make_menu_day(s, school, vendor, day, [meal]).id
        s.flush()
        option = s.exec(select(MealOption).where(MealOption.meal_id == meal.id)).one()
        return {
            "parent_id": parent.id,
            "children": [first.id, second.id],
            "schools": [first.school_id, second.school_id],
            "meal_id": meal.id,
            "addon_id": addon.id,
            "option_id": option.id,
            "soon": soon,
            "later": later,
            "days": days,
        }


def add(engine: Engine, shop: dict, child: int = 0, when: str = "soon", **extra) -> int:
    with session_scope(engine) as s:
        line = cart.add_to_cart(
            session=s,
            parent_id=shop["parent_id"],
            child_id=shop["children"][child],
            meal_id=shop["meal_id"],
            menu_day_id=shop["days"][(shop["schools"][child], shop[when])],
            **extra,
        )
        return line.cart_id


def cart_ids(engine: Engine, parent_id: int) -> list[int]:
    with session_scope(engine) as s:
        return sorted(s.exec(select(CartLine.id).where(CartLine.parent_id == parent_id)).all())


def orders(engine: Engine, parent_id: int) -> list[Order]:
    with session_scope(engine) as s:
        return list(s.exec(select(Order).where(Order.parent_id == parent_id).order_by(Order.id)))


async def _start(
    engine: Engine, gateway: ConvergeClient, shop: dict, **kw
) -> checkout.CheckoutStarted:
    """``start_checkout`` for the shop's parent."""
    return await checkout.start_checkout(
        parent_id=shop["parent_id"], runtime=Runtime(engine=engine, gateway=gateway), **kw
    )


async def _complete(
    engine: Engine, gateway: ConvergeClient, shop: dict, payment_id: int, txn_id: str, **kw
) -> settle.CheckoutResult:
    """``complete_checkout`` (AddOrder) of the shop parent's payment ``payment_id``."""
    return await checkout.complete_checkout(
        parent_id=shop["parent_id"],
        payment_id=payment_id,
        txn_id=txn_id,
        runtime=Runtime(engine=engine, gateway=gateway),
        **kw,
    )


async def pay(engine, gateway, sim, shop, number=VISA, **kw) -> settle.CheckoutResult:
    runtime = Runtime(engine=engine, gateway=gateway)
    started = await checkout.start_checkout(parent_id=shop["parent_id"], runtime=runtime, **kw)
    assert started.hosted is not None and started.result is None
    answer = lightbox_submit(sim, started.hosted.token, number=number)
    if answer["outcome"] != "approval":
        return await checkout.checkout_declined(
            parent_id=shop["parent_id"],
            payment_id=started.payment_id,
            message=answer["response"].get("ssl_result_message", "DECLINED"),
            lang=kw.get("lang", "en"),
            runtime=runtime,
        )
    return await checkout.complete_checkout(
        parent_id=shop["parent_id"],
        payment_id=started.payment_id,
        txn_id=answer["response"]["ssl_txn_id"],
        lang=kw.get("lang", "en"),
        runtime=runtime,
    )


def each_at_once(targets: list) -> list:
    """Each target in a thread of its own, released together by a barrier."""
    barrier = threading.Barrier(len(targets))
    results: list = [None] * len(targets)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = targets[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(targets))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


@pytest.fixture
def rates_hst_only() -> None:
    rates = get_settings().charge_rates
    if (rates.tax_bps, rates.processing_fee_bps, rates.processing_fee_fixed_cents) != (1300, 0, 0):
        pytest.skip("the figures below are for 13 % HST and no card fee (the default)")


async def test_a_real_cart_is_priced_to_the_cent_and_charged_what_the_order_says(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict, rates_hst_only
) -> None:
    add(
        pay_engine,
        shop,
        quantity=5,
        meal_option_id=shop["option_id"],
        addons=[shop["addon_id"]],
        special_note_text="Peanut-free table",
    )  # tier 5+: 5.25 + 0.75 bun + 1.25 apple = 7.25 x 5 = 36.25, + 1.00 note
    add(pay_engine, shop, size="large")  # 7.00
    add(pay_engine, shop, child=1, when="later")  # 5.50
    with session_scope(pay_engine) as s:
        s.add(PromoCode(code="TENOFF", percent_bps=1000))
    started = await _start(pay_engine, gateway, shop, promo_code="tenoff", donation="5")
    # meals 48.75; discount 10 % = 4.875 -> 4.88; goods 48.75 - 4.88 + 1.00 note = 44.87;
    # HST 13 % of 44.87 = 5.8331 -> 5.83; + 5.00 donation (never taxed) = 55.70
    with session_scope(pay_engine) as s:
        order = s.get(Order, started.order_id)
        payment = s.get(Payment, started.payment_id)
        assert (
            order.meal_net_cents,
            order.special_note_fees_cents,
            order.discount_cents,
            order.tax_cents,
            order.school_donation_cents,
            order.total_pay_cents,
        ) == (4875, 100, 488, 583, 500, 5570)
        assert order.status == OrderStatus.PENDING_PAYMENT and order.number == (
            f"HM-{order.id:06d}"
        )
        assert (order.promo_code, order.promo_kind, order.promo_value, order.tax_bps) == (
            "TENOFF",
            "percent",
            1000,
            1300,
        )
        assert order.promo_code_id is not None
        assert payment.amount_cents == order.total_pay_cents == started.amount_cents == 5570
        assert payment.purpose == "ORDER" and payment.order_id == order.id
        lines = s.exec(
            select(OrderLine).where(OrderLine.order_id == order.id).order_by(OrderLine.id)
        ).all()
        assert [(ln.quantity, ln.unit_price_cents, ln.line_total_cents) for ln in lines] == [
            (5, 525, 3725),
            (1, 700, 700),
            (1, 550, 550),
        ]
        assert lines[0].meal_option_cents == 75 and lines[0].special_note_fee_cents == 100
        assert lines[0].price_tiers == "1:550,5:525" and lines[1].size == "large"
        assert lines[0].special_note == "Peanut-free table"
        assert {ln.cart_line_id for ln in lines} == set(cart_ids(pay_engine, shop["parent_id"]))
        addons = s.exec(
            select(OrderLineAddOn).where(OrderLineAddOn.order_line_id.in_([ln.id for ln in lines]))
        ).all()
        assert [(a.order_line_id, a.name, a.price_cents) for a in addons] == [
            (lines[0].id, "Apple", 125)
        ]
    assert started.hosted is not None and started.hosted.amount_cents == 5570

    answer = lightbox_submit(live_sim, started.hosted.token)
    result = await _complete(
        pay_engine, gateway, shop, started.payment_id, answer["response"]["ssl_txn_id"]
    )
    assert result.status == "placed" and result.total_pay_cents == 5570
    assert result.order_number == started.order_number and started.order_number in result.message
    sales = sim_txns(live_sim, started.hosted.invoice_number, "SALE")
    assert [t["amount_cents"] for t in sales] == [5570]
    assert cart_ids(pay_engine, shop["parent_id"]) == []  # the cart became the order
    with session_scope(pay_engine) as s:
        assert s.get(Order, started.order_id).status == OrderStatus.PLACED
        shown = confirmation.order_confirmation(
            s, parent_id=shop["parent_id"], order_id=started.order_id, lang="fr"
        )
    assert shown.number == started.order_number and shown.total_pay_cents == 5570
    assert [len(g.lines) for g in shown.groups] == [2, 1]
    first = shown.groups[0].lines[0]
    assert (first.quantity, first.meal_option, first.special_note) == (
        5,
        "Gluten-free bun",
        "Peanut-free table",
    )
    assert first.addons[0].name == "Pomme" and first.size_label == "1 portion"
    giveback = giveback_summary(shown.meal_count, "fr")
    assert giveback["school_cents"] == 7 * 50
    assert giveback["nutrition_cents"] == 7 * 20
    assert shown.charges.discount_cents == 488


async def test_the_confirmation_email_is_queued_once_in_the_parents_language(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    with session_scope(pay_engine) as s:
        from hotmeals.db.models import Parent

        parent = s.get(Parent, shop["parent_id"])
        parent.language = "fr"
        s.add(parent)
        address = parent.email
    add(pay_engine, shop, special_note_text="Sans noix")
    add(pay_engine, shop, child=1, when="later", addons=[shop["addon_id"]])
    started = await _start(pay_engine, gateway, shop)
    txn = lightbox_submit(live_sim, started.hosted.token)["response"]["ssl_txn_id"]
    for _ in range(3):  # AddOrder repeated: one order, one e-mail
        result = await _complete(pay_engine, gateway, shop, started.payment_id, txn, lang="fr")
        assert result.status == "placed" and "Merci" in result.message
    with session_scope(pay_engine) as s:
        mails = s.exec(
            select(EmailOutbox).where(
                EmailOutbox.to_address == address, EmailOutbox.kind == "order_confirmation"
            )
        ).all()
    assert len(mails) == 1
    mail = mails[0]
    assert mail.language == "fr" and started.order_number in mail.subject
    assert mail.subject.startswith("Votre commande")
    body = mail.body_text
    assert "Sans noix" in body and "Pomme" in body and "Total payé" in body
    assert "Taxe" in body and "lundi" in body  # the meal days in French, by Babel
    # As the parent's mail program gets it: the same text, and its HTML with the lines and the
    # charges as tables, the give-back and the link to the order, in French.
    got, html = received(mail)
    assert got.content_type == "multipart/alternative" and got.body.strip() == body.strip()
    assert html.lang == "fr" and html.captions == ["Vos repas", "Paiement"]
    columns = [h for h, scope in html.headers if scope == "col"]
    assert columns == ["Repas", "Quantité", "Montant", "Description", "Montant"]
    days = [h for h, scope in html.headers if scope == "rowgroup"]  # each child's day
    assert len(days) == 2 and all(d.startswith("Sam Martin, lundi") for d in days)
    meals = [row for row in html.rows if len(row) == 3]
    charges = [row for row in html.rows if len(row) == 2]
    assert len(meals) == 2 and len(charges) == len(html.rows) - 2
    assert "Sans noix" in meals[0][0] and "Pomme" in meals[1][0] and meals[0][1] == "1"
    assert any(label.startswith("Taxe") for label, _ in charges)
    assert any("communauté scolaire" in p for p in html.paragraphs)  # the give-back
    assert [href for href, _ in html.links] == [
        f"http://localhost:1805/parent/edit-profile/order-details?id={started.order_id}"
    ]


async def test_the_same_cart_from_two_tabs_at_once_is_one_order_and_one_charge(
    pay_engine: Engine, live_sim: SimServer, shop: dict
) -> None:
    for n in range(3):
        add(pay_engine, shop, child=n % 2, quantity=n + 1)

    def start():
        return in_new_loop(
            live_sim,
            checkout.start_checkout,
            parent_id=shop["parent_id"],
            runtime=Runtime(engine=pay_engine),
        )

    tabs = all_at_once(2, start)
    assert all(isinstance(tab, checkout.CheckoutStarted) for tab in tabs), tabs
    assert {tab.order_id for tab in tabs} == {tabs[0].order_id}
    # One attempt, one payment row, one invoice: each tab's session is its own.
    assert len({tab.payment_id for tab in tabs}) == 2
    assert len({tab.hosted.invoice_number for tab in tabs}) == 2
    assert len(orders(pay_engine, shop["parent_id"])) == 1
    # Both tabs pay in their Lightbox, then AddOrder at once.
    txns = [lightbox_submit(live_sim, tab.hosted.token)["response"]["ssl_txn_id"] for tab in tabs]

    results = each_at_once(
        [
            lambda i=i: in_new_loop(
                live_sim,
                checkout.complete_checkout,
                parent_id=shop["parent_id"],
                payment_id=tabs[i].payment_id,
                txn_id=txns[i],
                runtime=Runtime(engine=pay_engine),
            )
            for i in range(2)
        ]
    )
    assert sorted(r.status for r in results) == ["placed", "voided"], results
    sales = [s for tab in tabs for s in sim_txns(live_sim, tab.hosted.invoice_number, "SALE")]
    voids = [v for tab in tabs for v in sim_txns(live_sim, tab.hosted.invoice_number, "VOID")]
    assert len(sales) == 2 and len(voids) == 1  # the second sale is voided: one charge kept
    voided = next(r for r in results if r.status == "voided")
    with session_scope(pay_engine) as s:  # the void is the second attempt's own refund row
        [refund] = s.exec(select(Refund).where(Refund.payment_id == voided.payment_id)).all()
        assert refund.state == RefundState.SUCCEEDED and refund.kind == "VOID"
    [order] = orders(pay_engine, shop["parent_id"])
    assert order.status == OrderStatus.PLACED
    assert cart_ids(pay_engine, shop["parent_id"]) == []


async def test_two_saved_card_checkouts_at_once_charge_once(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    session = await cards.start_add_card(parent_id=shop["parent_id"], runtime=runtime)
    token = lightbox_submit(live_sim, session.token, number=MASTERCARD)["response"]["ssl_token"]
    card = await cards.save_card(parent_id=shop["parent_id"], token=token, runtime=runtime)
    add(pay_engine, shop)
    add(pay_engine, shop, child=1)

    def start():
        return in_new_loop(
            live_sim,
            checkout.start_checkout,
            parent_id=shop["parent_id"],
            card_id=card.id,
            runtime=Runtime(engine=pay_engine),
        )

    # The charge takes a second: the other taps come while it is on its way.
    live_sim.control("fault", kind="delay:1", scope="xml")
    answers = all_at_once(3, start)
    # A tab that comes after the order was placed finds an empty cart: nothing to pay.
    tabs = [a for a in answers if isinstance(a, checkout.CheckoutStarted)]
    late = [a for a in answers if a not in tabs]
    assert all(isinstance(a, DomainError) and a.code == "cart_nothing_payable" for a in late)
    assert tabs and {tab.payment_id for tab in tabs} == {tabs[0].payment_id}, answers
    # Every tap that found the order answers that it is placed (before, the one that lost
    # the race said "we are confirming your payment").
    statuses = sorted(tab.result.status for tab in tabs)
    assert set(statuses) == {"placed"}, statuses
    with session_scope(pay_engine) as s:
        invoice = s.get(Payment, tabs[0].payment_id).invoice_number
        assert s.exec(select(func.count()).select_from(Payment)).one() >= 1
    assert len(sim_txns(live_sim, invoice, "SALE")) == 1
    [order] = orders(pay_engine, shop["parent_id"])
    assert order.status == OrderStatus.PLACED


async def test_a_changed_cart_cancels_the_pending_order_and_its_late_approval_is_voided(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    add(pay_engine, shop)
    old = await _start(pay_engine, gateway, shop)
    add(pay_engine, shop, child=1)  # the cart changes in another tab
    new = await _start(pay_engine, gateway, shop)
    assert new.order_id != old.order_id and new.amount_cents > old.amount_cents
    assert [o.status for o in orders(pay_engine, shop["parent_id"])] == [
        OrderStatus.CANCELLED,
        OrderStatus.PENDING_PAYMENT,
    ]
    # The first tab pays anyway: AddOrder cannot place a cancelled order, so it voids at once.
    txn = lightbox_submit(live_sim, old.hosted.token)["response"]["ssl_txn_id"]
    result = await _complete(pay_engine, gateway, shop, old.payment_id, txn)
    assert result.status == "voided" and old.order_number in result.message
    with session_scope(pay_engine) as s:
        [refund] = s.exec(select(Refund).where(Refund.payment_id == old.payment_id)).all()
        assert (refund.kind, refund.state, refund.amount_cents) == (
            "VOID",
            RefundState.SUCCEEDED,
            old.amount_cents,
        )
    assert len(cart_ids(pay_engine, shop["parent_id"])) == 2  # nothing left the cart
    placed = await pay(pay_engine, gateway, live_sim, shop)
    assert placed.status == "placed" and placed.order_id == new.order_id


async def test_a_cart_past_its_cutoff_is_refused_and_nothing_is_charged(
    pay_engine: Engine,
    gateway: ConvergeClient,
    live_sim: SimServer,
    shop: dict,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    add(pay_engine, shop)
    late = _cutoff(shop["soon"]) + timedelta(minutes=5)
    clock.set_now(late)
    with pytest.raises(DomainError) as err:
        await _start(pay_engine, gateway, shop)
    assert err.value.code == "orderpay_cutoff_passed"
    assert "Monday" in err.value.message("en")
    with pytest.raises(DomainError) as err:
        await _start(pay_engine, gateway, shop, lang="fr")
    assert "lundi" in err.value.message("fr")
    assert orders(pay_engine, shop["parent_id"]) == []
    with session_scope(pay_engine) as s:
        assert s.exec(select(Payment).where(Payment.parent_id == shop["parent_id"])).all() == []


async def test_a_line_past_its_cutoff_stays_in_the_cart_and_the_rest_is_paid(
    pay_engine: Engine,
    gateway: ConvergeClient,
    live_sim: SimServer,
    shop: dict,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    past = add(pay_engine, shop)
    open_line = add(pay_engine, shop, child=1, when="later")
    clock.set_now(_cutoff(shop["soon"]) + timedelta(minutes=5))
    result = await pay(pay_engine, gateway, live_sim, shop)
    assert result.status == "placed"
    with session_scope(pay_engine) as s:
        lines = s.exec(select(OrderLine).where(OrderLine.order_id == result.order_id)).all()
    assert [ln.cart_line_id for ln in lines] == [open_line]
    assert cart_ids(pay_engine, shop["parent_id"]) == [past]


async def test_an_approval_after_the_cutoff_is_voided_and_the_cart_stays(
    pay_engine: Engine,
    gateway: ConvergeClient,
    live_sim: SimServer,
    shop: dict,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    add(pay_engine, shop)
    started = await _start(pay_engine, gateway, shop)
    txn = lightbox_submit(live_sim, started.hosted.token)["response"]["ssl_txn_id"]
    clock.set_now(_cutoff(shop["soon"]) + timedelta(seconds=1))
    result = await _complete(pay_engine, gateway, shop, started.payment_id, txn)
    assert result.status == "voided" and "deadline" in result.message
    with session_scope(pay_engine) as s:
        assert s.get(Order, started.order_id).status == OrderStatus.CANCELLED
        assert s.get(Payment, started.payment_id).state == PaymentState.APPROVED
        [refund] = s.exec(select(Refund).where(Refund.payment_id == started.payment_id)).all()
        assert refund.state == RefundState.SUCCEEDED and refund.kind == "VOID"
    assert len(sim_txns(live_sim, started.hosted.invoice_number, "VOID")) == 1
    assert len(cart_ids(pay_engine, shop["parent_id"])) == 1
    # Nothing left for the reconciliation to void.
    assert (
        await settle.void_orphan_payments(runtime=Runtime(engine=pay_engine, gateway=gateway)) == []
    )


async def test_a_declined_card_keeps_the_cart_and_another_card_places_the_order(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    add(pay_engine, shop)
    add(pay_engine, shop, child=1, when="later")
    before = cart_ids(pay_engine, shop["parent_id"])
    declined = await pay(pay_engine, gateway, live_sim, shop, number=DECLINED_CARD)
    # The parent's words, never the processor's raw status.
    assert declined.status == "declined" and "declined" in declined.message
    assert "DECLINED" not in declined.message
    assert "another card" in declined.message
    assert cart_ids(pay_engine, shop["parent_id"]) == before
    with session_scope(pay_engine) as s:
        assert s.get(Order, declined.order_id).status == OrderStatus.PAYMENT_FAILED
        assert s.get(Payment, declined.payment_id).state == PaymentState.DECLINED
    retry = await pay(pay_engine, gateway, live_sim, shop, number=MASTERCARD)
    assert retry.status == "placed"
    assert retry.order_id == declined.order_id and retry.payment_id != declined.payment_id
    assert cart_ids(pay_engine, shop["parent_id"]) == []
    assert [o.status for o in orders(pay_engine, shop["parent_id"])] == [OrderStatus.PLACED]


async def test_an_addorder_that_fails_after_the_approval_is_voided_by_the_reconciliation(
    pay_engine: Engine,
    gateway: ConvergeClient,
    live_sim: SimServer,
    shop: dict,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    add(pay_engine, shop)
    started = await _start(pay_engine, gateway, shop)
    txn = lightbox_submit(live_sim, started.hosted.token)["response"]["ssl_txn_id"]

    def broken(*args, **kwargs):
        raise RuntimeError("the server died while placing the order")

    monkeypatch.setattr(confirmation, "queue_confirmation_mail", broken)
    with pytest.raises(RuntimeError):
        await _complete(pay_engine, gateway, shop, started.payment_id, txn)
    with session_scope(pay_engine) as s:  # nothing was recorded: one transaction
        assert s.get(Payment, started.payment_id).state == PaymentState.CREATED
        assert s.get(Order, started.order_id).status == OrderStatus.PENDING_PAYMENT
    monkeypatch.undo()
    # The cut-off passes before the reconciliation finds the sale: no order, money voided.
    clock.set_now(_cutoff(shop["soon"]) + timedelta(minutes=1))
    later = clock.now() + payments.SESSION_WINDOW + timedelta(minutes=1)
    await payments.reconcile_open_payments(runtime=replace(runtime, clock=lambda: later))
    with session_scope(pay_engine) as s:
        assert s.get(Payment, started.payment_id).state == PaymentState.APPROVED
        assert s.get(Order, started.order_id).status == OrderStatus.CANCELLED
    assert await settle.void_orphan_payments(runtime=runtime) == [started.payment_id]
    with session_scope(pay_engine) as s:
        [refund] = s.exec(select(Refund).where(Refund.payment_id == started.payment_id)).all()
        assert refund.state == RefundState.SUCCEEDED and refund.amount_cents == (
            started.amount_cents
        )
    assert await settle.void_orphan_payments(runtime=runtime) == []


async def test_a_void_that_fails_in_addorder_is_done_by_the_reconciliation_round(
    pay_engine: Engine,
    gateway: ConvergeClient,
    live_sim: SimServer,
    shop: dict,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    add(pay_engine, shop)
    started = await _start(pay_engine, gateway, shop)
    txn = lightbox_submit(live_sim, started.hosted.token)["response"]["ssl_txn_id"]
    clock.set_now(_cutoff(shop["soon"]) + timedelta(minutes=1))

    async def crash(*args, **kwargs):
        raise RuntimeError("crashed before the void")

    real_void = settle.reverse_in_full
    monkeypatch.setattr(settle, "reverse_in_full", crash)
    with pytest.raises(RuntimeError):
        await _complete(pay_engine, gateway, shop, started.payment_id, txn)
    monkeypatch.setattr(settle, "reverse_in_full", real_void)
    with session_scope(pay_engine) as s:  # paid, not placed, not refunded yet
        assert s.get(Payment, started.payment_id).state == PaymentState.APPROVED
        assert s.get(Order, started.order_id).status == OrderStatus.CANCELLED
    await payment_round.reconcile_round(runtime=Runtime(engine=pay_engine, gateway=gateway))
    with session_scope(pay_engine) as s:
        [refund] = s.exec(select(Refund).where(Refund.payment_id == started.payment_id)).all()
        assert refund.state == RefundState.SUCCEEDED
    assert len(sim_txns(live_sim, started.hosted.invoice_number, "VOID")) == 1


async def test_prices_are_read_from_the_database_at_payment_time(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    add(pay_engine, shop, addons=[shop["addon_id"]])  # 5.50 + 1.25 when added
    with session_scope(pay_engine) as s:  # the catalogue changes before the parent pays
        for tier in s.exec(select(PriceTier)).all():
            if tier.unit_price_cents == 550:
                tier.unit_price_cents = 600
                s.add(tier)
        addon = s.get(AddOn, shop["addon_id"])
        addon.price_cents = 150
        s.add(addon)
    result = await pay(pay_engine, gateway, live_sim, shop, promo_code=None)
    with session_scope(pay_engine) as s:
        order = s.get(Order, result.order_id)
        [line] = s.exec(select(OrderLine).where(OrderLine.order_id == order.id)).all()
        [sold] = s.exec(select(OrderLineAddOn).where(OrderLineAddOn.order_line_id == line.id)).all()
        payment = s.get(Payment, result.payment_id)
    assert (line.unit_price_cents, sold.price_cents, order.meal_net_cents) == (600, 150, 750)
    assert payment.amount_cents == order.total_pay_cents == result.total_pay_cents


async def test_another_parents_payment_or_order_is_not_found(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    add(pay_engine, shop)
    started = await _start(pay_engine, gateway, shop)
    txn = lightbox_submit(live_sim, started.hosted.token)["response"]["ssl_txn_id"]
    with session_scope(pay_engine) as s:
        other = f.make_parent(s).id
    with pytest.raises(DomainError) as err:
        await checkout.complete_checkout(
            parent_id=other,
            payment_id=started.payment_id,
            txn_id=txn,
            runtime=runtime,
        )
    assert err.value.code == "payment_not_found"
    with pytest.raises(DomainError) as err:
        await checkout.checkout_declined(
            parent_id=other,
            payment_id=started.payment_id,
            message="x",
            runtime=runtime,
        )
    assert err.value.code == "payment_not_found"
    with session_scope(pay_engine) as s:
        with pytest.raises(DomainError) as err:
            confirmation.order_confirmation(s, parent_id=other, order_id=started.order_id)
        assert err.value.code == "payment_order_not_found"
    with session_scope(pay_engine) as s:  # nothing moved
        assert s.get(Payment, started.payment_id).state == PaymentState.CREATED
    placed = await _complete(pay_engine, gateway, shop, started.payment_id, txn)
    assert placed.status == "placed"


async def test_a_promo_is_used_up_by_paid_orders_only(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    code = f"ONCE{shop['parent_id']}"
    with session_scope(pay_engine) as s:
        s.add(PromoCode(code=code, amount_off_cents=100, max_uses=1))
    add(pay_engine, shop)
    declined = await pay(pay_engine, gateway, live_sim, shop, number=DECLINED_CARD, promo_code=code)
    assert declined.status == "declined"  # a failed attempt does not use the code
    placed = await pay(pay_engine, gateway, live_sim, shop, promo_code=code)
    assert placed.status == "placed" and placed.order_id == declined.order_id
    with session_scope(pay_engine) as s:
        assert s.get(Order, placed.order_id).discount_cents == 100
    add(pay_engine, shop, child=1)
    with pytest.raises(DomainError) as err:
        await _start(pay_engine, gateway, shop, promo_code=code)
    assert err.value.code == "promo_used_up"


async def test_a_paid_session_whose_addorder_never_came_is_found_at_the_next_checkout(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    add(pay_engine, shop)
    first = await _start(pay_engine, gateway, shop)
    lightbox_submit(live_sim, first.hosted.token)  # paid, then the tab closed: no AddOrder
    again = await _start(pay_engine, gateway, shop)
    assert again.hosted is None and again.result is not None
    assert again.result.status == "placed" and again.order_id == first.order_id
    assert len(sim_txns(live_sim, first.hosted.invoice_number, "SALE")) == 1
    assert cart_ids(pay_engine, shop["parent_id"]) == []


async def test_no_confirmation_email_when_the_parent_turned_it_off(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    from hotmeals.services import notifications

    with session_scope(pay_engine) as s:
        notifications.update_preferences(
            session=s, parent_id=shop["parent_id"], preferences={"order_confirmation": False}
        )
    add(pay_engine, shop)
    placed = await pay(pay_engine, gateway, live_sim, shop)
    assert placed.status == "placed"
    with session_scope(pay_engine) as s:
        from hotmeals.db.models import Parent

        address = s.get(Parent, shop["parent_id"]).email
        assert s.exec(select(EmailOutbox).where(EmailOutbox.to_address == address)).all() == []


async def test_a_made_up_transaction_for_a_paid_order_voids_nothing(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    add(pay_engine, shop)
    placed = await pay(pay_engine, gateway, live_sim, shop)
    assert placed.status == "placed"
    with pytest.raises(DomainError) as err:
        await _complete(pay_engine, gateway, shop, placed.payment_id, "NOT-A-REAL-TXN")
    assert err.value.code == "payment_already_paid"
    with session_scope(pay_engine) as s:
        invoice = s.get(Payment, placed.payment_id).invoice_number
    assert sim_txns(live_sim, invoice, "VOID") == []
    with session_scope(pay_engine) as s:
        assert s.get(Order, placed.order_id).status == OrderStatus.PLACED


async def test_a_second_approved_payment_of_a_placed_order_is_voided_by_the_reconciliation(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    add(pay_engine, shop)
    placed = await pay(pay_engine, gateway, live_sim, shop)
    with session_scope(pay_engine) as s:  # another attempt for the same order (a stray one)
        order = s.get(Order, placed.order_id)
        stray = payments.reserve_payment(
            s,
            parent_id=shop["parent_id"],
            purpose="ORDER",
            amount_cents=order.total_pay_cents,
            order_id=order.id,
        ).id
    hosted = await payments.open_hosted_session(
        payment_id=stray, parent_id=shop["parent_id"], runtime=runtime
    )
    txn = lightbox_submit(live_sim, hosted.token)["response"]["ssl_txn_id"]
    view = await payments.confirm_payment(payment_id=stray, txn_id=txn, runtime=runtime)
    assert view.state == PaymentState.APPROVED  # recorded; the order stays placed once
    with session_scope(pay_engine) as s:
        assert s.get(Order, placed.order_id).status == OrderStatus.PLACED
    assert await settle.void_orphan_payments(runtime=runtime) == [stray]
    with session_scope(pay_engine) as s:
        kept = s.exec(select(Refund).where(Refund.payment_id == placed.payment_id)).all()
        [voided] = s.exec(select(Refund).where(Refund.payment_id == stray)).all()
    assert kept == [] and voided.state == RefundState.SUCCEEDED
