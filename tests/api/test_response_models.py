"""Every /api/v1 call declares its answer (``response_model``) and answers exactly that: a
success is a plain dict that FastAPI checks and serializes with the declared model, so OpenAPI
and the JSON cannot drift."""

from __future__ import annotations

import pytest
from fastapi import APIRouter, FastAPI
from fastapi.exceptions import ResponseValidationError
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from pydantic import BaseModel

from hotmeals.api.app import create_api
from hotmeals.api.deps import answer
from hotmeals.api.envelope import Envelope, fail, ok


def _routes(routes) -> list[APIRoute]:
    found: list[APIRoute] = []
    for route in routes:
        if isinstance(route, APIRoute):
            found.append(route)
        for attr in ("original_router", "router"):  # FastAPI's included routers
            inner = getattr(route, attr, None)
            if inner is not None and hasattr(inner, "routes"):
                found += _routes(inner.routes)
                break
    return found


OPS_PROBES = {"/api/v1/health", "/api/v1/ready"}  # for balancers, not parents
# Opened from a link in an e-mail (no api-key, no session: the link's token is the authority),
# answered with a small HTML page, not the envelope (hotmeals/api/unsubscribe.py).
MAIL_LINKS = {"/api/v1/mail/unsubscribe"}
# Files, not the envelope: the calendar feed (for calendar apps, its link's token the authority)
# a receipt's PDF (hotmeals/api/calendar_receipts.py) and the kitchen's labels (PDF or CSV;
# a refusal is the envelope: hotmeals/api/kitchen.py).
FILES = {"/api/v1/calendar/{token}.ics", "/api/v1/Parent/Receipt.pdf", "/api/v1/Admin/Labels"}


def test_every_parent_and_admin_call_declares_its_answer():
    calls = [r for r in _routes(create_api().router.routes) if "{rest:path}" not in r.path]
    api_calls = [
        r
        for r in calls
        if r.path.startswith("/api/v1/") and r.path not in OPS_PROBES | MAIL_LINKS | FILES
    ]
    assert len(api_calls) > 30
    undeclared = [r.path for r in api_calls if r.response_model is None]
    assert undeclared == []


class Thing(BaseModel):
    id: int
    name: str


@pytest.fixture
def client() -> TestClient:
    router = APIRouter()

    @router.get("/extra", response_model=Envelope[Thing])
    def extra():
        return ok({"id": 1, "name": "pasta", "secret": "not declared"}, "fine")

    @router.get("/wrong", response_model=Envelope[Thing])
    def wrong():
        return answer({"id": "one"}, "en")

    @router.get("/refused", response_model=Envelope[Thing])
    def refused():
        return fail("no", data={"field": "name"})

    app = FastAPI()
    app.include_router(router)
    return TestClient(app)


def test_a_field_the_model_does_not_declare_never_reaches_the_client(client):
    assert client.get("/extra").json() == {
        "code": 1,
        "message": "fine",
        "data": {"id": 1, "name": "pasta"},
    }


def test_an_answer_that_does_not_fit_its_model_fails(client):
    with pytest.raises(ResponseValidationError):
        client.get("/wrong")


def test_refusals_keep_their_own_small_data(client):
    assert client.get("/refused").json() == {
        "code": 0,
        "message": "no",
        "data": {"field": "name"},
    }
