"""How a logged-in screen gets its address: ``parent_pages(app)`` gives the function that
registers one page with its
tab title in the parent's language, leaves the previous screen (its refusal goes with it),
checks the session before the screen's own loads, and marks the route ready
(``components/links.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reflex as rx

from hotmeals.ui.components.links import mark_ready
from hotmeals.ui.state.auth import AuthState
from hotmeals.ui.state.i18n import t
from hotmeals.ui.state.page_load import PageLoadState, register_loads
from hotmeals.ui.state.school_year import SchoolYearState
from hotmeals.ui.state.toasts import leave_screen


def parent_pages(app: rx.App) -> Callable[..., None]:
    """``add(component, route, title_key, *loads)`` for each logged-in screen of ``app``."""

    def add(
        component: Any, route: str, title_key: str, *loads: Any, one_event: bool = False
    ) -> None:
        """``one_event``: the session check and ``loads`` (handlers without arguments) run as
        one backend event (``state/page_load.py``): one round trip and one answer."""
        if one_event:
            register_loads(route, loads)
            chain: list[Any] = [PageLoadState.enter]
        else:
            chain = [AuthState.require_parent, *loads]
        app.add_page(component, route=route, title=t(title_key), on_load=[leave_screen(), *chain])
        mark_ready(route)

    return add


def add_booking_page(
    add: Callable[..., None], component: Any, route: str, title_key: str, load: Any
) -> None:
    """With ``add`` (``parent_pages``), a screen that books (Book meal, the cart): the school
    year's gate first (``SchoolYearState.gate``), then the screen's ``load``, as one event."""
    add(component, route, title_key, SchoolYearState.gate, load, one_event=True)
