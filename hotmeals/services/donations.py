"""Donations: a parent gives $1 to $500 to a child's school, paid by card.

``reserve_donation`` writes a PENDING ``Donation`` and its ``Payment`` (purpose DONATION) in
one transaction; the caller then opens the hosted session or charges a saved card (the same two
doors every purpose uses). The donation becomes PAID in the same transaction that records the
confirmed approval, FAILED when the payment is declined, errors or expires, and REFUNDED when
refunded in full: ``DonationPayment`` below, registered with the payment service by
``services/startup.py``. History lists PAID and REFUNDED donations: attempts that never went
through are not donations.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import update
from sqlmodel import Session, col, select

from hotmeals.clock import now as utcnow
from hotmeals.db.models import Child, Donation, Payment, Refund, School, StoredCard
from hotmeals.domain.errors import DomainError, suppress_refusal
from hotmeals.domain.money import parse_decimal_string
from hotmeals.domain.payment_states import (
    DONATION_HISTORY,
    DonationStatus,
    PaymentState,
    Purpose,
    RefundState,
    can_transition,
)
from hotmeals.services.payment_outcome import await_charge
from hotmeals.services.payments import (
    HostedSession,
    charge_stored_card,
    open_hosted_session,
    reserve_payment,
)
from hotmeals.services.payments.purposes import PurposeHandler
from hotmeals.services.payments.records import (
    PaymentView,
    get_payment,
    insert_audited,
    payment_view,
    refund_sum,
    rowcount,
    saved_id,
)
from hotmeals.services.payments.runtime import actor_of
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.submissions import submit_once
from hotmeals.services.transaction import run_in_transaction

MIN_DONATION_CENTS = 100
MAX_DONATION_CENTS = 50_000
PRESET_CENTS = (500, 1000, 2000)
"""The amounts offered as buttons on the donate screen."""


def parse_amount(value: str | int) -> int:
    """The amount a parent typed or chose ("10", "10.00", 1000 cents) as cents, within the
    limits; ``invalid_amount`` or ``donation_amount_range``."""
    if isinstance(value, bool):
        raise DomainError("invalid_amount", field="amount")
    if isinstance(value, int):
        cents = value
    else:
        text = value.strip().lstrip("$").strip().replace(",", ".")
        cents = parse_decimal_string(text)
    if not MIN_DONATION_CENTS <= cents <= MAX_DONATION_CENTS:
        raise DomainError(
            "donation_amount_range",
            field="amount",
            min=MIN_DONATION_CENTS // 100,
            max=MAX_DONATION_CENTS // 100,
        )
    return cents


@dataclass(frozen=True)
class DonationSchool:
    id: int
    name: str


def donation_schools(session: Session, *, parent_id: int) -> list[DonationSchool]:
    """The schools of the parent's active children, the default child's first."""
    children = session.exec(
        select(Child)
        .where(Child.parent_id == parent_id, col(Child.is_active).is_(True))
        .order_by(col(Child.is_default).desc(), col(Child.id))
    ).all()
    seen: list[int] = []
    for child in children:
        if child.school_id not in seen:
            seen.append(child.school_id)
    schools = {
        s.id: s
        for s in session.exec(
            select(School).where(col(School.id).in_(seen), col(School.is_active).is_(True))
        ).all()
    }
    return [DonationSchool(id=sid, name=schools[sid].name) for sid in seen if sid in schools]


def _create(
    session: Session,
    *,
    parent_id: int,
    amount_cents: int,
    school_id: int | None,
    actor: str,
) -> tuple[int, int]:
    schools = donation_schools(session, parent_id=parent_id)
    allowed = {s.id for s in schools}
    if school_id is None:
        if not schools:
            raise DomainError("school_required", field="school")
        school_id = schools[0].id
    elif school_id not in allowed:
        raise DomainError("school_not_found", field="school")
    donation = Donation(
        parent_id=parent_id,
        school_id=school_id,
        amount_cents=amount_cents,
        status=DonationStatus.PENDING,
        created_at=utcnow(),
    )
    donation_id = insert_audited(
        session,
        donation,
        actor=actor,
        kind="donation.created",
        entity="donation",
        data={"amount_cents": amount_cents, "school_id": school_id},
    )
    payment = reserve_payment(
        session,
        parent_id=parent_id,
        purpose=Purpose.DONATION,
        amount_cents=amount_cents,
        donation_id=donation_id,
        actor=actor,
    )
    return donation_id, saved_id(payment)


async def reserve_donation(
    *,
    parent_id: int,
    amount: str | int,
    school_id: int | None = None,
    runtime: Runtime = APP,
) -> int:
    """A PENDING donation and its CREATED payment; returns the payment id. ``amount``: cents
    (int) or text ("10.00")."""
    cents = parse_amount(amount)
    _donation_id, payment_id = await run_in_transaction(
        _create,
        engine=runtime.engine,
        parent_id=parent_id,
        amount_cents=cents,
        school_id=school_id,
        actor=actor_of(parent_id),
    )
    return payment_id


async def start_donation(
    *,
    parent_id: int,
    amount: str | int,
    school_id: int | None = None,
    save_card: bool = False,
    runtime: Runtime = APP,
) -> HostedSession:
    """A donation and its hosted card session."""
    payment_id = await reserve_donation(
        parent_id=parent_id, amount=amount, school_id=school_id, runtime=runtime
    )
    return await open_hosted_session(
        payment_id=payment_id,
        parent_id=parent_id,
        save_card=save_card,
        runtime=runtime,
    )


def _reserve_with_card(
    session: Session,
    *,
    parent_id: int,
    amount_cents: int,
    card_id: int,
    school_id: int | None,
    request_key: str | None,
) -> tuple[int, bool]:
    """(payment id, repeated): the donation and its payment, once per ``request_key`` (a
    repeat finds the first one's payment). The card is checked before anything is written."""

    def create(session: Session, parent_id: int) -> int:
        card = session.get(StoredCard, card_id)
        if card is None or card.parent_id != parent_id or card.deleted_at is not None:
            raise DomainError("card_not_found", field="card_id")
        _donation_id, payment_id = _create(
            session,
            parent_id=parent_id,
            amount_cents=amount_cents,
            school_id=school_id,
            actor=actor_of(parent_id),
        )
        return payment_id

    done = submit_once(
        session=session,
        parent_id=parent_id,
        key=request_key,
        action="donate_saved_card",
        fn=create,
        present=lambda payment_id: {"payment_id": payment_id},
    )
    return int(done.result["payment_id"]), done.repeated


async def donate_with_saved_card(
    *,
    parent_id: int,
    amount: str | int,
    card_id: int,
    school_id: int | None = None,
    request_key: str | None = None,
    runtime: Runtime = APP,
) -> PaymentView:
    """A donation charged at once to a saved card (no Lightbox). Safe to repeat by
    ``request_key`` (the API's ``Idempotency-Key``): a repeat charges nothing more
    and answers the first one's payment, once its charge has an outcome."""
    engine = runtime.engine
    cents = parse_amount(amount)
    payment_id, repeated = await run_in_transaction(
        _reserve_with_card,
        engine=engine,
        parent_id=parent_id,
        amount_cents=cents,
        card_id=card_id,
        school_id=school_id,
        request_key=request_key,
    )

    def current(session: Session) -> PaymentView:
        return payment_view(session, get_payment(session, payment_id, parent_id))

    if repeated:
        await await_charge(payment_id=payment_id, runtime=runtime)
        view = await run_in_transaction(current, engine=engine)
        if view.state != PaymentState.CREATED:
            return view  # charged (or being charged) by the first call: its outcome
    with suppress_refusal("payment_not_open"):
        return await charge_stored_card(
            payment_id=payment_id,
            parent_id=parent_id,
            card_id=card_id,
            runtime=runtime,
        )
    # A repeat racing the first call: the first charges; answer its outcome.
    await await_charge(payment_id=payment_id, runtime=runtime)
    return await run_in_transaction(current, engine=engine)


@dataclass(frozen=True)
class DonationView:
    id: int
    amount_cents: int
    school_id: int | None
    school: str  # its name ("" when gone)
    status: DonationStatus
    created_at: datetime
    card: str  # the card that paid ("VISA 40**…0002"), "" when none


def list_donations(session: Session, *, parent_id: int) -> list[DonationView]:
    """Donation history, newest first: PAID and REFUNDED donations."""
    rows = session.exec(
        select(Donation, School, Payment)
        .join(School, col(School.id) == col(Donation.school_id), isouter=True)
        .join(
            Payment,
            (col(Payment.donation_id) == col(Donation.id))
            & (col(Payment.state) == PaymentState.APPROVED),
            isouter=True,
        )
        .where(Donation.parent_id == parent_id, col(Donation.status).in_(DONATION_HISTORY))
        .order_by(col(Donation.created_at).desc(), col(Donation.id).desc())
    ).all()
    return [
        DonationView(
            id=donation.id or 0,
            amount_cents=donation.amount_cents,
            school_id=donation.school_id,
            school=school.name if school else "",
            status=DonationStatus(donation.status),
            created_at=donation.created_at,
            card=f"{payment.card_brand or ''} {payment.card_masked or ''}".strip()
            if payment
            else "",
        )
        for donation, school, payment in rows
    ]


# -- what a donation's payment does ---------------------------------------------------------


def _set_donation(session: Session, donation_id: int, to: DonationStatus) -> bool:
    """Move a donation to ``to`` if its table allows it from where it is (a conditional
    UPDATE per allowed source state, so a concurrent writer changes nothing twice)."""
    sources = [s for s in DonationStatus if can_transition(s, to)]
    moved = rowcount(
        session.execute(
            update(Donation)
            .where(col(Donation.id) == donation_id, col(Donation.status).in_(sources))
            .values(status=to)
            .execution_options(synchronize_session=False)
        )
    )
    return moved == 1


class DonationPayment(PurposeHandler):
    """A gift to a school: PAID once approved, FAILED if its only attempt failed, REFUNDED
    when refunds add up to the whole amount."""

    purpose = Purpose.DONATION

    def approved(self, session: Session, payment: Payment) -> None:
        if payment.donation_id is None:
            raise DomainError("payment_purpose_invalid")
        _set_donation(session, payment.donation_id, DonationStatus.PAID)

    def failed(self, session: Session, payment: Payment) -> None:
        if payment.donation_id is not None:
            _set_donation(session, payment.donation_id, DonationStatus.FAILED)

    def refunded(self, session: Session, payment: Payment, refund: Refund) -> None:
        if payment.duplicate_of_id is not None:
            return  # a duplicate sale voided: the gift stands on its own payment
        refunded = refund_sum(session, saved_id(payment), (RefundState.SUCCEEDED,))
        if payment.donation_id is not None and refunded >= payment.amount_cents:
            _set_donation(session, payment.donation_id, DonationStatus.REFUNDED)
