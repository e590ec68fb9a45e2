"""One tap is one record: a form submission carries an idempotency key, and the
second request with the same key changes nothing and gets the first one's answer.

Both doors use ``submit_once``: the Reflex states key each submission with
``submission_key`` below (a key per form opening, renewed when what is submitted changes), the
/api/v1 routes take an optional ``Idempotency-Key`` header. The key is stored with the record in
the same transaction, so a submission that fails leaves no key and can be tried again; the
unique (parent_id, key) refuses a repeat even when two workers race, and the parent's row is
locked first so that a repeat waits for the first answer instead of failing.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, Table, delete, update
from sqlmodel import Session, col, select

from hotmeals.clock import now as utcnow
from hotmeals.db.models import FormSubmission
from hotmeals.domain.errors import DomainError
from hotmeals.services.parents import hold_parent
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

KEY_MAX = 64
KEEP = timedelta(days=2)  # a repeat comes within seconds; a retrying client within hours
_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:")


@dataclass(frozen=True)
class Submitted:
    result: Any  # the first time's answer as the door presented it (JSON-able)
    repeated: bool  # True: this key was seen before and nothing was done


def checked_key(value: str | None) -> str | None:
    """A blank key is no key; otherwise 1-64 characters of ``[A-Za-z0-9-_.:]``."""
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    if len(text) > KEY_MAX or not set(text) <= _KEY_CHARS:
        raise DomainError("idempotency_key_invalid", field="idempotency_key")
    return text


def submit_once(
    *,
    session: Session,
    parent_id: int,
    key: str | None,
    action: str,
    fn: Callable[..., Any],
    present: Callable[[Any], Any] | None = None,
    **kwargs: Any,
) -> Submitted:
    """``fn(session=..., parent_id=..., **kwargs)`` once per ``(parent_id, key)``, its answer
    as the door presents it: ``present(result)``, JSON-able, so that a repeat gets back the
    door's own answer (without ``present``: a dataclass answer as a dict).

    Without a key, ``fn`` simply runs. With one seen before for the same ``action``, nothing
    runs and the first answer comes back (``repeated``); the same key for another action is
    refused (``idempotency_key_reused``)."""
    shape = present or _shaped
    checked = checked_key(key)
    if checked is None:
        return Submitted(shape(fn(session=session, parent_id=parent_id, **kwargs)), False)
    seen = _seen(session, parent_id=parent_id, key=checked, action=action)
    if seen is not None:
        return Submitted(json.loads(seen.result), repeated=True)
    result = shape(fn(session=session, parent_id=parent_id, **kwargs))
    _store(session, parent_id=parent_id, key=checked, action=action, result=result)
    return Submitted(result, repeated=False)


def _seen(session: Session, *, parent_id: int, key: str, action: str) -> FormSubmission | None:
    """The submission already stored under ``key``, read with the parent locked (a repeat in
    flight waits here for the first to commit). The same key for another action is refused."""
    hold_parent(session, parent_id)
    seen = _stored(session, parent_id=parent_id, key=key)
    if seen is not None and seen.action != action:
        raise DomainError("idempotency_key_reused", field="idempotency_key")
    return seen


def _stored(session: Session, *, parent_id: int, key: str) -> FormSubmission | None:
    return session.exec(
        select(FormSubmission).where(
            FormSubmission.parent_id == parent_id, FormSubmission.key == key
        )
    ).first()


def _store(session: Session, *, parent_id: int, key: str, action: str, result: Any) -> None:
    session.add(
        FormSubmission(
            parent_id=parent_id,
            key=key,
            action=action,
            result=json.dumps(result, default=str),
            created_at=utcnow(),
        )
    )
    session.flush()


# --- calls that charge: claimed before the charge, answered after -------------------------------
#
# A charge cannot run inside the transaction that records its key (Converge is called with no
# transaction open), so a call that charges claims its key first (an "in flight" answer, in
# its own committed transaction: the unique key lets one request through), then charges, then
# stores its answer. A repeat waits for that answer (``answer_of``) and gets it; a call that
# failed before charging anything releases its key so it can be tried again.

IN_FLIGHT = {"in_flight": True}


def claim(session: Session, *, parent_id: int, key: str | None, action: str) -> Any | None:
    """None: the key is this call's (charge, then ``remember``). Otherwise the first call's
    answer, or ``IN_FLIGHT`` while it is still running. ``key`` must not be blank."""
    checked = checked_key(key)
    if checked is None:
        raise ValueError("claim needs a key")
    if _insert_claim(session, parent_id=parent_id, key=checked, action=action):
        return None
    seen = _seen(session, parent_id=parent_id, key=checked, action=action)
    if seen is not None:
        return json.loads(seen.result)
    _store(session, parent_id=parent_id, key=checked, action=action, result=IN_FLIGHT)
    return None


def _insert_claim(session: Session, *, parent_id: int, key: str, action: str) -> bool:
    """True: ``key`` was free and is now claimed for ``action``, in one INSERT that does
    nothing when the key is taken (the unique ``(parent_id, key)``; on PostgreSQL it waits for
    a first claim still uncommitted). False: the key is taken (or the database has no such
    INSERT): ``claim`` reads it as before, with the parent locked."""
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    elif dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert  # type: ignore[assignment]
    else:  # pragma: no cover - the app runs on these two
        return False
    model: Any = FormSubmission
    table: Table = model.__table__
    done = session.execute(
        insert(table)
        .values(
            parent_id=parent_id,
            key=key,
            action=action,
            result=json.dumps(IN_FLIGHT, default=str),
            created_at=utcnow(),
        )
        .on_conflict_do_nothing(index_elements=[table.c.parent_id, table.c.key])
        .returning(table.c.id)
    )
    return done.first() is not None  # a row only when one was written


def remember(
    session: Session, *, parent_id: int, key: str | None, action: str, result: Any
) -> None:
    """Store the answer of a call that charged under ``key`` (claimed or not yet recorded)."""
    checked = checked_key(key)
    if checked is None:
        return
    text = json.dumps(_shaped(result), default=str)
    # The usual case, the key this call claimed: one UPDATE of its row.
    stored = session.execute(
        update(FormSubmission)
        .where(
            col(FormSubmission.parent_id) == parent_id,
            col(FormSubmission.key) == checked,
            col(FormSubmission.action) == action,
        )
        .values(result=text)
        .execution_options(synchronize_session=False)
    )
    if cast(CursorResult[Any], stored).rowcount == 1:
        return
    hold_parent(session, parent_id)
    row = _stored(session, parent_id=parent_id, key=checked)
    if row is None:
        row = FormSubmission(
            parent_id=parent_id, key=checked, action=action, result="", created_at=utcnow()
        )
    elif row.action != action:
        return
    row.result = text
    session.add(row)
    session.flush()


def recall(session: Session, *, parent_id: int, key: str | None, action: str) -> Any | None:
    """The answer stored under ``key`` for ``action`` (None: none)."""
    checked = checked_key(key)
    if checked is None:
        return None
    row = session.exec(
        select(FormSubmission).where(
            FormSubmission.parent_id == parent_id,
            FormSubmission.key == checked,
            FormSubmission.action == action,
        )
    ).first()
    return None if row is None else json.loads(row.result)


# Actions whose call may run again once its first run is known dead: AddOrder asks Converge
# about the sale before it places the order (one order per payment, a repeat gets it), and a
# Lightbox session moves no money. A stored card's charge is not among them: after a worker
# died mid-charge only Converge knows, and the payments round asks it.
RETAKEABLE = frozenset({"add_order", "pay_session"})


def retake(session: Session, *, parent_id: int, key: str | None, action: str) -> bool:
    """True: this call now owns ``key``, whose first call has been in flight longer than any
    call can take (``ANSWER_WAIT``: its worker died, say), so it runs the call again. One
    request wins even when two retry at once (a conditional update); an answer stored
    meanwhile, a younger claim or an action not in ``RETAKEABLE`` is never taken."""
    checked = checked_key(key)
    if checked is None or action not in RETAKEABLE:
        return False
    now = utcnow()
    done = session.execute(
        update(FormSubmission)
        .where(
            col(FormSubmission.parent_id) == parent_id,
            col(FormSubmission.key) == checked,
            col(FormSubmission.action) == action,
            col(FormSubmission.result) == json.dumps(IN_FLIGHT),
            col(FormSubmission.created_at) < now - ANSWER_WAIT,
        )
        .values(created_at=now)
    )
    return cast(CursorResult[Any], done).rowcount == 1


def release(session: Session, *, parent_id: int, key: str | None) -> None:
    """Forget a claim whose call failed before anything was charged."""
    checked = checked_key(key)
    if checked is None:
        return
    session.execute(
        delete(FormSubmission).where(
            col(FormSubmission.parent_id) == parent_id,
            col(FormSubmission.key) == checked,
            col(FormSubmission.result) == json.dumps(IN_FLIGHT),
        )
    )


ANSWER_WAIT = timedelta(seconds=45)  # longer than one Converge call may take


async def answer_of(
    *, parent_id: int, key: str | None, action: str, runtime: Runtime = APP, poll: float = 0.1
) -> Any:
    """The first call's answer under ``key``, waiting while it is in flight (up to
    ``ANSWER_WAIT``; then ``IN_FLIGHT``)."""
    deadline = runtime.now() + ANSWER_WAIT
    while True:
        found = await run_in_transaction(
            recall, engine=runtime.engine, parent_id=parent_id, key=key, action=action
        )
        if found != IN_FLIGHT or runtime.now() >= deadline:
            return found
        await asyncio.sleep(poll)


def _shaped(result: Any) -> Any:
    """A dataclass answer as a dict: the same shape the first time and on a repeat."""
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        return dataclasses.asdict(result)
    return result


def purge(session: Session, *, now: datetime) -> int:
    """Forget keys older than ``KEEP`` (housekeeping)."""
    done = session.exec(delete(FormSubmission).where(col(FormSubmission.created_at) < now - KEEP))
    return done.rowcount or 0


# --- the key of a form on a screen (used by the Reflex states) ---------------------------------


def _digest(payload: Any) -> str:
    text = json.dumps(payload, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def submission_key(previous: tuple[str, str], payload: Any) -> tuple[str, str]:
    """``(key, digest)`` for submitting ``payload`` from a form whose last submission was
    ``previous`` (``("", "")`` when the form was just opened).

    The same payload again - a double tap, a repeated websocket event - keeps the key, so the
    server answers it as a repeat; anything changed gets a new key, so editing A -> B -> A
    saves each time."""
    digest = _digest(payload)
    key, last = previous
    if key and digest == last:
        return key, digest
    return secrets.token_urlsafe(24), digest
