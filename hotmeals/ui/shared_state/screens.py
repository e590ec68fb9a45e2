"""What the screens that load from the services share: the language their text was made in.

A screen loaded (its ``loaded``) in one language (its backend var ``_lang``) is made again when
the parent switches to the other; its ``relang`` handler asks ``new_language`` first.

Also the rows several screens make of the same service answers: an order and its details' link
(``OrderLink``), a placed order's meal (``OrderedMeal``) and what was chosen with a meal
(``MealChoices``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import Any

import reflex as rx

from hotmeals.ui.shared_state.auth import ActingParent, acting_parent, signed_up_parent
from hotmeals.ui.shared_state.i18n import I18nState


async def new_language(state: Any, ready: bool = True) -> str | None:
    """The language now chosen when ``state`` is loaded in another one and ``ready`` (e.g.
    nothing runs meanwhile); None: nothing to make again."""
    lang = (await state.get_state(I18nState)).lang
    if not state.loaded or not ready or lang == state._lang:
        return None
    return lang


async def new_language_for(state: Any, ready: bool = True) -> tuple[ActingParent, str] | None:
    """``new_language`` with the acting parent on this call to make it again for; None:
    nothing to make again, or no parent signed in."""
    lang = await new_language(state, ready)
    if lang is None:
        return None
    who = await acting_parent(state)
    return None if who is None else (who, lang)


async def load_behind_spinner(
    state: Any,
    load: Callable[[ActingParent], Awaitable[None]],
    parent: Callable[[Any], Awaitable[ActingParent | None]] = signed_up_parent,
) -> AsyncIterator[None]:
    """A screen's on_load behind its spinner: ``state.loading`` set and sent at once (the bare
    yield), then ``load`` for ``parent(state)`` on this call (by default the parent whose
    sign-up is complete) and the spinner gone. Without that parent nothing loads and the
    spinner stays (the guard sends the visitor away). For a handler:
    ``async for event in load_behind_spinner(self, self._fill): yield event``."""
    state.loading = True
    yield
    who = await parent(state)
    if who is None:
        return
    await load(who)
    state.loading = False


DETAILS_ROUTE = "/edit-profile/order-details"


def order_details_href(order_id: Any) -> str:
    """The address of an order's details screen (the service checks the order is the
    parent's)."""
    return f"{DETAILS_ROUTE}?id={int(order_id)}"


@dataclass
class OrderLink:
    """An order as a screen's row links to it: its id, its number and its details'
    address."""

    order_id: str = ""
    number: str = ""
    href: str = ""


@dataclass
class OrderedMeal:
    """A meal of a placed order as its line shows it: whose, which day, which meal, how many
    and their price."""

    child: str = ""
    day: str = ""
    meal: str = ""
    quantity: int = 0
    price: str = ""


@dataclass
class MealChoices:
    """What was chosen with a booked meal, as its line shows it (in the cart, on the order):
    the fields ``meal_choices`` fills."""

    size_label: str = ""
    menu_option: str = ""
    meal_option: str = ""
    addons: str = ""  # 'Cookie (+$1.00), Juice (+$1.50)'
    note: str = ""  # the special note


def meal_choices(line: dict) -> dict[str, Any]:
    """A service's cart or order line's choices, as the fields of ``MealChoices``."""
    return asdict(
        MealChoices(
            size_label=str(line.get("size_label") or ""),
            menu_option=str(line.get("menu_option") or ""),
            meal_option=str(line.get("meal_option") or ""),
            addons=", ".join(f"{a['name']} (+{a['price']})" for a in line.get("addons") or []),
            note=str(line.get("special_note") or ""),
        )
    )


def order_line_row(line: dict) -> dict[str, str]:
    """A booked meal (an order line of a service's answer) as a screen's row: its id, whose,
    which day, which meal; the screen adds what else it shows."""
    return {
        "id": str(line["order_line_id"]),
        "child": str(line["child_name"]),
        "day": str(line["day"]),
        "name": str(line["name"]),
    }


class LoadedScreen(rx.State, mixin=True):
    """A screen loaded from the services: ``loaded`` once it shows their answer, ``_lang`` the
    language its text was made in (``new_language``)."""

    loaded: bool = False
    _lang: str = ""


class RelangScreen(LoadedScreen, mixin=True):
    """A ``LoadedScreen`` that ``_load``s itself for the acting parent: ``relang`` loads it
    again when the parent switched to the other language.

    A mixin: ``relang`` is copied onto each state that uses it and is listed in its
    allow-list."""

    async def _load(self) -> Any:
        raise NotImplementedError

    @rx.event
    async def relang(self) -> None:
        if await new_language(self):
            await self._load()
