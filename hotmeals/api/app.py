"""The /api/v1 compatibility API, a FastAPI app mounted into Reflex's backend.

Built by a factory: Reflex adds its CORS middleware at start-up, and a FastAPI instance that a
TestClient already started refuses new middleware.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from hotmeals.api import cart, menu, orders, payments
from hotmeals.api.envelope import ApiError, fail, ok
from hotmeals.api.readiness import database_out, readiness
from hotmeals.api.routes import include_routers
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import normalize_lang, t
from hotmeals.services import accounts
from hotmeals.services.health import database_state
from hotmeals.services.startup import register_payment_purposes

log = logging.getLogger("hotmeals.api")

API_PREFIX = "/api/v1"


def _lang(request: Request) -> str:
    return normalize_lang(request.headers.get("accept-language"))


# The routers of an order's calls (GetDates to AddOrder and the payment session), tried first.
LUNCH_RUSH_ROUTERS = (menu.router, cart.router, orders.router, payments.router)


def _lunch_rush_first(api: FastAPI) -> None:
    """FastAPI tries the routes in order, each router's routes one by one: an AddToCart went
    through the sign-in, children and payment routers (~50 patterns) before its own. Every
    /api/v1 path is exact and unique (no two routes match one path), so the order only
    changes how soon a path is found; the OpenAPI document is made first, in the registration
    order it documents."""
    api.openapi()
    routes = api.router.routes
    hot = [
        route
        for router in LUNCH_RUSH_ROUTERS
        for route in routes
        if getattr(route, "original_router", None) is router
    ]
    routes[:] = hot + [route for route in routes if route not in hot]


def create_api() -> FastAPI:
    register_payment_purposes()
    api = FastAPI(
        title="hotmeals parent API",
        version="1.0.0",
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=None,
        redoc_url=None,
    )

    @api.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Any:
        return fail(t("api.invalid_request", _lang(request)))

    @api.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Any:
        if exc.status_code == 404:
            return fail(t("api.not_found", _lang(request)), status_code=404)
        if exc.status_code == 405:
            return fail(t("api.method_not_allowed", _lang(request)), status_code=405)
        return fail(str(exc.detail), status_code=exc.status_code)

    # Refusals raised anywhere in a call, its dependencies included, answered in the envelope.
    @api.exception_handler(ApiError)
    async def _refused(request: Request, exc: ApiError) -> Any:
        return fail(exc.message, status_code=exc.status_code, data=exc.data)

    @api.exception_handler(accounts.Unauthorized)
    async def _unauthorized(request: Request, exc: accounts.Unauthorized) -> Any:
        return fail(exc.message(_lang(request)), status_code=401)

    @api.exception_handler(DomainError)
    async def _domain(request: Request, exc: DomainError) -> Any:
        return fail(exc.message(_lang(request)), data={"field": exc.field} if exc.field else None)

    @api.exception_handler(IntegrityError)
    async def _conflict(request: Request, exc: IntegrityError) -> Any:
        # Two requests raced for the same row (a double click): refuse this one.
        log.warning("conflict on %s %s", request.method, request.url.path, exc_info=exc)
        return fail(t("api.server_error", _lang(request)), status_code=409)

    @api.exception_handler(OperationalError)
    async def _database_down(request: Request, exc: OperationalError) -> Any:
        log.warning("database unavailable on %s", request.url.path, exc_info=exc)
        return fail(t("api.server_error", _lang(request)), status_code=503)

    @api.exception_handler(PoolTimeout)
    async def _busy(request: Request, exc: PoolTimeout) -> Any:
        # Every pooled connection stayed busy for pool_timeout: a burst, not a bug.
        log.warning("connection pool exhausted on %s %s", request.method, request.url.path)
        return fail(t("service_busy", _lang(request)), status_code=503)

    @api.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Any:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return fail(t("api.server_error", _lang(request)), status_code=500)

    @api.get(f"{API_PREFIX}/health", tags=["ops"], summary="Service and database state")
    def health() -> Any:
        db = database_state()
        body = {"service": "ok", "database": database_out(db)}
        if db.status != "ok":
            return fail("database unavailable", status_code=503, data=body)
        return ok(body, "ok")

    @api.get(f"{API_PREFIX}/ready", tags=["ops"], summary="Ready to serve parents (readiness)")
    def ready() -> Any:
        is_ready, body = readiness(database_state())
        if not is_ready:
            return fail("not ready", status_code=503, data=body)
        return ok(body, "ready")

    include_routers(api)
    _lunch_rush_first(api)

    # Last: unknown API paths answer the JSON envelope, not the frontend's HTML 404 page.
    @api.api_route(
        "/api/{rest:path}",
        methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
        include_in_schema=False,
    )
    def _unknown_api(request: Request, rest: str) -> Any:
        return fail(t("api.not_found", _lang(request)), status_code=404)

    return api
