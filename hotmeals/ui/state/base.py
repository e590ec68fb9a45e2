"""How Reflex states call the service layer without blocking the event loop."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from hotmeals.services.transaction import run_in_transaction

T = TypeVar("T")


async def call_service(fn: Callable[..., T], /, **kwargs: Any) -> T:
    """Run ``fn(session=..., **kwargs)`` in one transaction on a worker thread.

    A ``DomainError`` propagates unchanged (after the rollback) for the state to show.
    """
    return await run_in_transaction(fn, **kwargs)
