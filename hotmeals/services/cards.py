"""Saved cards ("manage payment methods"): add through the hosted form, list, delete.

A card is added in the browser, never through our server: either a ``ccgettoken`` Lightbox
session (``start_add_card``, the payment methods screen) or a sale whose payer ticked "save
card" (``ssl_get_token``/``ssl_add_token``). Either way the browser hands back Converge's token;
``save_card`` asks Converge about it (``ccquerytoken``) and stores only what Converge answers:
brand, masked number and expiry, plus the token to charge later. Never the number or CVV.

Deleting asks Converge to forget the token first (``ccdeletetoken``) and then marks the row
deleted; a token Converge no longer knows is deleted here too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from sqlalchemy import func, update
from sqlmodel import Session, col, select

from hotmeals.clock import now as utcnow
from hotmeals.converge.gateway import SessionTokenError, TokenResult
from hotmeals.db.models import Parent, StoredCard
from hotmeals.domain.errors import DomainError
from hotmeals.services.payments.records import (
    PaymentView,
    audit,
    lock_row,
    rowcount,
    saved_id,
)
from hotmeals.services.payments.runtime import actor_of, lightbox_script_url
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

CARD_LIMIT = 10
_TOKEN_RE = re.compile(r"^[A-Za-z0-9]{8,32}$")
_EXP_RE = re.compile(r"^(0[1-9]|1[0-2])(\d\d)$")


@dataclass(frozen=True)
class CardView:
    id: int
    brand: str
    masked: str
    last4: str
    expiry: str  # MM/YY, '' when unknown
    created_at: str


@dataclass(frozen=True)
class CardSession:
    """A ``ccgettoken`` Lightbox session: the browser opens it to add a card."""

    token: str = field(repr=False)
    lightbox_url: str
    transaction_type: str = "ccgettoken"


def card_view(card: StoredCard) -> CardView:
    expiry = ""
    if card.exp_month and card.exp_year:
        expiry = f"{card.exp_month:02d}/{card.exp_year % 100:02d}"
    return CardView(
        id=saved_id(card),
        brand=card.brand,
        masked=card.masked,
        last4=card.masked[-4:],
        expiry=expiry,
        created_at=card.created_at.isoformat(),
    )


def default_card(cards: Sequence[CardView], today: date) -> CardView | None:
    """The saved card a payment starts with: the one saved last among those not expired on
    ``today`` (a card without a known expiry counts as valid); None when there is none."""

    def valid(card: CardView) -> bool:
        found = re.fullmatch(r"(\d\d)/(\d\d)", card.expiry)
        if found is None:
            return True
        return (2000 + int(found[2]), int(found[1])) >= (today.year, today.month)

    return max((c for c in cards if valid(c)), key=lambda c: c.id, default=None)


def list_cards(session: Session, *, parent_id: int) -> list[CardView]:
    rows = session.exec(
        select(StoredCard)
        .where(StoredCard.parent_id == parent_id, col(StoredCard.deleted_at).is_(None))
        .order_by(col(StoredCard.id))
    ).all()
    return [card_view(c) for c in rows]


def _names(session: Session, *, parent_id: int) -> tuple[str, str]:
    parent = session.get(Parent, parent_id)
    if parent is None:
        raise DomainError("card_not_verified")
    return parent.first_name, parent.last_name


async def start_add_card(
    *,
    parent_id: int,
    runtime: Runtime = APP,
) -> CardSession:
    """A Lightbox session that saves a card without charging it."""
    gw = runtime.converge
    first, last = await run_in_transaction(_names, engine=runtime.engine, parent_id=parent_id)
    try:
        token = await gw.create_session_token(
            0, "", transaction_type="ccgettoken", first_name=first, last_name=last
        )
    except SessionTokenError:
        raise DomainError("payment_unavailable") from None
    return CardSession(token=token, lightbox_url=lightbox_script_url(gw))


def _parse_exp(exp_date: str) -> tuple[int | None, int | None]:
    match = _EXP_RE.match((exp_date or "").strip())
    if match is None:
        return None, None
    return int(match.group(1)), 2000 + int(match.group(2))


def _store(
    session: Session, *, parent_id: int, token: str, answer: TokenResult, actor: str
) -> CardView:
    # Lock the parent: two tabs saving the same card at once store it once.
    if lock_row(session, Parent, parent_id) is None:
        raise DomainError("card_not_verified")
    rows = session.exec(
        select(StoredCard).where(
            StoredCard.converge_token == token, col(StoredCard.deleted_at).is_(None)
        )
    ).all()
    for row in rows:
        if row.parent_id == parent_id:
            return card_view(row)
    if rows:  # another parent's card: say no more than "not verified"
        raise DomainError("card_not_verified")
    count = session.exec(
        select(func.count())
        .select_from(StoredCard)
        .where(StoredCard.parent_id == parent_id, col(StoredCard.deleted_at).is_(None))
    ).one()
    if count >= CARD_LIMIT:
        raise DomainError("card_limit", max=CARD_LIMIT)
    month, year = _parse_exp(answer.exp_date)
    card = StoredCard(
        parent_id=parent_id,
        converge_token=token,
        brand=(answer.card_brand or "")[:20],
        masked=(answer.card_masked or "")[:24],
        exp_month=month,
        exp_year=year,
        created_at=utcnow(),
    )
    session.add(card)
    session.flush()
    view = card_view(card)
    audit(
        session,
        actor=actor,
        kind="card.added",
        entity="stored_card",
        entity_id=view.id,
        data={"brand": card.brand, "card": card.masked, "expiry": view.expiry},
    )
    return view


async def save_card(
    *,
    parent_id: int,
    token: str,
    expect_masked: str | None = None,
    actor: str | None = None,
    runtime: Runtime = APP,
) -> CardView:
    """Store the card behind a token the browser got from the Lightbox, once Converge says it
    exists (``query_token``). ``expect_masked``: the masked number of the sale that produced
    the token, which must match (a token cannot be swapped for another card)."""
    gw = runtime.converge
    token = (token or "").strip()
    if not _TOKEN_RE.match(token):
        raise DomainError("card_not_verified")
    answer = await gw.query_token(token)
    if not isinstance(answer, TokenResult):
        raise DomainError("payment_unavailable")
    if not answer.ok or not answer.card_masked:
        raise DomainError("card_not_verified")
    if expect_masked and expect_masked[-4:] != answer.card_masked[-4:]:
        raise DomainError("card_not_verified")
    return await run_in_transaction(
        _store,
        engine=runtime.engine,
        parent_id=parent_id,
        token=token,
        answer=answer,
        actor=actor_of(parent_id, actor),
    )


async def save_paying_card(
    paid: PaymentView,
    card_token: str | None,
    *,
    runtime: Runtime = APP,
) -> CardView | None:
    """After the approved Lightbox sale ``paid``, whose payer asked to keep the card: save
    the card behind ``card_token`` for the payer if it is the card that paid. None when there
    is no token or the card cannot be saved: the payment stands all the same."""
    if not card_token:
        return None
    try:
        return await save_card(
            parent_id=paid.parent_id,
            token=card_token,
            expect_masked=paid.card_masked,
            runtime=runtime,
        )
    except DomainError:
        return None


def _token_of(session: Session, *, parent_id: int, card_id: int) -> str:
    card = session.get(StoredCard, card_id)
    if card is None or card.parent_id != parent_id or card.deleted_at is not None:
        raise DomainError("card_not_found")
    return card.converge_token


def _mark_deleted(session: Session, *, parent_id: int, card_id: int, actor: str) -> None:
    card = lock_row(session, StoredCard, card_id)
    if card is None or card.parent_id != parent_id:
        raise DomainError("card_not_found")
    moved = rowcount(
        session.execute(
            update(StoredCard)
            .where(col(StoredCard.id) == card_id, col(StoredCard.deleted_at).is_(None))
            .values(deleted_at=utcnow())
            .execution_options(synchronize_session=False)
        )
    )
    if moved == 1:
        audit(
            session,
            actor=actor,
            kind="card.deleted",
            entity="stored_card",
            entity_id=card_id,
            data={"brand": card.brand, "card": card.masked},
        )


async def delete_card(
    *,
    parent_id: int,
    card_id: int,
    actor: str | None = None,
    runtime: Runtime = APP,
) -> None:
    """Forget the card at Converge, then here. Deleting twice is not an error."""
    engine, gw = runtime.engine, runtime.converge
    token = await run_in_transaction(_token_of, engine=engine, parent_id=parent_id, card_id=card_id)
    answer = await gw.delete_token(token)
    gone = isinstance(answer, TokenResult) and (
        answer.ok or answer.token_response.lower() == "invalid token"
    )
    if not gone:
        raise DomainError("card_delete_failed")
    await run_in_transaction(
        _mark_deleted,
        engine=engine,
        parent_id=parent_id,
        card_id=card_id,
        actor=actor_of(parent_id, actor),
    )
