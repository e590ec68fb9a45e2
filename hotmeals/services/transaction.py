"""Run a service function in one transaction, from a thread or from the event loop.

The one way the Reflex states, the API routes and the services themselves (the payment
service between its network calls) run a service function in a transaction: open
``session_scope`` (commit on return, roll back on any error), call ``fn(session=..., **kw)``,
and from async code do it on a worker thread so the event loop never waits on SQL.

``parent_token``: the session token of the parent a door acts for, checked in the same
transaction (``accounts.authenticate``; a bad one raises ``accounts.Unauthorized``) and handed
to ``fn`` as ``parent_id``: one transaction and one thread hop for a signed-in call.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from anyio import to_thread
from sqlalchemy.engine import Engine

from hotmeals.db.engine import session_scope
from hotmeals.services import accounts

T = TypeVar("T")


def in_transaction(
    fn: Callable[..., T],
    /,
    *,
    engine: Engine | None = None,
    parent_token: str | None = None,
    **kwargs: Any,
) -> T:
    """``fn(session=..., **kwargs)`` in one transaction (on ``engine``, default the app's);
    with ``parent_token``, ``fn`` also gets the token's ``parent_id``."""
    with session_scope(engine) as session:
        if parent_token is not None:
            kwargs["parent_id"] = accounts.authenticate(
                session=session, token=parent_token
            ).parent_id
        return fn(session=session, **kwargs)


async def run_in_transaction(
    fn: Callable[..., T],
    /,
    *,
    engine: Engine | None = None,
    parent_token: str | None = None,
    **kwargs: Any,
) -> T:
    """``in_transaction`` on a worker thread (anyio's pool, shared by Reflex and the API).
    A ``DomainError`` propagates unchanged, after the rollback."""
    return await to_thread.run_sync(
        partial(in_transaction, fn, engine=engine, parent_token=parent_token, **kwargs)
    )
