"""Property-based calls generated from /api/v1/openapi.json for the account
operations (Parent/auth, Parent/user, Admin/allergy_suggestions): no payload the schema allows (and
none of schemathesis's negative variants) makes the API answer a server error."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from sqlmodel import select

from hotmeals.api.app import create_api
from hotmeals.db.engine import session_scope
from hotmeals.db.models import Parent
from hotmeals.services.parents import start_session
from tests.api.helpers import API_KEY, DEMO_EMAIL

MAX_EXAMPLES = 12


@pytest.fixture
def fresh_token(database):
    """A new session of the demo parent for every case (a generated Logout may revoke one)."""

    def make() -> str:
        with session_scope() as session:
            parent = session.exec(select(Parent).where(Parent.email == DEMO_EMAIL)).one()
            return start_session(session, parent, "schemathesis")

    return make


# The document does not depend on the database; calls reach the module's database through the
# engine the ``database`` fixture points at.
schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", create_api()).include(
    path_regex=r"^/api/v1/(Parent/(auth|user|menu|cart|order)/|Admin/allergy_suggestions/|Promocode/)"
)


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_no_operation_answers_a_server_error(case, fresh_token):
    case.headers = {
        **(case.headers or {}),
        "api-key": API_KEY,
        "app": "P",
        "token": fresh_token(),
    }
    response = case.call()
    case.validate_response(response, checks=[not_a_server_error])
    content_type = response.headers.get("content-type") or [""]
    if str(content_type[0]).startswith("application/json"):
        assert set(response.json()) == {"code", "message", "data"}, response.text
