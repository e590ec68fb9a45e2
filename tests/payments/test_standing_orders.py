"""Standing orders (services/standing.py) on SQLite and PostgreSQL with the clock
given and Converge's simulator over HTTP: a date is booked and paid with the saved card once,
even with two rounds at once and a restart; closed days, days without the meal and allergy
conflicts are skipped with an e-mail in the parent's language; no card or a declined card
leaves the meal in the cart with an e-mail; paused and ended standing orders book nothing; a
cut-off that passed while the job was down is not made up."""

# ruff: noqa: F811 - pytest fixtures are imported from service_support
from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta

import pytest
from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import select

from hotmeals import clock
from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import session_scope
from hotmeals.db.models import (
    CartLine,
    Child,
    ChildAllergy,
    EmailOutbox,
    Order,
    Parent,
    Payment,
    StandingOrder,
    StandingOrderRun,
    StoredCard,
)
from hotmeals.domain.cutoff import TORONTO
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import OrderStatus
from hotmeals.domain.payment_states import PaymentState
from hotmeals.services import cards, standing, standing_job
from hotmeals.services.runtime import Runtime
from tests import factories as f
from tests.payments.service_support import (  # noqa: F401 - fixtures
    all_at_once,
    gateway,
    in_new_loop,
    lightbox_submit,
    live_sim,
    pay_engine,
    sim_txns,
)
from tests.payments.support import MASTERCARD, PATIENT, SimServer


def _monday_in(weeks: int) -> date:
    today = clock.now().date()
    return today + timedelta(days=(7 - today.weekday()) % 7 + 7 * weeks)


MONDAY = _monday_in(2)
# The Wednesday before, at noon in Toronto: Monday is 5 days ahead (within BOOK_AHEAD) and its
# cut-off (the day before at 10:00, a Sunday) has not passed.
NOW = datetime.combine(MONDAY - timedelta(days=5), time(12, 0), tzinfo=TORONTO)


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> datetime:
    """The services' clock (checkout's placement reads it too) set to ``NOW``."""
    clock.set_now(NOW.astimezone(UTC))
    return NOW


@pytest.fixture
def home(pay_engine: Engine, live_sim: SimServer, now: datetime) -> dict:
    """A French parent with Emma, a vendor (cut-off the day before at 10:00) serving pizza on
    Mondays at her school, and a standing order "every Monday, pizza (1 portion) for Emma"."""
    live_sim.control("config", decline_by_cents="0")
    with session_scope(pay_engine) as s:
        parent = f.make_parent(s, language="fr", first_name="Nora")
        emma = f.make_child(s, parent, first_name="Emma", is_default=True)
        school = f.child_school(s, emma)
        vendor = f.make_vendor(s, cutoff_days_before=1, cutoff_time="10:00")
        pizza = f.make_meal(
            s, vendor, name_en="Pizza", name_fr="Pizza", allergens=["Milk"], small_cents=600
        )
        soup = f.make_meal(s, vendor, name_en="Soup", name_fr="Soupe")
        day = f.make_menu_day(s, school, vendor, MONDAY, [pizza])
        f.make_menu_day(s, school, vendor, MONDAY + timedelta(days=7), [pizza])
        s.flush()
        row = standing.create(
            session=s,
            parent_id=parent.id,
            child_id=emma.id,
            meal_id=pizza.id,
            size="small",
            from_date=MONDAY.isoformat(),
            until="date",
            ends_on=(MONDAY + timedelta(days=7)).isoformat(),
        )
        return {
            "parent_id": parent.id,
            "email": parent.email,
            "child_id": emma.id,
            "school": school,
            "vendor": vendor,
            "pizza": pizza.id,
            "soup": soup.id,
            "menu_day": day.id,
            "standing_id": row.id,
        }


async def _save_card(engine: Engine, gateway: ConvergeClient, sim: SimServer, parent_id: int):
    runtime = Runtime(engine=engine, gateway=gateway)
    session = await cards.start_add_card(parent_id=parent_id, runtime=runtime)
    token = lightbox_submit(sim, session.token, number=MASTERCARD)["response"]["ssl_token"]
    return await cards.save_card(parent_id=parent_id, token=token, runtime=runtime)


def _rows(engine: Engine, model, **where) -> list:
    with session_scope(engine) as s:
        query = select(model)
        for name, value in where.items():
            query = query.where(getattr(model, name) == value)
        rows = list(s.exec(query).all())
        for row in rows:
            s.expunge(row)
        return rows


