"""E-mail notification preferences ("manage notification" in settings).

A kind without a stored row has its default; saving writes one row per kind changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import bindparam
from sqlmodel import Session, select

from hotmeals.db.models import NotificationPreference
from hotmeals.db.models.accounts import NOTIFICATION_DEFAULTS
from hotmeals.domain.errors import DomainError

DEFAULTS: dict[str, bool] = NOTIFICATION_DEFAULTS  # kind -> on by default
NOTIFICATION_KINDS: tuple[str, ...] = tuple(DEFAULTS)


@dataclass(frozen=True)
class Preferences:
    """Whether each kind of e-mail (``NOTIFICATION_KINDS``) is on."""

    order_confirmation: bool
    order_reminder: bool
    cutoff_reminder: bool
    refund: bool
    menu_updates: bool
    newsletter: bool

    def is_on(self, kind: str) -> bool:
        return kind in DEFAULTS and bool(getattr(self, kind))


def preferences_of(enabled: Mapping[str, bool]) -> Preferences:
    """The settings from stored ``kind -> enabled`` values; a kind not stored has its
    default, a kind no longer known is left out."""
    values = dict(DEFAULTS)
    for kind, on in enabled.items():
        if kind in values:
            values[kind] = bool(on)
    return Preferences(**values)


# Read on every profile load: built once, columns only.
_PREFERENCES = select(NotificationPreference.kind, NotificationPreference.enabled).where(
    NotificationPreference.parent_id == bindparam("parent_id")
)


def get_preferences(*, session: Session, parent_id: int) -> Preferences:
    rows = session.execute(_PREFERENCES, {"parent_id": parent_id}).all()
    return preferences_of({kind: enabled for kind, enabled in rows})


def update_preferences(
    *, session: Session, parent_id: int, preferences: Mapping[str, bool]
) -> Preferences:
    """Turn the given kinds on or off; the others keep their setting."""
    changes: dict[str, bool] = {}
    for kind, enabled in preferences.items():
        if kind not in DEFAULTS or not isinstance(enabled, bool):
            raise DomainError("notification_kind_invalid", field=str(kind)[:40])
        changes[kind] = enabled
    rows = {
        row.kind: row
        for row in session.exec(
            select(NotificationPreference).where(NotificationPreference.parent_id == parent_id)
        ).all()
    }
    for kind, enabled in changes.items():
        row = rows.get(kind) or NotificationPreference(parent_id=parent_id, kind=kind)
        row.enabled = enabled
        session.add(row)
    session.flush()
    return get_preferences(session=session, parent_id=parent_id)


def is_enabled(*, session: Session, parent_id: int, kind: str) -> bool:
    return get_preferences(session=session, parent_id=parent_id).is_on(kind)
