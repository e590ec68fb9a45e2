"""A burst of concurrent requests on SQLite reuses its connections (each new one
opens the file and runs the pragmas: under 16 concurrent requests that was most of the
difference between GetChilds and /ping)."""

from __future__ import annotations

from contextlib import ExitStack

from sqlalchemy import event, text

from hotmeals.db.engine import make_engine, session_scope


def test_a_burst_of_sixteen_sessions_reuses_its_connections(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'pool.sqlite'}")
    opened: list[object] = []
    event.listen(engine, "connect", lambda conn, _record: opened.append(conn))
    try:
        for _burst in range(3):
            with ExitStack() as stack:
                sessions = [stack.enter_context(session_scope(engine)) for _ in range(16)]
                for session in sessions:  # each holds its own connection until the end
                    assert session.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert len(opened) == 16  # the first burst opened them; the next two reused them
    finally:
        engine.dispose()
