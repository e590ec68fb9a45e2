"""Run a service function in one transaction, from a thread or from the event loop.

The one way the Reflex states, the API routes and the services themselves (the payment
service between its network calls) run a service function in a transaction: open
``session_scope`` (commit on return, roll back on any error), call ``fn(session=..., **kw)``,
and from async code do it on a worker thread so the event loop never waits on SQL.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from anyio import to_thread
from sqlalchemy.engine import Engine

from hotmeals.db.engine import session_scope

T = TypeVar("T")


def in_transaction(fn: Callable[..., T], /, *, engine: Engine | None = None, **kwargs: Any) -> T:
    """``fn(session=..., **kwargs)`` in one transaction (on ``engine``, default the app's)."""
    with session_scope(engine) as session:
        return fn(session=session, **kwargs)


async def run_in_transaction(
    fn: Callable[..., T], /, *, engine: Engine | None = None, **kwargs: Any
) -> T:
    """``in_transaction`` on a worker thread (anyio's pool, shared by Reflex and the API).
    A ``DomainError`` propagates unchanged, after the rollback."""
    return await to_thread.run_sync(partial(in_transaction, fn, engine=engine, **kwargs))
