"""The readiness probe (/api/v1/ready): 200 only when this worker can serve parents, 503 once
it is draining; the liveness probe (/api/v1/health) is unchanged."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from hotmeals.api import readiness
from hotmeals.api.app import create_api
from hotmeals.db.engine import get_engine
from hotmeals.settings import get_settings
from tests.e2e.server import free_port


@pytest.fixture
def client(migrated_url: str, monkeypatch) -> Iterator[TestClient]:
    monkeypatch.setenv("DATABASE_URL", migrated_url)
    monkeypatch.delenv("REDIS_URL", raising=False)
    get_settings.cache_clear()
    get_engine.cache_clear()
    try:
        with TestClient(create_api()) as test_client:
            yield test_client
    finally:
        get_engine().dispose()
        get_settings.cache_clear()
        get_engine.cache_clear()


def test_a_migrated_worker_is_ready(client):
    answer = client.get("/api/v1/ready")
    assert answer.status_code == 200, answer.text
    data = answer.json()["data"]
    assert data["database"] == "ok" and data["revision"] == data["head"] is not None
    assert data["redis"] is None and data["draining"] is False


def test_a_database_behind_the_code_is_not_ready(client):
    with get_engine().begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    answer = client.get("/api/v1/ready")
    assert answer.status_code == 503
    assert answer.json()["data"]["migrations"] == "behind or ahead"
    assert client.get("/api/v1/health").status_code == 200  # alive all the same


def test_redis_that_does_not_answer_makes_the_worker_not_ready(client, monkeypatch):
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{free_port()}/0")
    answer = client.get("/api/v1/ready")
    assert answer.status_code == 503 and answer.json()["data"]["redis"] == "unavailable"


def test_a_draining_worker_is_not_ready(client):
    async def shut_down() -> None:
        async with readiness.lifespan():
            assert client.get("/api/v1/ready").status_code == 200
        # the shutdown began: balancers must stop sending this worker parents

    asyncio.run(shut_down())
    try:
        answer = client.get("/api/v1/ready")
        assert answer.status_code == 503 and answer.json()["data"]["draining"] is True
    finally:
        readiness._state["draining"] = False
