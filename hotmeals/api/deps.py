"""The request context of the /api/v1 parent calls (docs/product.md §6, §7, §8).

- ``api-key`` header must equal ``HOTMEALS_API_KEY``: otherwise HTTP 403 with code 0 (403, not
  401: the client clears the parent's session on a 401, and a wrong key is not a session
  problem).
- ``app`` header: 'P' (the parent app). Absent is accepted; any other value is refused (403).
- ``token`` header: the session token; calls that need a parent answer HTTP 401 with code 0
  when it is missing, unknown, expired or revoked.
- ``accept-language``: 'fr...' gives French messages, anything else English.
- The body is read through ``Client.body`` / ``ParentClient.body`` (``api/bodies.py``).
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Header, Request, Security
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from fastapi.security import APIKeyHeader
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from hotmeals.api.bodies import openapi_body, parse_body
from hotmeals.api.envelope import FAILURES, ApiError, Envelope, fail, ok
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import normalize_lang, t
from hotmeals.services import accounts, submissions
from hotmeals.services.transaction import run_in_transaction
from hotmeals.settings import get_settings

log = logging.getLogger("hotmeals.api")

ID_MAX = 2**31 - 1

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

# A row id in a request body: a positive 32-bit integer (a number or a digit string).
Id = Annotated[int, Field(ge=1, le=ID_MAX)]
# A short text field of a request body (a payment id from Converge, a message, a date).
ShortText = Annotated[str, Field(max_length=200)]
# A repeat-safe write's key in a body (``request_key``), as long as an Idempotency-Key.
RequestKey = Annotated[str, Field(max_length=64)]
REQUEST_KEY = re.compile(r"^[A-Za-z0-9\-_.:]{1,64}$")

API_KEY = APIKeyHeader(
    name="api-key",
    scheme_name="ApiKey",
    auto_error=False,
    description="The static client key (HOTMEALS_API_KEY).",
)
TOKEN = APIKeyHeader(
    name="token",
    scheme_name="ParentToken",
    auto_error=False,
    description="The parent's session token (from Login or VerifyOtp).",
)


def tags(name: str) -> list[str | Enum]:
    """The OpenAPI tag of a group of routes, as FastAPI types it."""
    return [name]


# The OpenAPI groups that routes of several modules share.
PARENT_USER = tags("Parent user")
PARENT_CART = tags("Parent cart")


def request_lang(request: Request) -> str:
    return normalize_lang(request.headers.get("accept-language"))


def _as_declared(declared: TypeAdapter | None, response: Any) -> Any:
    """A success answer rebuilt from the route's ``response_model``: the JSON a client gets is
    what /api/v1/openapi.json declares, never more (a field the model lacks is dropped) and
    never different (a field that does not fit fails here, in the tests). Routes answer with
    ``envelope.ok``'s JSONResponse, which FastAPI itself would pass through unchecked."""
    if declared is None or not isinstance(response, JSONResponse) or response.status_code != 200:
        return response
    body = json.loads(bytes(response.body))
    if not isinstance(body, dict) or body.get("code") != 1:
        return response  # refusals carry their own small data ({"field": ...})
    checked = declared.dump_python(declared.validate_python(body), mode="json")
    answer = JSONResponse(checked, status_code=response.status_code)
    for name, value in response.headers.items():
        if name.lower() not in ("content-length", "content-type"):
            answer.headers.append(name, value)
    return answer


class EnvelopeRoute(APIRoute):
    """Turns refusals raised anywhere in a call (dependencies included) into the envelope."""

    def get_route_handler(self) -> Callable:
        handler = super().get_route_handler()
        declared = TypeAdapter(self.response_model) if self.response_model is not None else None

        async def route(request: Request) -> Any:
            lang = request_lang(request)
            try:
                return _as_declared(declared, await handler(request))
            except ApiError as err:
                return fail(err.message, status_code=err.status_code, data=err.data)
            except accounts.Unauthorized as err:
                return fail(err.message(lang), status_code=401)
            except DomainError as err:
                data = {"field": err.field} if err.field else None
                return fail(err.message(lang), data=data)
            except IntegrityError:
                # Two requests raced for the same row (a double click): refuse this one.
                log.warning("conflict on %s %s", request.method, request.url.path, exc_info=True)
                return fail(t("api.server_error", lang), status_code=409)
            except OperationalError:
                log.warning("database unavailable on %s", request.url.path, exc_info=True)
                return fail(t("api.server_error", lang), status_code=503)
            except PoolTimeout:
                # Every pooled connection stayed busy for pool_timeout: a burst, not a bug.
                log.warning("connection pool exhausted on %s", request.url.path)
                return fail(t("service_busy", lang), status_code=503)

        return route


