"""How the payment services reach Converge and the database without blocking anyone.

- ``default_gateway()``: one ``ConvergeClient`` per event loop (an httpx pool belongs to the
  loop that created it; Reflex and the API share the server's loop, tests and threads have
  their own). Every service function also takes ``gateway=`` (tests, fakes).
- ``Wiring``: the ``engine=`` and ``gateway=`` keywords a service call runs on (None or left
  out: the app's engine, ``default_gateway()``), taken as ``**wiring: Unpack[Wiring]`` and
  passed on as ``**wiring``.
- Each database step is ``services/transaction.run_in_transaction(fn, engine=..., **kw)``:
  ``fn(session=..., **kw)`` in its own short transaction on a worker thread, so the event loop
  never waits on SQL and no transaction spans a network call.
- ``run_sync(fn, **kw)``: run an async service function from synchronous code.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, TypedDict, TypeVar

from sqlalchemy.engine import Engine

from hotmeals.converge.configured import settings_from_env
from hotmeals.converge.converge import ConvergeClient
from hotmeals.converge.gateway import PaymentGateway
from hotmeals.converge.settings import ConvergeSettings
from hotmeals.settings import get_settings

T = TypeVar("T")

_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, ConvergeClient] = (
    weakref.WeakKeyDictionary()
)


def converge_settings() -> ConvergeSettings:
    return settings_from_env(get_settings().public_base_url)


def default_gateway() -> PaymentGateway:
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None:
        client = ConvergeClient(converge_settings())
        _clients[loop] = client
    return client


def gateway_or_default(gateway: PaymentGateway | None) -> PaymentGateway:
    return gateway if gateway is not None else default_gateway()


class Wiring(TypedDict, total=False):
    """What a service call runs on, as its caller names it: the database (``engine``; None:
    the app's, ``db/engine.py``) and Converge (``gateway``; None: ``default_gateway()``)."""

    engine: Engine | None
    gateway: PaymentGateway | None


def gateway_of(wiring: Wiring) -> PaymentGateway:
    """The gateway ``wiring`` names, or the default one."""
    return gateway_or_default(wiring.get("gateway"))


def lightbox_script_url(gateway: PaymentGateway | None = None) -> str:
    """The ``<script src>`` of PayWithConverge.js for the browser."""
    if isinstance(gateway, ConvergeClient):
        return gateway.settings.lightbox_script_url
    return converge_settings().lightbox_script_url


def run_sync(fn: Callable[..., Awaitable[T]], /, **kwargs: Any) -> T:
    """Run an async service function to completion from synchronous code (a worker thread, a
    script). Without a ``gateway`` it opens a client for this call and closes it after."""

    async def main() -> T:
        if kwargs.get("gateway") is not None:
            return await fn(**kwargs)
        async with ConvergeClient(converge_settings()) as client:
            return await fn(**{**kwargs, "gateway": client})

    return asyncio.run(main())


def actor_of(parent_id: int | None, actor: str | None = None) -> str:
    if actor:
        return actor
    return f"parent:{parent_id}" if parent_id is not None else "system"
