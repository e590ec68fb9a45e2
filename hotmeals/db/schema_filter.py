"""Tables in the app's database that are not the app's models: the job queue's
(procrastinate, PostgreSQL only, created by migration 0012 from the library's own SQL). Alembic's
autogenerate and the schema-equals-models test leave them out."""

from __future__ import annotations

FOREIGN_PREFIXES = ("procrastinate_",)


def include_name(name: str | None, type_: str, parent_names: object) -> bool:
    return not (type_ == "table" and name is not None and name.startswith(FOREIGN_PREFIXES))