def route(
    method: Callable[..., Any],
    path: str,
    *,
    body: type[BaseModel] | None = None,
    answer: Any,
    tags: list[str | Enum],
    summary: str,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``method(path)`` (a router's ``post`` or ``get``) declaring ``body`` as the JSON request
    body (read by ``parse_body``) and ``Envelope[answer]`` as the answer."""
    extra = {"openapi_extra": openapi_body(body)} if body is not None else {}
    return method(path, tags=tags, summary=summary, response_model=Envelope[answer], **extra)


def api_router() -> APIRouter:
    """A router of /api/v1 parent calls: refusals answered in the envelope, 401 and 403
    declared."""
    return APIRouter(prefix="/api/v1", route_class=EnvelopeRoute, responses=FAILURES)


@dataclass(frozen=True)
class Client:
    lang: str
    address: str | None
    user_agent: str | None
    token: str | None
    request: Request

    @classmethod
    def of(cls, request: Request, lang: str, token: str | None = None) -> Client:
        """The caller of ``request``: its address, user agent and ``token``."""
        return cls(
            lang=lang,
            address=client_address(request),
            user_agent=request.headers.get("user-agent"),
            token=token,
            request=request,
        )

    async def body(self, model: type[M]) -> M:
        """The request body validated with ``model`` (refusals in the caller's language)."""
        return await parse_body(self.request, model, self.lang)


def client_address(request: Request) -> str | None:
    """The caller's address for rate limits. ``X-Forwarded-For`` counts only when
    ``HOTMEALS_TRUST_PROXY=1`` (behind a reverse proxy that sets it)."""
    if os.environ.get("HOTMEALS_TRUST_PROXY") == "1":
        forwarded = request.headers.get("x-forwarded-for", "").split(",")[0].strip()
        if forwarded:
            return forwarded[:64]
    return request.client.host if request.client else None


async def client_context(  # async: nothing here blocks, and a sync dependency costs a thread hop
    request: Request,
    api_key: str | None = Security(API_KEY),
    app: str | None = Header(default=None, description="The app identifier: 'P'."),
    accept_language: str | None = Header(default=None, description="'en' (default) or 'fr'."),
    token: str | None = Security(TOKEN),
) -> Client:
    lang = normalize_lang(accept_language)
    expected = get_settings().api_key
    if not api_key or not hmac.compare_digest(api_key.encode(), expected.encode()):
        raise ApiError(t("api.bad_api_key", lang), status_code=403)
    if app is not None and app.strip() and app.strip().upper() != "P":
        raise ApiError(t("api_app_invalid", lang), status_code=403)
    return Client.of(request, lang, token.strip() if token and token.strip() else None)


@dataclass(frozen=True)
class ParentClient:
    client: Client
    parent: accounts.ParentContext

    @property
    def lang(self) -> str:
        return self.client.lang

    @property
    def parent_id(self) -> int:
        return self.parent.parent_id

    async def body(self, model: type[M]) -> M:
        """The request body validated with ``model``."""
        return await self.client.body(model)


async def parent_context(client: Client = Depends(client_context)) -> ParentClient:
    """A signed-in parent, or HTTP 401."""
    if not client.token:
        raise accounts.Unauthorized()
    parent = await run_in_transaction(accounts.authenticate, token=client.token)
    return ParentClient(client=client, parent=parent)


async def optional_parent(
    client: Client = Depends(client_context),
) -> accounts.ParentContext | None:
    """The parent when a valid token is sent; a visitor otherwise (never a 401)."""
    if not client.token:
        return None
    try:
        return await run_in_transaction(accounts.authenticate, token=client.token)
    except accounts.Unauthorized:
        return None


async def idempotency_key(  # async: no thread hop for reading a header
    idempotency_key: str | None = Header(
        default=None,
        description=(
            "Optional, on calls that write: 1-64 characters of [A-Za-z0-9-_.:], one per "
            "submission. A repeat with the same key changes nothing and gets the first answer."
        ),
    ),
) -> str | None:
    """The request's ``Idempotency-Key`` (checked by ``services.submissions``)."""
    return idempotency_key


@dataclass(frozen=True)
class ParentWrite(ParentClient):
    """A signed-in parent's write with the request's ``Idempotency-Key``, so a repeat of the
    same submission changes nothing (``run_once``, ``answer_once``, ``charge_once``)."""

    key: str | None

    async def run_once(self, action: str, fn: Callable[..., Any], /, **kwargs: Any) -> Any:
        """``run_once`` for this parent and key."""
        return await run_once(self.parent_id, self.key, action, fn, **kwargs)

    async def answer_once(
        self, action: str, fn: Callable[..., Any], /, *, message: str | None = None, **kwargs: Any
    ) -> JSONResponse:
        """``run_once`` answered: its result, with the catalog's ``message`` in the parent's
        language, or the result's own ``message`` without one."""
        return _answered(await self.run_once(action, fn, **kwargs), message, self.lang)

    async def charge_once(self, action: str, call: Callable[[], Any]) -> JSONResponse:
        """``charge_once`` for this parent and key."""
        return await charge_once(self, self.key, action, call)


def _answered(done: submissions.Submitted, message: str | None, lang: str) -> JSONResponse:
    return ok(done.result, t(message, lang) if message else done.result["message"])


@dataclass(frozen=True)
class TokenWrite:
    """A repeat-safe write by the token's parent, the token checked in the write's own
    transaction: one transaction and one worker thread per call (``parent_write`` costs two of
    each), for the lunch rush's writes (AddToCart). A missing token is refused at once (401)."""

    client: Client
    key: str | None

    @property
    def lang(self) -> str:
        return self.client.lang

    async def body(self, model: type[M]) -> M:
        return await self.client.body(model)

    async def answer_once(
        self, action: str, fn: Callable[..., Any], /, *, message: str | None = None, **kwargs: Any
    ) -> JSONResponse:
        """``ParentWrite.answer_once``, the token checked in the same transaction."""
        done = await run_as_parent(
            self.client, submissions.submit_once, key=self.key, action=action, fn=fn, **kwargs
        )
        return _answered(done, message, self.lang)


async def token_write(
    client: Client = Depends(client_context),
    key: str | None = Depends(idempotency_key),
) -> TokenWrite:
    """The request's token (checked by the write itself, or HTTP 401 now when there is none)
    and ``Idempotency-Key``."""
    if not client.token:
        raise accounts.Unauthorized()
    return TokenWrite(client=client, key=key)


async def parent_write(
    who: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
) -> ParentWrite:
    """The signed-in parent (or HTTP 401) writing with the request's ``Idempotency-Key``."""
    return ParentWrite(client=who.client, parent=who.parent, key=key)


async def run_once(
    parent_id: int, key: str | None, action: str, fn: Callable[..., Any], /, **kwargs: Any
) -> Any:
    """A write that is safe to repeat: ``fn(session=..., parent_id=..., **kwargs)`` through
    ``services.submissions.submit_once``, so a repeat of the request's ``Idempotency-Key``
    changes nothing and gets the first answer (``.result``)."""
    return await run_in_transaction(
        submissions.submit_once, parent_id=parent_id, key=key, action=action, fn=fn, **kwargs
    )


async def _claimed(
    who: ParentClient, key: str | None, action: str, call: Callable[[], Any]
) -> JSONResponse:
    """``call()`` under a key this request holds; its answer stored for a repeat."""
    try:
        response = await call()
    except DomainError:
        await run_in_transaction(submissions.release, parent_id=who.parent_id, key=key)
        raise
    # Anything else may have come after a charge: the key stays claimed, so a repeat
    # answers "being processed" instead of charging again (the reconciliation settles it).
    stored = {"status": response.status_code, "body": json.loads(bytes(response.body))}
    await run_in_transaction(
        submissions.remember, parent_id=who.parent_id, key=key, action=action, result=stored
    )
    return response


async def charge_once(
    who: ParentClient, key: str | None, action: str, call: Callable[[], Any]
) -> JSONResponse:
    """A call that charges (or opens what charges), safe to repeat by the request's
    ``Idempotency-Key``: the key is claimed before ``call()`` runs (one request
    wins even when two race), the answer is stored, and a repeat gets that answer, waiting
    while the first is still running. A call refused (a ``DomainError``: the services raise
    them before charging) frees its key. A first call still in flight after longer than any
    call takes died with its worker: a call safe to run again (``submissions.RETAKEABLE``) is
    run again for the repeat; any other answers "being processed" until the payments round has
    asked Converge. Without a key, ``call()`` simply runs."""
    if submissions.checked_key(key) is None:
        return await call()
    first = await run_in_transaction(
        submissions.claim, parent_id=who.parent_id, key=key, action=action
    )
    if first is None:
        return await _claimed(who, key, action, call)
    if first == submissions.IN_FLIGHT:
        first = await submissions.answer_of(parent_id=who.parent_id, key=key, action=action)
    if first == submissions.IN_FLIGHT and await run_in_transaction(
        submissions.retake, parent_id=who.parent_id, key=key, action=action
    ):
        # Still in flight after longer than any call takes: its worker died. A call that is
        # safe to run again (submissions.RETAKEABLE) runs again under the same key.
        return await _claimed(who, key, action, call)
    if first == submissions.IN_FLIGHT:
        return fail(t("payment_not_open", who.lang))
    return JSONResponse(first["body"], status_code=first["status"])


def _as_parent(*, session: Any, _token: str, _fn: Callable[..., T], **kwargs: Any) -> T:
    parent = accounts.authenticate(session=session, token=_token)
    return _fn(session=session, parent_id=parent.parent_id, **kwargs)


async def run_as_parent(client: Client, fn: Callable[..., T], /, **kwargs: Any) -> T:
    """``fn(session=..., parent_id=<the token's parent>, **kwargs)``: the token check and the
    service in one transaction on one worker thread, for the hot reads (``parent_context``
    then ``run`` costs two of each). No token, or a bad one: HTTP 401."""
    if not client.token:
        raise accounts.Unauthorized()
    return await run_in_transaction(_as_parent, _token=client.token, _fn=fn, **kwargs)


def answer(data: Any, lang: str, message: str = "success", **values: Any) -> JSONResponse:
    """``data`` with the catalog's ``message`` in ``lang``."""
    return ok(data, t(message, lang, **values))


def answer_found(data: Any, lang: str, *, found: bool | None = None) -> JSONResponse:
    """``data`` with "success", or with "no_data_found" when nothing was found (``data`` is
    empty, unless ``found`` says): the lists and screens that may have nothing to show."""
    if found is None:
        found = bool(data)
    return answer(data, lang, "success" if found else "no_data_found")


async def read_as_parent(
    client: Client, fn: Callable[..., Any], /, *, message: str = "success", **kwargs: Any
) -> JSONResponse:
    """A signed-in parent's read (``run_as_parent``) in the parent's language, answered with
    the catalog's ``message``."""
    data = await run_as_parent(client, fn, lang=client.lang, **kwargs)
    return answer(data, client.lang, message)


async def list_as_parent(
    client: Client, fn: Callable[..., Any], /, *, found_in: str | None = None, **kwargs: Any
) -> JSONResponse:
    """A signed-in parent's list (``run_as_parent``) in the parent's language, answered
    "success", or "no_data_found" when empty (when its ``found_in`` entry is, for a screen)."""
    rows = await run_as_parent(client, fn, lang=client.lang, **kwargs)
    return answer_found(rows, client.lang, found=None if found_in is None else bool(rows[found_in]))


async def list_of(lang: str, fn: Callable[..., Any], /, **kwargs: Any) -> JSONResponse:
    """``fn(session=..., **kwargs)``'s rows (one transaction), answered "success", or
    "no_data_found" when there are none."""
    return answer_found(await run_in_transaction(fn, **kwargs), lang)


async def read_for(who: ParentClient, fn: Callable[..., Any], /, **kwargs: Any) -> JSONResponse:
    """``fn(session=..., parent_id=..., lang=..., **kwargs)`` for the signed-in parent,
    answered "success"."""
    data = await run_in_transaction(fn, parent_id=who.parent_id, lang=who.lang, **kwargs)
    return answer(data, who.lang)


# --- bodies ------------------------------------------------------------------------------------


def examples(*cases: dict[str, Any]) -> ConfigDict:
    """A model's config showing ``cases`` as its examples in the OpenAPI doc; the rest of its
    config comes from its base model."""
    return ConfigDict(json_schema_extra={"examples": list(cases)})


def example_config(example: dict[str, Any]) -> ConfigDict:
    """A request model's config: unknown fields ignored, ``example`` shown in the OpenAPI doc."""
    return ConfigDict(extra="ignore", **examples(example))


def required(value: T | None, code: str, field: str) -> T:
    """``value``, or the refusal ``code`` on ``field`` when the body left it out."""
    if value is None:
        raise DomainError(code, field=field)
    return value


def payment_of(body: Any) -> int:
    """The body's ``payment_id``, or "payment not found" on that field."""
    return required(body.payment_id, "payment_not_found", "payment_id")


def lightbox_declined(who: ParentClient, body: Any) -> dict[str, Any]:
    """What a payment the Lightbox declined (or closed) tells its service: the parent, the
    payment, the decline's message and the language. Only a hint: the service asks Converge
    before believing it."""
    return {
        "parent_id": who.parent_id,
        "payment_id": payment_of(body),
        "message": body.ssl_result_message or "DECLINED",
        "lang": who.lang,
    }


def request_key(
    header: str | None, body_key: str | None, *, invalid: str | None = None
) -> str | None:
    """The key of a repeat-safe write: the ``Idempotency-Key`` header, else the body's
    ``request_key``, else None. Without ``invalid``, a blank key is no key and the service checks
    the key's shape (``services.submissions.checked_key``). With ``invalid`` (the cancels), the
    first key sent must be 1-64 characters of ``[A-Za-z0-9-_.:]``, else the refusal ``invalid``;
    without one, the cancels are repeat-safe by their natural key."""
    if invalid is None:
        return header or body_key or None
    for key in (header, body_key):
        if key is not None:
            if not REQUEST_KEY.match(key):
                raise DomainError(invalid, field="request_key")
            return key
    return None
