"""Ids from the browser (an event's argument, the address): ints or 0, never trusted; the
services check that each is the acting parent's. Also a stepper's tap (``browser_step``)."""

from __future__ import annotations

from typing import Any

import reflex as rx


def browser_id(value: Any) -> int:
    """An id from the browser as an int (0 when it is not one)."""
    text = str(value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 12 else 0


def browser_step(delta: Any) -> int:
    """A stepper's tap from the browser: 1 up, -1 down, 0 when it is not a number."""
    try:
        return 1 if int(delta) > 0 else -1
    except (TypeError, ValueError):
        return 0


def query_id(state: rx.State, name: str = "id") -> int:
    """The address's ``?id=`` (or ``name``) as an id, 0 when absent or not one."""
    return browser_id(state.router.url.query_parameters.get(name))
