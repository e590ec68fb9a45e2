"""A family's private calendar feed: ``services/calendar_feed.py``.

One row per parent. The feed's address carries a token that is never stored: it is the HMAC of
``nonce`` under the server's feed secret (``HOTMEALS_FEED_SECRET``), so the account page can
show the same link again, and the database alone (a backup, a leak) does not give it. The feed
is found by ``token_hash`` (SHA-256 of the token). "Make a new link" draws a new ``nonce``: the
old address stops working at once.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Field, SQLModel

from hotmeals.db.models._base import created_at_field


class CalendarFeed(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = Field(foreign_key="parent.id", unique=True, ondelete="CASCADE")
    nonce: str = Field(max_length=64)
    token_hash: str = Field(max_length=64, unique=True, index=True)
    created_at: datetime = created_at_field()
