"""A repeat-safe write keeps the door's own answer: ``submit_once(..., present=...)`` stores
what the door presented the first time, and a repeat with the same key gets exactly that back
without running the service (or the presenter) again."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlmodel import Session, select

from hotmeals.db.engine import get_engine, session_scope
from hotmeals.db.models import Parent
from hotmeals.services import submissions


@dataclass(frozen=True)
class Made:
    cents: int


def test_a_repeat_gets_the_doors_first_answer_and_nothing_runs_again(database: Path) -> None:
    runs: list[str] = []

    def make(*, session: Session, parent_id: int, cents: int) -> Made:
        runs.append("service")
        return Made(cents)

    def present(made: Made) -> dict[str, str]:
        runs.append("present")
        return {"total": f"${made.cents / 100:.2f}"}

    with session_scope(get_engine()) as s:
        parent = s.exec(select(Parent).order_by(Parent.id)).first()
        assert parent is not None and parent.id is not None
        parent_id = parent.id
    answers = []
    for cents in (1250, 999):  # the repeat's own arguments are not used
        with session_scope(get_engine()) as s:
            answers.append(
                submissions.submit_once(
                    session=s,
                    parent_id=parent_id,
                    key="present-1",
                    action="make",
                    fn=make,
                    present=present,
                    cents=cents,
                )
            )
    assert [a.result for a in answers] == [{"total": "$12.50"}, {"total": "$12.50"}]
    assert [a.repeated for a in answers] == [False, True]
    assert runs == ["service", "present"]
