"""hotmeals.serve: the server Reflex builds respawns a failed backend worker."""

from __future__ import annotations

import granian.server


def test_the_server_reflex_builds_respawns_failed_workers(monkeypatch):
    from hotmeals import serve

    original = granian.server.Server
    monkeypatch.setattr(granian.server, "Server", original)
    server_class = serve.install_respawning_server()
    assert granian.server.Server is server_class and issubclass(server_class, original)
    assert serve.install_respawning_server() is server_class  # once
    # Built as reflex.utils.exec.run_granian_backend_prod builds it (never started here).
    server = granian.server.Server(
        target="hotmeals.hotmeals:app", factory=True, address="127.0.0.1", port=0, workers=2
    )
    assert server.respawn_failed_workers is True
    assert server.workers == 2
    # An explicit choice still wins.
    assert (
        granian.server.Server(target="x:y", respawn_failed_workers=False).respawn_failed_workers
        is False
    )
