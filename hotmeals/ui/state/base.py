"""How Reflex states call the service layer without blocking the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from hotmeals.db.engine import session_scope

T = TypeVar("T")


def _in_transaction(fn: Callable[..., T], kwargs: dict[str, Any]) -> T:
    with session_scope() as session:
        return fn(session=session, **kwargs)


async def call_service(fn: Callable[..., T], /, **kwargs: Any) -> T:
    """Run ``fn(session=..., **kwargs)`` in one transaction on a worker thread.

    A ``DomainError`` propagates unchanged (after the rollback) for the state to show.
    """
    return await asyncio.to_thread(_in_transaction, fn, kwargs)
