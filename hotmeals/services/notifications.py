"""E-mail notification preferences ("manage notification" in settings).

A kind without a stored row has its default; saving writes one row per kind changed.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import bindparam
from sqlmodel import Session, select

from hotmeals.db.models import NotificationPreference
from hotmeals.db.models.accounts import NOTIFICATION_DEFAULTS
from hotmeals.domain.errors import DomainError

DEFAULTS: dict[str, bool] = NOTIFICATION_DEFAULTS  # kind -> on by default
NOTIFICATION_KINDS: tuple[str, ...] = tuple(DEFAULTS)


# Read on every profile load: built once, columns only.
_PREFERENCES = select(NotificationPreference.kind, NotificationPreference.enabled).where(
    NotificationPreference.parent_id == bindparam("parent_id")
)


def get_preferences(*, session: Session, parent_id: int) -> dict[str, bool]:
    prefs = dict(DEFAULTS)
    for kind, enabled in session.execute(_PREFERENCES, {"parent_id": parent_id}).all():
        if kind in prefs:
            prefs[kind] = bool(enabled)
    return prefs


def update_preferences(
    *, session: Session, parent_id: int, preferences: Mapping[str, object]
) -> dict[str, bool]:
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
    return get_preferences(session=session, parent_id=parent_id).get(kind, False)
