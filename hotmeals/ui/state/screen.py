"""What the screens' ``relang`` handlers share: whether the screen on view was loaded in
another language than the one now chosen, and for which parent to load it again."""

from __future__ import annotations

from typing import Any

from hotmeals.ui.state.auth import ActingParent, acting_parent, complete_parent
from hotmeals.ui.state.i18n import I18nState


async def language_changed(state: Any) -> bool:
    """The screen is loaded (``state.loaded``) in another language than the chosen one
    (``state._lang`` is the language it was loaded in)."""
    lang = (await state.get_state(I18nState)).lang
    return bool(state.loaded) and lang != state._lang


async def relang_parent(
    state: Any, *, skip: bool = False, complete: bool = False
) -> tuple[ActingParent, str] | None:
    """For a ``relang`` handler: the acting parent (with a complete profile when
    ``complete``) and the language now chosen, when the screen must be loaded again in it;
    None when there is nothing to do (not loaded, the same language, ``skip``, or no parent)."""
    if skip or not await language_changed(state):
        return None
    if complete:
        who, lang = await complete_parent(state)
    else:
        lang = (await state.get_state(I18nState)).lang
        who = await acting_parent(state)
    return None if who is None else (who, lang)
