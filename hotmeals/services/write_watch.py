"""Which transactions write a set of tables through the ORM: what the per-process caches
(``services/reference.py``, ``services/menu_cache.py``) need to know to be invalidated.

A ``WriteWatch`` marks a session (``session.info``) when it flushes rows of its models (added,
changed or deleted) or runs an ORM ``update()``/``delete()``/``insert()`` on them; the mark is
dropped on rollback, and its owner takes it when the transaction commits. Writes the ORM does
not see (raw SQL, another process) are the owner's to report.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import ORMExecuteState
from sqlalchemy.orm import Session as OrmSession


class WriteWatch:
    def __init__(self, name: str, models: tuple[type, ...]) -> None:
        self.flag = f"hotmeals.{name}_written"
        self.models = models
        event.listen(OrmSession, "after_flush", self._flushed)
        event.listen(OrmSession, "do_orm_execute", self._bulk)
        event.listen(OrmSession, "after_rollback", self._rolled_back)

    def unflushed(self, session: OrmSession) -> bool:
        """Rows of the models added, changed or deleted in ``session`` and not flushed yet."""
        return any(
            isinstance(obj, self.models)
            for collection in (session.new, session.dirty, session.deleted)
            for obj in collection
        )

    def pending(self, session: OrmSession) -> bool:
        """``session``'s transaction wrote the models (flushed or not): not committed yet."""
        return bool(session.info.get(self.flag)) or self.unflushed(session)

    def take(self, session: OrmSession) -> bool:
        """Whether the transaction wrote the models; the mark is cleared (at commit)."""
        return bool(session.info.pop(self.flag, False))

    def _flushed(self, session: OrmSession, _context: Any) -> None:
        if not session.info.get(self.flag) and self.unflushed(session):
            session.info[self.flag] = True

    def _bulk(self, state: ORMExecuteState) -> None:
        if (state.is_update or state.is_delete or state.is_insert) and any(
            mapper.class_ in self.models for mapper in state.all_mappers
        ):
            state.session.info[self.flag] = True

    def _rolled_back(self, session: OrmSession) -> None:
        session.info.pop(self.flag, None)
