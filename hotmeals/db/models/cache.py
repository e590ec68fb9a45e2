"""The versions of the per-process caches that every worker shares.

A row per cached kind of data (``menu``: meals, options, add-ons, their allergens, portions
and prices): any write to that data bumps ``version`` in the same transaction, and a worker
reads the version (one primary-key lookup) before using its cached copy, so a change made
through any worker is seen by the very next call on every worker (``services/menu_cache.py``).
"""

from __future__ import annotations

from sqlmodel import Field, SQLModel


class CacheVersion(SQLModel, table=True):
    name: str = Field(primary_key=True, max_length=20)
    version: int = 0
