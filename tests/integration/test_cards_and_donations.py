"""Saved cards (add through the hosted form, list, delete) and donations (limits, school,
history) through the services, on SQLite and PostgreSQL, against the simulator over HTTP."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import select

from hotmeals import clock
from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import session_scope
from hotmeals.db.models import Donation, StoredCard
from hotmeals.domain.errors import DomainError
from hotmeals.services import cards, donations, payments
from hotmeals.services.runtime import Runtime
from tests.factories import make_child, make_parent, make_school
from tests.payments_support import MASTERCARD, VISA, SimServer, lightbox_submit


async def add_card(engine, gateway, sim, family, number=VISA) -> cards.CardView:
    runtime = Runtime(engine=engine, gateway=gateway)
    session = await cards.start_add_card(parent_id=family["parent_id"], runtime=runtime)
    assert session.transaction_type == "ccgettoken"
    answer = lightbox_submit(sim, session.token, number=number)
    assert answer["outcome"] == "approval"
    return await cards.save_card(
        parent_id=family["parent_id"],
        token=answer["response"]["ssl_token"],
        runtime=runtime,
    )


async def test_a_card_added_through_the_hosted_form_is_listed_without_its_number(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    card = await add_card(pay_engine, gateway, live_sim, family)
    assert (card.brand, card.masked, card.last4, card.expiry) == (
        "VISA",
        "40**********0002",
        "0002",
        "12/30",
    )
    with session_scope(pay_engine) as db:
        assert cards.list_cards(db, parent_id=family["parent_id"]) == [card]
        row = db.get(StoredCard, card.id)
        stored = " ".join(str(v) for v in row.model_dump().values())
    assert VISA not in stored and row.exp_month == 12 and row.exp_year == 2030


async def test_saving_the_same_token_twice_keeps_one_card(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    session = await cards.start_add_card(parent_id=family["parent_id"], runtime=runtime)
    token = lightbox_submit(live_sim, session.token, number=MASTERCARD)["response"]["ssl_token"]
    first = await cards.save_card(parent_id=family["parent_id"], token=token, runtime=runtime)
    again = await cards.save_card(parent_id=family["parent_id"], token=token, runtime=runtime)
    assert first == again and first.brand == "MC"
    # Another parent cannot claim it.
    with session_scope(pay_engine) as db:
        other = make_parent(db).id
    with pytest.raises(DomainError) as info:
        await cards.save_card(parent_id=other, token=token, runtime=runtime)
    assert info.value.code == "card_not_verified"


async def test_an_unknown_or_malformed_token_is_not_stored(
    pay_engine: Engine, gateway: ConvergeClient, family: dict
) -> None:
    for token in ("1234567890120002", "", "<xml/>", "x" * 64):
        with pytest.raises(DomainError) as info:
            await cards.save_card(
                parent_id=family["parent_id"],
                token=token,
                runtime=Runtime(engine=pay_engine, gateway=gateway),
            )
        assert info.value.code == "card_not_verified"


async def test_a_card_saved_while_paying_is_checked_against_the_sale(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    session = await donations.start_donation(
        parent_id=family["parent_id"],
        amount="12.00",
        save_card=True,
        runtime=runtime,
    )
    answer = lightbox_submit(live_sim, session.token, number=MASTERCARD)
    response = answer["response"]
    view = await payments.confirm_payment(
        payment_id=session.payment_id,
        txn_id=response["ssl_txn_id"],
        runtime=runtime,
    )
    card = await cards.save_card(
        parent_id=family["parent_id"],
        token=response["ssl_token"],
        expect_masked=view.card_masked,
        runtime=runtime,
    )
    assert card.masked == view.card_masked == "51**********2124"
    other = await add_card(pay_engine, gateway, live_sim, family, number=VISA)
    with pytest.raises(DomainError):  # a token for another card than the one that paid
        await cards.save_card(
            parent_id=family["parent_id"],
            token=response["ssl_token"],
            expect_masked=other.masked,
            runtime=runtime,
        )


async def test_deleting_a_card_forgets_it_at_converge_and_here(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    card = await add_card(pay_engine, gateway, live_sim, family)
    with session_scope(pay_engine) as db:
        other_parent = make_parent(db).id
    with pytest.raises(DomainError) as info:
        await cards.delete_card(parent_id=other_parent, card_id=card.id, runtime=runtime)
    assert info.value.code == "card_not_found"

    await cards.delete_card(parent_id=family["parent_id"], card_id=card.id, runtime=runtime)
    assert live_sim.get("state")["tokens"] == []
    with session_scope(pay_engine) as db:
        assert cards.list_cards(db, parent_id=family["parent_id"]) == []
        assert db.get(StoredCard, card.id).deleted_at is not None
    with pytest.raises(DomainError) as info:
        await cards.delete_card(parent_id=family["parent_id"], card_id=card.id, runtime=runtime)
    assert info.value.code == "card_not_found"


async def test_a_card_is_kept_when_converge_cannot_delete_it(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    card = await add_card(pay_engine, gateway, live_sim, family)
    live_sim.control("fault", kind="http_500", scope="xml")
    with pytest.raises(DomainError) as info:
        await cards.delete_card(
            parent_id=family["parent_id"],
            card_id=card.id,
            runtime=Runtime(engine=pay_engine, gateway=gateway),
        )
    assert info.value.code == "card_delete_failed"
    with session_scope(pay_engine) as db:
        assert [c.id for c in cards.list_cards(db, parent_id=family["parent_id"])] == [card.id]


@pytest.mark.parametrize(
    ("amount", "code"),
    [
        ("0.99", "donation_amount_range"),
        ("500.01", "donation_amount_range"),
        (99, "donation_amount_range"),
        ("abc", "invalid_amount"),
        ("-5", "invalid_amount"),
        ("1.001", "invalid_amount"),
        (True, "invalid_amount"),
    ],
)
def test_donation_amounts_are_one_to_five_hundred_dollars(amount: object, code: str) -> None:
    with pytest.raises(DomainError) as info:
        donations.parse_amount(amount)
    assert info.value.code == code


def test_donation_amounts_in_range_are_read_as_cents() -> None:
    assert donations.parse_amount("1") == 100
    assert donations.parse_amount("$10.50") == 1050
    assert donations.parse_amount("500.00") == 50_000
    assert donations.parse_amount(2000) == 2000


async def test_a_donation_goes_to_a_school_of_the_parents_children(
    pay_engine: Engine, gateway: ConvergeClient, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    with session_scope(pay_engine) as db:
        foreign = make_school(db).id
        lonely = make_parent(db).id
        schools = donations.donation_schools(db, parent_id=family["parent_id"])
    assert [s.id for s in schools] == [family["school_id"]]
    with pytest.raises(DomainError) as info:
        await donations.start_donation(
            parent_id=family["parent_id"],
            amount="5",
            school_id=foreign,
            runtime=runtime,
        )
    assert info.value.code == "school_not_found"
    with pytest.raises(DomainError) as info:
        await donations.start_donation(parent_id=lonely, amount="5", runtime=runtime)
    assert info.value.code == "school_required"
    session = await donations.start_donation(
        parent_id=family["parent_id"], amount="5", runtime=runtime
    )
    with session_scope(pay_engine) as db:
        donation = db.exec(select(Donation).where(Donation.parent_id == family["parent_id"])).all()[
            -1
        ]
    assert donation.school_id == family["school_id"] and donation.status == "PENDING"
    assert session.amount_cents == 500 and session.purpose == "DONATION"


async def test_donation_history_lists_paid_donations_only(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    with session_scope(pay_engine) as db:
        parent = make_parent(db)
        second = make_school(db, name="Maple Grove Public School")
        make_child(db, parent, is_default=True)
        make_child(db, parent, school=second)
        parent_id, second_id = parent.id, second.id
    paid = await donations.start_donation(
        parent_id=parent_id, amount="20", school_id=second_id, runtime=runtime
    )
    txn = lightbox_submit(live_sim, paid.token)["response"]["ssl_txn_id"]
    await payments.confirm_payment(payment_id=paid.payment_id, txn_id=txn, runtime=runtime)
    await donations.start_donation(  # abandoned: never paid
        parent_id=parent_id, amount="10", runtime=runtime
    )
    with session_scope(pay_engine) as db:
        history = donations.list_donations(db, parent_id=parent_id)
    assert len(history) == 1
    entry = history[0]
    assert entry.school == "Maple Grove Public School" and entry.status == "PAID"
    assert entry.amount_cents == 2000
    assert entry.card == "VISA 40**********0002"


async def test_a_saved_card_donation_retried_after_a_lost_answer_is_charged_once(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    """The charge is made but its answer is lost; the retry with the same key
    charges nothing more and answers that payment (UNKNOWN, then APPROVED once the
    reconciliation found the sale). Before, each call was a new donation and a new charge."""
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    from tests.payments_support import SHORT, sim_txns

    card = await add_card(pay_engine, gateway, live_sim, family)
    live_sim.control("fault", kind="lost_answer", scope="xml")
    async with ConvergeClient(live_sim.settings, timeout=SHORT) as impatient:
        lost = await donations.donate_with_saved_card(
            parent_id=family["parent_id"],
            amount="12.00",
            card_id=card.id,
            request_key="gift-1",
            runtime=Runtime(engine=pay_engine, gateway=impatient),
        )
    assert lost.state == "UNKNOWN" and lost.result_message != "in flight"
    retried = await donations.donate_with_saved_card(
        parent_id=family["parent_id"],
        amount="12.00",
        card_id=card.id,
        request_key="gift-1",
        runtime=runtime,
    )
    assert retried.id == lost.id and retried.state == "UNKNOWN"
    assert len(sim_txns(live_sim, lost.invoice_number, "SALE")) == 1
    found = await payments.reconcile_payment(payment_id=lost.id, runtime=runtime)
    assert found.state == "APPROVED"
    again = await donations.donate_with_saved_card(
        parent_id=family["parent_id"],
        amount="12.00",
        card_id=card.id,
        request_key="gift-1",
        runtime=runtime,
    )
    assert again.id == lost.id and again.state == "APPROVED"
    with session_scope(pay_engine) as db:
        gifts = db.exec(select(Donation).where(Donation.parent_id == family["parent_id"])).all()
    assert [(g.amount_cents, g.status) for g in gifts] == [(1200, "PAID")]
    sales = [t for t in live_sim.get("transactions") if t["kind"] == "SALE"]
    assert sum(1 for t in sales if t["amount_cents"] == 1200) == 1


class _Searching:
    """The real client, counting the round's searches by date and the invoices it was asked
    about one by one (``find_by_invoice``)."""

    def __init__(self, inner: ConvergeClient) -> None:
        self.inner = inner
        self.searches = 0
        self.one_by_one = 0

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    async def search(self, **kw):
        self.searches += 1
        return await self.inner.search(**kw)

    async def find_by_invoice(self, invoice_number, **kw):
        self.one_by_one += 1
        return await self.inner.find_by_invoice(invoice_number, **kw)


async def test_one_reconciliation_round_searches_converge_once_for_all_its_open_attempts(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    """Converge's search by date lists every transaction of its days, so a round
    with several open attempts of the same days searches once and picks each attempt's
    invoice out of that answer, with the same outcome as asking one by one: the attempt paid
    in the Lightbox (its confirmation lost) is approved, the abandoned ones expire."""

    from hotmeals.db.models import Payment
    from hotmeals.domain.payment_states import PaymentState

    sessions = [
        await donations.start_donation(
            parent_id=family["parent_id"],
            amount=amount,
            runtime=Runtime(engine=pay_engine, gateway=gateway),
        )
        for amount in ("4.00", "5.00", "6.00")
    ]
    lightbox_submit(live_sim, sessions[1].token, number=VISA)  # paid; the browser never says
    counting = _Searching(gateway)
    later = clock.now() + payments.SESSION_WINDOW + payments.SESSION_WINDOW
    await payments.reconcile_open_payments(
        runtime=Runtime(engine=pay_engine, gateway=counting, clock=lambda: later)
    )
    with session_scope(pay_engine) as s:
        states = [s.get(Payment, x.payment_id).state for x in sessions]
    assert states == [PaymentState.EXPIRED, PaymentState.APPROVED, PaymentState.EXPIRED]
    # One search per range of days (all three were made today; two only across midnight),
    # however many open attempts, this module's others included; none asked one by one.
    assert 1 <= counting.searches <= 2 and counting.one_by_one == 0
