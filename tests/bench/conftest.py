"""The API tests' fixtures, for the bench's own tests: a fresh database with the demo data per
module and backend (SQLite, and PostgreSQL when it answers) and the app's API behind a
TestClient."""

from tests.api.conftest import _fresh_limits, api_backend, client, database  # noqa: F401
