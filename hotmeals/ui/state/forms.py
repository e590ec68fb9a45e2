"""Turning a service's or validator's ``DomainError`` into text at a field or in a toast.

No rule lives here: the codes come from ``hotmeals.domain.validation`` or a service, and the
text from the catalog in the parent's language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import reflex as rx

from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.ui.state.toasts import failed


def message(err: DomainError, lang: str) -> str:
    return tr(err.code, lang, **err.params)


def field_messages(
    errors: Mapping[str, DomainError], lang: str, only: Iterable[str] | None = None
) -> dict[str, str]:
    """``{field: text}`` for the fields in ``only`` (every field when ``None``)."""
    keep = None if only is None else set(only)
    return {f: message(e, lang) for f, e in errors.items() if keep is None or f in keep}


def place_error(
    err: DomainError,
    lang: str,
    fields: Iterable[str],
    errors: dict[str, str],
    prefix: str = "",
) -> rx.event.EventSpec:
    """Show ``err`` at its field when the form has that field, otherwise as an error toast
    (docs/product.md §8: a refusal's message in an error toast). Returns the focus or toast event;
    field ids on the page are ``prefix + field``."""
    if err.field and err.field in set(fields):
        errors[err.field] = message(err, lang)
        return rx.set_focus(prefix + err.field)
    return failed(message(err, lang))


def submission_key(state: Any, payload: Any) -> str:
    """The idempotency key of submitting ``payload`` from ``state`` (which declares the
    backend vars ``_once_key`` and ``_once_digest``): unchanged for the same payload, so the
    service answers a double tap as a repeat (``services.submissions``)."""
    from hotmeals.services.submissions import submission_key as next_key

    state._once_key, state._once_digest = next_key((state._once_key, state._once_digest), payload)
    return state._once_key


def forget_submission(state: Any) -> None:
    """A form opened anew: its next submission gets a new key."""
    state._once_key = ""
    state._once_digest = ""


def signed_in_elsewhere(auth: Any, next_path: str | None) -> rx.event.EventSpec | None:
    """A signed-in parent who opens /sign-in or /sign-up goes where ``?next=`` asks, else to
    the parent home (/, the landing docs/product.md §2 shows them there), with that page's
    title (issue 12); a sign-up in progress goes to its step; a visitor stays. ``auth`` is
    the ``AuthState`` just refreshed from the token."""
    from hotmeals.ui.state.auth import after_login_path

    if auth.status not in ("parent", "signup"):
        return None
    return rx.redirect(after_login_path(auth.signup_step, False, next_path), replace=True)
