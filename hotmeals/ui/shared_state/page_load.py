"""One on_load event for a guarded page: the session check and the page's own loads
run in one backend event, so the browser gets one answer carrying both instead of one round
trip (and one render) per handler.

Reflex sends a page's on_load handlers to the browser, which sends them back one at a time,
each waiting for the previous one's last answer. ``PageLoadState.enter`` does what the chain
``AuthState.require_parent, *loads`` did, in the same order and with the same states: the
token is checked and the profile read first (a visitor goes to sign-in, a sign-up in progress
to its step, and no load runs), then each load registered for the route by
``register_loads``. A bare ``yield`` of a load (a spinner shown before its data) sends nothing
here: the data comes in the same answer. The events a load yields or returns (a redirect, a
toast) are passed on in order, as Reflex would have run them. The page is marked hydrated
at the end of the same event, so its data renders with that one answer.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Iterable
from typing import Any

import reflex as rx
from reflex.event import EventHandler

from hotmeals.ui.shared_state.auth import AuthState, page_path

_LOADS: dict[str, tuple[EventHandler, ...]] = {}


def route_key(path: str) -> str:
    return "/" + page_path(path).strip("/")


def register_loads(route: str, loads: Iterable[Any]) -> None:
    """The handlers ``enter`` runs after the session check on ``route`` (no arguments)."""
    handlers = tuple(loads)
    for handler in handlers:
        if not isinstance(handler, EventHandler) or handler.state is None:
            raise TypeError(f"{route}: a load without arguments is needed, not {handler!r}")
    _LOADS[route_key(route)] = handlers


def _flat(result: Any) -> list[Any]:
    if result is None:
        return []
    if isinstance(result, (list, tuple)):
        return [event for event in result if event is not None]
    return [result]


async def _events(result: Any) -> AsyncIterator[Any]:
    """What a handler's function gave (a coroutine, an async or a plain generator, or a
    value): its events, the bare yields left out."""
    if inspect.isasyncgen(result):
        async for item in result:
            for event in _flat(item):
                yield event
        return
    if inspect.isgenerator(result):
        for item in result:
            for event in _flat(item):
                yield event
        return
    if inspect.isawaitable(result):
        result = await result
    for event in _flat(result):
        yield event


def _is_redirect(event: Any) -> bool:
    handler = getattr(event, "handler", None)
    return getattr(getattr(handler, "fn", None), "__qualname__", "") == "_redirect"


class PageLoadState(rx.State):
    """Holds no data: the handler below is the page's whole on_load."""

    @rx.event
    async def enter(self) -> AsyncIterator[Any]:
        """The session check, then the route's loads (module doc)."""
        async for event in self._enter(self.router.url.path):
            yield event

    async def _enter(self, path: str) -> AsyncIterator[Any]:
        auth = await self.get_state(AuthState)
        await auth._refresh()
        wanted = page_path(path)
        refused = auth._guard_redirect(wanted)
        if refused is not None:
            yield refused
            return
        moved = False
        for handler in _LOADS.get(route_key(wanted), ()):
            assert handler.state is not None  # register_loads checked it
            state = await self.get_state(handler.state)
            async for event in _events(handler.fn(state)):
                moved = moved or _is_redirect(event)
                yield event
        # Every load has run: the page shows its data with this very answer, not one round
        # trip later with Reflex's own ``set_is_hydrated`` (queued after this event; it then
        # changes nothing). Not when a load sent the parent elsewhere (the school-year
        # confirmation): that page marks itself.
        if not moved:
            self.is_hydrated = True
