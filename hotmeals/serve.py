"""Serve the app the way `reflex run` does, with one change: a backend worker that dies is
replaced instead of stopping the whole server.

    python -m hotmeals.serve run --env prod --single-port --backend-port 1805

Reflex 0.10 starts Granian (``reflex.utils.exec.run_granian_backend_prod``) without
``respawn_failed_workers``: one worker killed (out of memory, a crash in a native library,
``kill -9``) made Granian stop every worker and `reflex run` exit. Reflex builds its Granian
server from ``granian.server.Server`` at call time, so this entrypoint puts a subclass there
whose defaults respawn a failed worker (Granian still stops on a crash loop: the same worker
failing again within seconds). Every argument Reflex passes is kept.

``--compiled``: serve the build already in ``REFLEX_WEB_WORKDIR`` (no compile, no frontend
build), as the e2e suite does for every server after its first.
"""

from __future__ import annotations

import sys
from typing import Any

RESPAWN_INTERVAL_SECONDS = 1.0


def install_respawning_server() -> type:
    """Make ``granian.server.Server`` a subclass that respawns failed workers; returns it."""
    import granian.server

    base = granian.server.Server
    if getattr(base, "respawns_failed_workers", False):
        return base

    class RespawningServer(base):  # type: ignore[misc,valid-type]
        respawns_failed_workers = True

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("respawn_failed_workers", True)
            kwargs.setdefault("respawn_interval", RESPAWN_INTERVAL_SECONDS)
            super().__init__(*args, **kwargs)

    granian.server.Server = RespawningServer
    return RespawningServer


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    install_respawning_server()
    from reflex import reflex

    if "--compiled" in args:
        # `reflex run` minus its compile and frontend build: the build is already there.
        from reflex.utils import build

        args.remove("--compiled")
        reflex._compile_app = lambda **kwargs: None
        build.setup_frontend_prod = lambda root: None
    sys.argv = ["reflex", *args]
    reflex.cli()
    return 0


if __name__ == "__main__":
    sys.exit(main())
