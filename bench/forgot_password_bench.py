"""Forgot_Password answers known and unknown addresses in about the same time.

The rule itself is tested without a clock (tests/api/test_security_attacks.py: both paths run
the same SQL statements but the outbox row, and the mail leaves after the answer). This prints
the figure on this machine: median answer time for a known and an unknown address, and their
ratio (1.0 = indistinguishable).

    .venv/bin/python bench/forgot_password_bench.py [rounds]
"""

from __future__ import annotations

import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(rounds: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="hm-forgot-bench-"))
    os.environ.update(
        DATABASE_URL=f"sqlite:///{folder / 'bench.db'}",
        DATA_DIR=str(folder),
        HOTMEALS_API_KEY="bench-key-" + "x" * 24,
    )
    os.environ.pop("SMTP_HOST", None)
    from fastapi.testclient import TestClient
    from sqlalchemy import delete
    from sqlmodel import SQLModel

    from hotmeals.api.app import create_api
    from hotmeals.db.engine import get_engine, session_scope
    from hotmeals.db.models import RateLimitHit
    from hotmeals.demo.seed import load_demo_data

    logging.getLogger("hotmeals.mail").setLevel(logging.ERROR)  # the demo outbox prints mail
    SQLModel.metadata.create_all(get_engine())
    with session_scope() as session:
        load_demo_data(session)
    headers = {"api-key": os.environ["HOTMEALS_API_KEY"], "app": "P", "accept-language": "en"}
    timings: dict[str, list[float]] = {"known": [], "unknown": []}
    with TestClient(create_api()) as client:
        for n in range(rounds):
            for kind, address in (
                ("known", "parent@example.com"),
                ("unknown", f"ghost-{n}@example.org"),
            ):
                with session_scope() as session:  # no limit in the way of the measure
                    session.exec(delete(RateLimitHit))
                started = time.perf_counter()
                answer = client.post(
                    "/api/v1/Parent/auth/Forgot_Password", json={"email": address}, headers=headers
                )
                timings[kind].append(time.perf_counter() - started)
                assert answer.status_code == 200 and answer.json()["code"] == 1, answer.text
    known = statistics.median(timings["known"]) * 1000
    unknown = statistics.median(timings["unknown"]) * 1000
    print(f"Forgot_Password, {rounds} rounds, median answer time")
    print(f"  known address    {known:7.1f} ms")
    print(f"  unknown address  {unknown:7.1f} ms")
    print(f"  unknown / known  {unknown / known:7.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