def _next_date(engine: Engine, home: dict, now: datetime) -> str | None:
    with session_scope(engine) as s:
        [row] = standing.rows_at(s, parent_id=home["parent_id"], now=now)
    return row.next_date.isoformat() if row.next_date else None


def _mails(engine: Engine, to: str) -> list[EmailOutbox]:
    return [m for m in _rows(engine, EmailOutbox, to_address=to) if m.kind == "standing_order"]


async def test_a_date_is_booked_and_paid_once_and_a_restart_books_nothing_new(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, home: dict, now: datetime
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    await _save_card(pay_engine, gateway, live_sim, home["parent_id"])
    assert _next_date(pay_engine, home, now) == MONDAY.isoformat()
    done = await standing_job.run(runtime=runtime)
    assert (done.booked, done.in_cart, done.skipped, done.pending) == (1, 0, 0, 0)
    # Booked: "Next" is the Monday after, never the date the job has handled.
    assert _next_date(pay_engine, home, now) == (MONDAY + timedelta(days=7)).isoformat()
    [order] = _rows(pay_engine, Order, parent_id=home["parent_id"])
    assert order.status == OrderStatus.PLACED
    [payment] = _rows(pay_engine, Payment, order_id=order.id)
    assert payment.state == PaymentState.APPROVED
    assert payment.invoice_number == f"HMS-{home['standing_id']:06d}-{MONDAY:%y%m%d}"
    assert payment.amount_cents == order.total_pay_cents > 600
    assert len(sim_txns(live_sim, payment.invoice_number, "SALE")) == 1
    assert _rows(pay_engine, CartLine, parent_id=home["parent_id"]) == []  # placed: left cart
    # The next Monday is beyond BOOK_AHEAD: not yet. A restart (the same sweep again) and a
    # round an hour later book nothing more.
    again = await standing_job.run(runtime=runtime)
    later = await standing_job.run(runtime=replace(runtime, clock=lambda: now + timedelta(hours=1)))
    assert again.dates == later.dates == []
    assert len(_rows(pay_engine, Order, parent_id=home["parent_id"])) == 1
    runs = [
        r
        for r in standing_job.booked_runs(runtime=Runtime(engine=pay_engine))
        if r[0] == home["standing_id"]
    ]
    assert runs == [(home["standing_id"], MONDAY, "booked")]
    # The next Monday comes within reach a week later.
    week = await standing_job.run(runtime=replace(runtime, clock=lambda: now + timedelta(days=7)))
    assert week.booked == 1
    with session_scope(pay_engine) as s:
        listed = standing.listing(session=s, parent_id=home["parent_id"])
    words = standing.wording(listed[0], "fr")
    assert words.summary == "Chaque lundi : Pizza (1 portion) pour Emma"
    assert "réservé et payé" in words.last_label


async def test_two_rounds_at_once_make_one_order_and_one_charge(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, home: dict, now: datetime
) -> None:
    await _save_card(pay_engine, gateway, live_sim, home["parent_id"])
    live_sim.control("fault", kind="delay:1", scope="xml")  # the charge takes a second

    def sweep():
        return in_new_loop(live_sim, standing_job.run, runtime=Runtime(engine=pay_engine))

    answers = all_at_once(2, sweep)
    assert all(isinstance(a, standing_job.Round) for a in answers), answers
    assert sorted(len(a.dates) for a in answers) == [0, 1]
    [order] = _rows(pay_engine, Order, parent_id=home["parent_id"])
    [payment] = _rows(pay_engine, Payment, order_id=order.id)
    assert len(sim_txns(live_sim, payment.invoice_number, "SALE")) == 1
    assert order.status == OrderStatus.PLACED
    with session_scope(pay_engine) as s:
        runs = select(func.count()).where(StandingOrderRun.standing_order_id == home["standing_id"])
        assert s.exec(runs).one() == 1


async def test_closed_day_missing_meal_and_allergy_are_skipped_with_a_french_email(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, home: dict, now: datetime
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    await _save_card(pay_engine, gateway, live_sim, home["parent_id"])
    with session_scope(pay_engine) as s:
        parent = s.get(Parent, home["parent_id"])
        emma = s.get(Child, home["child_id"])
        school = f.child_school(s, emma)
        # Lucas's school is closed on Monday; Zoe's standing order is for soup, not served.
        lucas = f.make_child(s, parent, first_name="Lucas")
        other = f.child_school(s, lucas)
        f.make_menu_day(s, other, home["vendor"], MONDAY, closed=True)
        zoe = f.make_child(s, parent, school=school, first_name="Zoe")
        for child, meal in ((lucas, home["pizza"]), (zoe, home["soup"])):
            standing.create(
                session=s, parent_id=parent.id, child_id=child.id, meal_id=meal, weekday=0
            )
        # Emma is now allergic to milk (Major): the pizza is refused for her.
        ingredient = f.get_allergen(s, "Milk")
        s.add(ChildAllergy(child_id=emma.id, ingredient_id=ingredient.id, alert_level="Major"))
    done = await standing_job.run(runtime=runtime)
    assert (done.booked, done.skipped) == (0, 3)
    assert _rows(pay_engine, Order, parent_id=home["parent_id"]) == []
    assert _rows(pay_engine, CartLine, parent_id=home["parent_id"]) == []
    with session_scope(pay_engine) as s:
        reasons = sorted(
            s.exec(
                select(StandingOrderRun.reason)
                .join(StandingOrder)
                .where(StandingOrder.parent_id == home["parent_id"])
            ).all()
        )
    assert reasons == ["allergy", "closed", "not_served"]
    # A skipped date is handled too: no standing order says "Next" for it.
    with session_scope(pay_engine) as s:
        listed = standing.listing(session=s, parent_id=home["parent_id"])
    assert len(listed) == 3 and MONDAY not in {x.next_date for x in listed}
    mails = _mails(pay_engine, home["email"])
    assert len(mails) == 3 and {m.language for m in mails} == {"fr"}
    bodies = "\n".join(m.body_text for m in mails)
    assert "pas de repas à l'école ce jour-là" in bodies
    assert "le repas n'est pas au menu ce jour-là" in bodies
    assert "ne convient pas aux allergies" in bodies
    assert "Rien n'a été facturé" in bodies
    assert f"meal-detailed?date={MONDAY.isoformat()}" in bodies
    # Told once: a second round writes no more.
    await standing_job.run(runtime=runtime)
    assert len(_mails(pay_engine, home["email"])) == 3


async def test_a_meal_that_does_not_fit_the_childs_diet_is_skipped_with_what_it_misses(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, home: dict, now: datetime
) -> None:
    from hotmeals.db.models import ChildDiet, MealDiet

    runtime = Runtime(engine=pay_engine, gateway=gateway)
    await _save_card(pay_engine, gateway, live_sim, home["parent_id"])
    with session_scope(pay_engine) as s:
        # The pizza is vegetarian, not halal; Emma eats vegetarian and halal.
        s.add(MealDiet(meal_id=home["pizza"], diet="vegetarian"))
        s.add_all(ChildDiet(child_id=home["child_id"], diet=d) for d in ("vegetarian", "halal"))
    done = await standing_job.run(runtime=runtime)
    assert (done.booked, done.skipped) == (0, 1)
    assert _rows(pay_engine, CartLine, parent_id=home["parent_id"]) == []
    [run] = _rows(pay_engine, StandingOrderRun, standing_order_id=home["standing_id"])
    assert run.reason == "diet"
    [mail] = _mails(pay_engine, home["email"])
    # The French parent is told which meal, whose diet and what it misses.
    assert "Pizza ne convient pas au régime d'Emma (Non halal)" in mail.body_text
    with session_scope(pay_engine) as s:
        listed = standing.listing(session=s, parent_id=home["parent_id"])
    words = standing.wording(listed[0], "fr")
    assert "le repas ne convient pas au régime de l'enfant" in words.last_label


async def test_no_card_leaves_it_in_the_cart_with_an_email(
    pay_engine: Engine, gateway: ConvergeClient, home: dict, now: datetime
) -> None:
    done = await standing_job.run(runtime=Runtime(engine=pay_engine, gateway=gateway))
    assert done.in_cart == 1
    assert _rows(pay_engine, Order, parent_id=home["parent_id"]) == []
    [line] = _rows(pay_engine, CartLine, parent_id=home["parent_id"])
    assert line.child_id == home["child_id"] and line.meal_id == home["pizza"]
    [mail] = _mails(pay_engine, home["email"])
    assert "dans votre panier" in mail.subject
    assert "aucune carte enregistrée" in mail.body_text
    assert "/parent/edit-profile/cart" in mail.body_text


async def test_a_declined_card_leaves_it_in_the_cart_with_an_email(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, home: dict, now: datetime
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    card = await _save_card(pay_engine, gateway, live_sim, home["parent_id"])
    with session_scope(pay_engine) as s:  # the card's token no longer works at Converge
        row = s.get(StoredCard, card.id)
        row.converge_token = "0000000000000000"
        s.add(row)
    done = await standing_job.run(runtime=runtime)
    assert done.in_cart == 1 and done.booked == 0
    [order] = _rows(pay_engine, Order, parent_id=home["parent_id"])
    assert order.status == OrderStatus.PAYMENT_FAILED
    assert len(_rows(pay_engine, CartLine, parent_id=home["parent_id"])) == 1
    [mail] = _mails(pay_engine, home["email"])
    assert "a été refusée" in mail.body_text
    # The next round does not charge again.
    await standing_job.run(runtime=runtime)
    assert len(_rows(pay_engine, Payment, order_id=order.id)) == 1
    assert len(_mails(pay_engine, home["email"])) == 1


async def test_paused_or_ended_books_nothing_and_resumed_books(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, home: dict, now: datetime
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    await _save_card(pay_engine, gateway, live_sim, home["parent_id"])
    with session_scope(pay_engine) as s:
        paused = standing.change(
            session=s, parent_id=home["parent_id"], standing_id=home["standing_id"], action="pause"
        )
    assert paused.status == "paused"
    assert (await standing_job.run(runtime=runtime)).dates == []
    with session_scope(pay_engine) as s:
        standing.change(
            session=s, parent_id=home["parent_id"], standing_id=home["standing_id"], action="end"
        )
    assert (await standing_job.run(runtime=runtime)).dates == []
    assert _rows(pay_engine, Order, parent_id=home["parent_id"]) == []
    with session_scope(pay_engine) as s:
        with pytest.raises(DomainError) as ended:
            standing.change(
                session=s,
                parent_id=home["parent_id"],
                standing_id=home["standing_id"],
                action="resume",
            )
        assert ended.value.code == "standing_ended"
        # Another standing order, paused then resumed, books.
        again = standing.create(
            session=s,
            parent_id=home["parent_id"],
            child_id=home["child_id"],
            meal_id=home["pizza"],
            weekday=0,
        )
        standing.change(
            session=s, parent_id=home["parent_id"], standing_id=again.id, action="pause"
        )
        standing.change(
            session=s, parent_id=home["parent_id"], standing_id=again.id, action="resume"
        )
    assert (await standing_job.run(runtime=runtime)).booked == 1


async def test_a_cutoff_that_passed_while_the_job_was_down_is_not_made_up(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, home: dict, now: datetime
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    await _save_card(pay_engine, gateway, live_sim, home["parent_id"])
    after = datetime.combine(MONDAY - timedelta(days=1), time(10, 30), tzinfo=TORONTO)
    done = await standing_job.run(runtime=replace(runtime, clock=lambda: after))
    assert done.dates == [] and _rows(pay_engine, Order, parent_id=home["parent_id"]) == []
    # Its cut-off passed: "Next" is the Monday after, which the job can still book.
    assert _next_date(pay_engine, home, after) == (MONDAY + timedelta(days=7)).isoformat()
    # Made up just before it.
    before = datetime.combine(MONDAY - timedelta(days=1), time(9, 30), tzinfo=TORONTO)
    assert (await standing_job.run(runtime=replace(runtime, clock=lambda: before))).booked == 1


def test_only_the_parents_own_child_meal_and_standing_orders(pay_engine: Engine, home: dict):
    with session_scope(pay_engine) as s:
        stranger = f.make_parent(s)
        theirs = f.make_child(s, stranger)
        nut = f.make_meal(s, home["vendor"], allergens=["Peanuts"])
        allergic = f.make_child(s, s.get(Parent, home["parent_id"]), allergies={"Peanuts": "Major"})
        cases = [
            (dict(child_id=theirs.id, meal_id=home["pizza"], weekday=0), "child_not_found"),
            (dict(child_id=home["child_id"], meal_id=home["pizza"], weekday=5), "standing_bad_day"),
            (dict(child_id=allergic.id, meal_id=nut.id, weekday=1), "allergy_refused"),
            (
                dict(child_id=home["child_id"], meal_id=home["pizza"], until="date", ends_on="x"),
                "standing_bad_end",
            ),
        ]
        for kwargs, code in cases:
            with pytest.raises(DomainError) as err:
                standing.create(session=s, parent_id=home["parent_id"], **kwargs)
            assert err.value.code == code
        with pytest.raises(DomainError) as err:
            standing.change(
                session=s, parent_id=stranger.id, standing_id=home["standing_id"], action="end"
            )
        assert err.value.code == "standing_not_found"


async def test_a_day_already_in_the_cart_is_skipped_quietly(
    pay_engine: Engine, gateway: ConvergeClient, home: dict, now: datetime
) -> None:
    from hotmeals.services.ordering import cart

    with session_scope(pay_engine) as s:
        cart.add_to_cart(
            session=s,
            parent_id=home["parent_id"],
            child_id=home["child_id"],
            meal_id=home["pizza"],
            menu_day_id=home["menu_day"],
        )
    await standing_job.run(runtime=Runtime(engine=pay_engine, gateway=gateway))
    [run] = _rows(pay_engine, StandingOrderRun, standing_order_id=home["standing_id"])
    assert (run.status, run.reason) == ("skipped", "booked")
    assert len(_rows(pay_engine, CartLine, parent_id=home["parent_id"])) == 1
    assert _rows(pay_engine, Order, parent_id=home["parent_id"]) == []
    assert _mails(pay_engine, home["email"]) == []


async def test_a_child_not_confirmed_for_the_new_school_year_is_not_booked(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, home: dict, now: datetime
) -> None:
    """The start of a school year stops a standing order too: a child added
    last school year and not confirmed for this one is skipped, and the parent is told why."""
    await _save_card(pay_engine, gateway, live_sim, home["parent_id"])
    with session_scope(pay_engine) as s:
        emma = s.get(Child, home["child_id"])
        emma.created_at = (NOW - timedelta(days=400)).astimezone(UTC)
        s.add(emma)
    done = await standing_job.run(runtime=Runtime(engine=pay_engine, gateway=gateway))
    assert (done.booked, done.skipped) == (0, 1)
    assert _rows(pay_engine, Order, parent_id=home["parent_id"]) == []
    [run] = _rows(pay_engine, StandingOrderRun, standing_order_id=home["standing_id"])
    assert run.reason == "school_year"
    [mail] = _mails(pay_engine, home["email"])
    assert "année scolaire n'est pas encore confirmée" in mail.body_text


def _sweeper(url: str, settings: object, now: datetime, barrier: object, out: object) -> None:
    """One server worker's round, in its own process: its own engine, connections and
    Converge client; only the database is shared (and the clock, inherited by the fork)."""
    import asyncio

    from hotmeals.db.engine import make_engine

    engine = make_engine(url)

    async def main() -> standing_job.Round:
        async with ConvergeClient(settings, timeout=PATIENT) as client:
            barrier.wait(timeout=60)  # type: ignore[attr-defined]
            return await standing_job.run(
                runtime=Runtime(engine=engine, gateway=client, clock=lambda: now)
            )

    try:
        done = asyncio.run(main())
        out.put(("ok", len(done.dates)))  # type: ignore[attr-defined]
    except Exception as exc:  # noqa: BLE001 - the test reads what each process got
        out.put(("error", repr(exc)))  # type: ignore[attr-defined]
    finally:
        engine.dispose()


def _sweep_in_processes(engine: Engine, sim: SimServer, now: datetime, n: int) -> list[tuple]:
    import multiprocessing

    url = engine.url.render_as_string(hide_password=False)
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(n)
    out = context.Queue()
    engine.dispose()  # no pooled connection is inherited by the children
    processes = [
        context.Process(target=_sweeper, args=(url, sim.settings, now, barrier, out))
        for _ in range(n)
    ]
    for process in processes:
        process.start()
    try:
        return sorted(out.get(timeout=180) for _ in processes)
    finally:
        for process in processes:
            process.join(timeout=60)


@pytest.mark.timeout(300)
async def test_two_worker_processes_and_a_restart_book_and_charge_once(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, home: dict, now: datetime
) -> None:
    """Two server workers (separate processes, one database) sweep at the same moment, then a
    restarted worker sweeps again: one order and one sale for the date."""
    await _save_card(pay_engine, gateway, live_sim, home["parent_id"])
    live_sim.control("fault", kind="delay:1", scope="xml")  # the charge takes a second
    assert _sweep_in_processes(pay_engine, live_sim, now, 2) == [("ok", 0), ("ok", 1)]
    assert _sweep_in_processes(pay_engine, live_sim, now, 1) == [("ok", 0)]  # the restart
    [order] = _rows(pay_engine, Order, parent_id=home["parent_id"])
    assert order.status == OrderStatus.PLACED
    [payment] = _rows(pay_engine, Payment, order_id=order.id)
    assert payment.state == PaymentState.APPROVED
    assert len(sim_txns(live_sim, payment.invoice_number, "SALE")) == 1
    [run] = _rows(pay_engine, StandingOrderRun, standing_order_id=home["standing_id"])
    assert run.meal_date == MONDAY
