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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Header, Request, Security
from fastapi.responses import JSONResponse
from fastapi.security import APIKeyHeader
from pydantic import BaseModel, ConfigDict, Field

from hotmeals.api.bodies import parse_body
from hotmeals.api.envelope import FAILURES, ApiError, fail, ok
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


def api_router() -> APIRouter:
    """A router of /api/v1 calls: 401 and 403 declared for the OpenAPI document (refusals are
    answered in the envelope by the app's exception handlers, ``api/app.py``)."""
    return APIRouter(prefix="/api/v1", responses=FAILURES)


def json_body(model: type[M]) -> Callable[[Request], Awaitable[M]]:
    """A dependency reading the request body as ``model`` (``parse_body``: whatever the content
    type, refusals in the caller's language). Declared after the caller's dependency, it is
    read after the api-key and the token are checked. The route declares the body in OpenAPI
    with ``openapi_extra=openapi_body(model)``."""

    async def read(request: Request) -> M:
        return await parse_body(request, model, request_lang(request))

    return read


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


Caller = Annotated[Client, Depends(client_context)]
"""Anyone with the api-key (a visitor: places, grades, sign-in)."""


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
class SignedInClient:
    """A caller with a session token, not checked yet: the route hands it to its service's
    transaction (``run_in_transaction(..., parent_token=who.token)``), which checks it there,
    so a signed-in call costs one transaction and one thread hop."""

    client: Client
    token: str

    @property
    def lang(self) -> str:
        return self.client.lang


async def signed_in(client: Client = Depends(client_context)) -> SignedInClient:
    """The request's token (HTTP 401 now when there is none)."""
    if not client.token:
        raise accounts.Unauthorized()
    return SignedInClient(client=client, token=client.token)


SignedIn = Annotated[SignedInClient, Depends(signed_in)]
"""A parent's read whose token its service's transaction checks (``parent_token``)."""


@dataclass(frozen=True)
class SignedInWrite(SignedInClient):
    """A repeat-safe write by the token's parent, with the request's ``Idempotency-Key``
    (``services.submissions.submit_once`` in the transaction that checks the token)."""

    key: str | None


async def signed_in_write(
    who: SignedInClient = Depends(signed_in),
    key: str | None = Depends(idempotency_key),
) -> SignedInWrite:
    return SignedInWrite(client=who.client, token=who.token, key=key)


SignedInWriting = Annotated[SignedInWrite, Depends(signed_in_write)]
"""A parent's write whose token its service's transaction checks, with its key."""


@dataclass(frozen=True)
class ParentClient:
    """A signed-in parent, checked before the route runs (its own transaction): for the calls
    that run several transactions or a payment, and need the parent throughout."""

    client: Client
    parent: accounts.ParentContext

    @property
    def lang(self) -> str:
        return self.client.lang

    @property
    def parent_id(self) -> int:
        return self.parent.parent_id


async def parent_context(client: Client = Depends(client_context)) -> ParentClient:
    """A signed-in parent, or HTTP 401."""
    if not client.token:
        raise accounts.Unauthorized()
    parent = await run_in_transaction(accounts.authenticate, token=client.token)
    return ParentClient(client=client, parent=parent)


CurrentParent = Annotated[ParentClient, Depends(parent_context)]
"""The signed-in parent (HTTP 401 otherwise)."""


@dataclass(frozen=True)
class ParentWrite(ParentClient):
    """A signed-in parent's write with the request's ``Idempotency-Key``, so a repeat of the
    same submission changes nothing (``submissions.submit_once``, ``charge_once``)."""

    key: str | None


async def parent_write(
    who: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
) -> ParentWrite:
    """The signed-in parent (or HTTP 401) writing with the request's ``Idempotency-Key``."""
    return ParentWrite(client=who.client, parent=who.parent, key=key)


ParentWriting = Annotated[ParentWrite, Depends(parent_write)]
"""The signed-in parent writing, with the request's ``Idempotency-Key``."""


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


async def _claimed(
    who: ParentWrite, key: str | None, action: str, call: Callable[[], Awaitable[Any]]
) -> Any:
    """``call()`` under a key this request holds; its answer stored for a repeat."""
    try:
        response = await call()
    except DomainError:
        await run_in_transaction(submissions.release, parent_id=who.parent_id, key=key)
        raise
    # Anything else may have come after a charge: the key stays claimed, so a repeat
    # answers "being processed" instead of charging again (the reconciliation settles it).
    if isinstance(response, JSONResponse):
        stored = {"status": response.status_code, "body": json.loads(bytes(response.body))}
    else:
        stored = {"status": 200, "body": response}
    await run_in_transaction(
        submissions.remember, parent_id=who.parent_id, key=key, action=action, result=stored
    )
    return response


async def charge_once(who: ParentWrite, action: str, call: Callable[[], Awaitable[Any]]) -> Any:
    """A call that charges (or opens what charges), safe to repeat by the request's
    ``Idempotency-Key``: the key is claimed before ``call()`` runs (one request
    wins even when two race), the answer is stored, and a repeat gets that answer, waiting
    while the first is still running. A call refused (a ``DomainError``: the services raise
    them before charging) frees its key. A first call still in flight after longer than any
    call takes died with its worker: a call safe to run again (``submissions.RETAKEABLE``) is
    run again for the repeat; any other answers "being processed" until the payments round has
    asked Converge. Without a key, ``call()`` simply runs."""
    key = who.key
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
    body = first["body"]
    if first["status"] == 200 and isinstance(body, dict) and body.get("code") == 1:
        return body  # a success: checked against the route's model as the first one was
    return JSONResponse(body, status_code=first["status"])


# --- answers -----------------------------------------------------------------------------------


def answer(data: Any, lang: str, message: str = "success", **values: Any) -> dict[str, Any]:
    """``data`` with the catalog's ``message`` in ``lang``: a success, which FastAPI checks
    against the route's ``response_model`` (a field the model lacks is dropped, one that
    does not fit fails in the tests)."""
    return ok(data, t(message, lang, **values))


def answer_found(data: Any, lang: str, *, found: bool | None = None) -> dict[str, Any]:
    """``data`` with "success", or with "no_data_found" when nothing was found (``data`` is
    empty, unless ``found`` says): the lists and screens that may have nothing to show."""
    if found is None:
        found = bool(data)
    return answer(data, lang, "success" if found else "no_data_found")


def answered(done: submissions.Submitted, lang: str, message: str | None = None) -> dict[str, Any]:
    """A repeat-safe write's answer (``submissions.submit_once``): its result, with the
    catalog's ``message`` in ``lang``, or the result's own ``message`` without one."""
    return ok(done.result, t(message, lang) if message else done.result["message"])


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
