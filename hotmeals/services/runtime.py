"""What a service call runs on: one frozen ``Runtime`` (the database, Converge, the clock),
passed explicitly as ``runtime: Runtime = APP`` and handed on as ``runtime=runtime``.

- ``APP``: the app's own: its engine (``db/engine.py``), the running loop's default Converge
  client (``default_gateway()``) and the one clock (``hotmeals.clock.now``): what the screens,
  the API and the periodic jobs run on. Tests and commands build their own
  (``Runtime(engine=engine, gateway=sim)``); synchronous code runs a call with
  ``payments/runtime.run_sync``, which opens a Converge client for it.
- ``default_gateway()``: one ``ConvergeClient`` per event loop (an httpx pool belongs to the
  loop that created it; Reflex and the API share the server's loop, tests and threads have
  their own).
- Each database step is ``services/transaction.run_in_transaction(fn, engine=runtime.engine,
  **kw)``: ``fn(session=..., **kw)`` in its own short transaction on a worker thread, so the
  event loop never waits on SQL and no transaction spans a network call.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy.engine import Engine

from hotmeals.clock import now as clock_now
from hotmeals.converge.configured import settings_from_env
from hotmeals.converge.converge import ConvergeClient
from hotmeals.converge.gateway import PaymentGateway
from hotmeals.converge.settings import ConvergeSettings
from hotmeals.settings import get_settings

_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, ConvergeClient] = (
    weakref.WeakKeyDictionary()
)


def converge_settings() -> ConvergeSettings:
    """The app's Converge: the real one or the local simulator (``converge/configured.py``)."""
    return settings_from_env(get_settings().public_base_url)


def default_gateway() -> PaymentGateway:
    """The running event loop's Converge client, made on first use."""
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None:
        client = ConvergeClient(converge_settings())
        _clients[loop] = client
    return client


@dataclass(frozen=True)
class Runtime:
    """What a service call runs on: the database (``engine``; None: the app's,
    ``db/engine.py``), Converge (``gateway``; None: the running loop's default client,
    ``default_gateway()``) and the clock (``hotmeals.clock.now`` by default)."""

    engine: Engine | None = None
    gateway: PaymentGateway | None = None
    clock: Callable[[], datetime] = clock_now

    @property
    def converge(self) -> PaymentGateway:
        """The gateway this runtime names, or the running loop's default one."""
        return self.gateway if self.gateway is not None else default_gateway()

    def now(self) -> datetime:
        """Now on this runtime's clock (aware UTC)."""
        return self.clock()

    def at(self, instant: datetime) -> Runtime:
        """This runtime with its clock stopped at ``instant`` (a round's one instant, a
        test's later day)."""
        return replace(self, clock=lambda: instant)


APP = Runtime()  # the app's: its engine, the default gateway, the one clock
