"""How the payment services reach Converge from where they run.

- What a service call runs on (the database, Converge, the clock) is one ``Runtime``
  (``services/runtime.py``), taken as ``runtime: Runtime = APP`` and passed on as
  ``runtime=runtime``.
- ``lightbox_script_url(gateway)``: the browser's PayWithConverge.js.
- ``run_sync(fn, runtime=..., **kw)``: run an async service function from synchronous code.
- ``actor_of(parent_id, actor)``: who an audit event names.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

from hotmeals.converge.converge import ConvergeClient
from hotmeals.converge.gateway import PaymentGateway
from hotmeals.services import runtime as service_runtime
from hotmeals.services.runtime import APP, Runtime

T = TypeVar("T")


def lightbox_script_url(gateway: PaymentGateway | None = None) -> str:
    """The ``<script src>`` of PayWithConverge.js for the browser."""
    if isinstance(gateway, ConvergeClient):
        return gateway.settings.lightbox_script_url
    return service_runtime.converge_settings().lightbox_script_url


def run_sync(fn: Callable[..., Awaitable[T]], /, *, runtime: Runtime = APP, **kwargs: Any) -> T:
    """Run an async service function to completion from synchronous code (a worker thread, a
    script), as ``fn(runtime=runtime, **kwargs)``. Without a gateway in ``runtime`` it opens a
    client for this call and closes it after."""

    async def main() -> T:
        if runtime.gateway is not None:
            return await fn(runtime=runtime, **kwargs)
        async with ConvergeClient(service_runtime.converge_settings()) as client:
            return await fn(runtime=replace(runtime, gateway=client), **kwargs)

    return asyncio.run(main())


def actor_of(parent_id: int | None, actor: str | None = None) -> str:
    if actor:
        return actor
    return f"parent:{parent_id}" if parent_id is not None else "system"
