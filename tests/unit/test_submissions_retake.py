"""A charging call's key whose first call died in flight (its worker killed): a retry with the
same key runs the call again once the claim is older than any call can take, for the actions
that are safe to run again (AddOrder asks Converge before placing; a Lightbox session moves no
money), and only one retry wins. A stored card's charge stays "being processed" for the
payments round to settle with Converge. (The cluster test: tests/e2e/test_worker_killed.py.)"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from sqlmodel import select

from hotmeals.clock import now as utcnow
from hotmeals.db.engine import get_engine, session_scope
from hotmeals.db.models import FormSubmission, Parent
from hotmeals.services import submissions


def _parent_id() -> int:
    with session_scope(get_engine()) as s:
        parent = s.exec(select(Parent).order_by(Parent.id)).first()
        assert parent is not None and parent.id is not None
        return parent.id


def _claim(parent_id: int, key: str, action: str, age: timedelta) -> None:
    with session_scope(get_engine()) as s:
        assert submissions.claim(s, parent_id=parent_id, key=key, action=action) is None
        row = s.exec(select(FormSubmission).where(FormSubmission.key == key)).one()
        row.created_at = utcnow() - age
        s.add(row)


def _retake(parent_id: int, key: str, action: str) -> bool:
    with session_scope(get_engine()) as s:
        return submissions.retake(s, parent_id=parent_id, key=key, action=action)


def test_a_dead_calls_key_is_retaken_once_and_only_when_safe(database: Path) -> None:
    parent_id = _parent_id()
    stale = submissions.ANSWER_WAIT + timedelta(seconds=5)
    _claim(parent_id, "dead-add-order", "add_order", stale)
    assert _retake(parent_id, "dead-add-order", "add_order")
    assert not _retake(parent_id, "dead-add-order", "add_order")  # the first retry owns it now
    assert not _retake(parent_id, "dead-add-order", "pay_session")  # a key is for one action

    _claim(parent_id, "live-session", "pay_session", timedelta(seconds=5))
    assert not _retake(parent_id, "live-session", "pay_session")  # may still be running

    _claim(parent_id, "dead-saved-card", "pay_saved_card", stale)
    assert not _retake(parent_id, "dead-saved-card", "pay_saved_card")  # Converge decides

    _claim(parent_id, "answered", "add_order", stale)
    with session_scope(get_engine()) as s:
        submissions.remember(
            s, parent_id=parent_id, key="answered", action="add_order", result={"status": 200}
        )
    assert not _retake(parent_id, "answered", "add_order")  # its answer is what a repeat gets
    with session_scope(get_engine()) as s:
        stored = submissions.recall(s, parent_id=parent_id, key="answered", action="add_order")
    assert stored == {"status": 200} and json.dumps(submissions.IN_FLIGHT) != json.dumps(stored)
