"""The /api/v1 routes, declared as a list of records per group (one router, one OpenAPI tag)
instead of written as an endpoint each.

``declare_all`` takes a router, the group's tags and a list of ``Post`` and ``Get`` records,
each with what ``route`` takes for a hand-written endpoint (path, body, answer, summary) and a
``Call``, declared in the order listed (the order the OpenAPI document shows). A route that
only hands its body's fields to one service function and answers its result is a ``Call`` of
one kind (``Listing``, ``ParentListing``, ``ParentRead``, ``ReadFor``, ``Once``, ``Done``): the
kind says who may call (its dependency) and how the service's result is answered. A route whose
answer takes more is a ``handler``: a function of the caller and the body. The endpoint
registered is the one a hand-written route would be: a function of the call's ``name`` (the
start of the OpenAPI operationId) taking the kind's dependency, so the OpenAPI document and
every answer stay the same. A group of handlers may instead declare each route where its
function is written (``Routes``: ``post`` and ``get`` make the same record), as the payments
do.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import KW_ONLY, dataclass, field
from enum import Enum
from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from hotmeals.api.deps import (
    answer as message_answer,
)
from hotmeals.api.deps import (
    client_context,
    list_as_parent,
    list_of,
    parent_context,
    parent_write,
    read_as_parent,
    read_for,
    required,
    route,
    token_write,
)


@dataclass(frozen=True)
class Call:
    """The endpoint ``name``: it hands every field of its body to ``fn`` (or what ``fields``
    makes of the body, where the service's arguments are named or shaped otherwise), and
    ``lang``, the caller's language, when asked; a ``required`` field the body left out is
    refused with its refusal code instead. A kind's ``answered`` runs ``fn`` and answers."""

    name: str
    fn: Callable[..., Any]
    _: KW_ONLY
    lang: bool = False
    required: Mapping[str, str] = field(default_factory=dict)
    fields: Callable[[Any], dict[str, Any]] | None = None
    who: Callable[..., Any] = client_context

    def arguments(self, body: BaseModel | None, lang: str) -> dict[str, Any]:
        """The keyword arguments of ``fn`` besides those its kind adds."""
        if body is None:
            kwargs: dict[str, Any] = {}
        else:
            kwargs = body.model_dump() if self.fields is None else self.fields(body)
        for name, refusal in self.required.items():
            required(kwargs[name], refusal, name)
        if self.lang:
            kwargs["lang"] = lang
        return kwargs

    async def respond(self, who: Any, body: BaseModel | None) -> JSONResponse:
        """The answer to ``who`` for the request's ``body`` (None for a route without one)."""
        return await self.answered(who, self.arguments(body, who.lang))

    async def answered(self, who: Any, kwargs: dict[str, Any]) -> JSONResponse:
        raise NotImplementedError


@dataclass(frozen=True, kw_only=True)
class Listing(Call):
    """Rows for anyone with the api-key (``list_of``): "no_data_found" when there are none."""

    async def answered(self, who: Any, kwargs: dict[str, Any]) -> JSONResponse:
        return await list_of(who.lang, self.fn, **kwargs)


@dataclass(frozen=True, kw_only=True)
class ParentListing(Call):
    """The token's parent's rows (``list_as_parent``): "no_data_found" when there are none (when
    the ``found_in`` entry has none, for a screen)."""

    found_in: str | None = None

    async def answered(self, who: Any, kwargs: dict[str, Any]) -> JSONResponse:
        return await list_as_parent(who, self.fn, found_in=self.found_in, **kwargs)


@dataclass(frozen=True, kw_only=True)
class ParentRead(Call):
    """A read of the token's parent in one transaction (``read_as_parent``), answered with the
    catalog's ``message``."""

    message: str = "success"

    async def answered(self, who: Any, kwargs: dict[str, Any]) -> JSONResponse:
        return await read_as_parent(who, self.fn, message=self.message, **kwargs)


@dataclass(frozen=True, kw_only=True)
class ReadFor(Call):
    """A read of the signed-in parent (``read_for``), answered "success"."""

    who: Callable[..., Any] = parent_context

    async def answered(self, who: Any, kwargs: dict[str, Any]) -> JSONResponse:
        return await read_for(who, self.fn, **kwargs)


@dataclass(frozen=True, kw_only=True)
class Once(Call):
    """A repeat-safe write ``action`` (the endpoint's ``name`` when not given), by
    ``answer_once`` of ``parent_write`` (or of ``token_write`` for the lunch rush's), answered
    with the catalog's ``message``, or with the result's own message without one."""

    action: str = ""
    message: str | None = None
    who: Callable[..., Any] = parent_write

    async def answered(self, who: Any, kwargs: dict[str, Any]) -> JSONResponse:
        return await who.answer_once(
            self.action or self.name, self.fn, message=self.message, **kwargs
        )


@dataclass(frozen=True, kw_only=True)
class Done(Once):
    """A repeat-safe write ``action`` answered with the catalog's ``message`` alone."""

    message: str

    async def answered(self, who: Any, kwargs: dict[str, Any]) -> JSONResponse:
        await who.run_once(self.action or self.name, self.fn, **kwargs)
        return message_answer(None, who.lang, self.message)


@dataclass(frozen=True, kw_only=True)
class Handler(Call):
    """A route whose answer is written by hand: ``fn(who, body)`` (``fn(who)`` for a route
    without a body) takes what it needs of the caller and the body, runs its services and
    answers. ``handler`` makes one of a function's own name and parameters."""

    body: type[BaseModel] | None = None

    async def respond(self, who: Any, body: BaseModel | None) -> JSONResponse:
        return await (self.fn(who) if body is None else self.fn(who, body))


# The dependency giving each kind of caller (its return annotation), for ``handler``.
DEPENDENCY_OF: Mapping[Any, Callable[..., Any]] = {
    inspect.signature(dependency, eval_str=True).return_annotation: dependency
    for dependency in (client_context, parent_context, parent_write, token_write)
}


Handled = Callable[..., Awaitable[JSONResponse]]


def handler(fn: Handled, *, who: Callable[..., Any] | None = None) -> Handler:
    """``fn`` as the endpoint of its own name: its first parameter's annotation says who calls
    (the dependency giving that kind of caller, or ``who`` where another one gives it, as the
    operator's key does) and its second's, when it has one, the body it is handed."""
    caller, *rest = inspect.signature(fn, eval_str=True).parameters.values()
    dependency = who if who is not None else DEPENDENCY_OF[caller.annotation]
    return Handler(fn.__name__, fn, who=dependency, body=rest[0].annotation if rest else None)


def _endpoint(call: Call, body: type[BaseModel] | None) -> Callable[..., Any]:
    async def endpoint(who: Any = Depends(call.who)) -> Any:
        return await call.respond(who, None if body is None else await who.body(body))

    endpoint.__name__ = endpoint.__qualname__ = call.name
    return endpoint


@dataclass(frozen=True)
class Post:
    """A route of ``declare_all``: ``call`` at POST ``path``, ``body`` read and handed to it (a
    handler's own when not given), ``answer`` the data of its envelope."""

    path: str
    call: Call
    _: KW_ONLY
    body: type[BaseModel] | None = None
    answer: Any
    summary: str

    def method(self, router: APIRouter) -> Callable[..., Any]:
        return router.post

    @property
    def model(self) -> type[BaseModel] | None:
        """The request's body: the one given, or the handler's."""
        if self.body is None and isinstance(self.call, Handler):
            return self.call.body
        return self.body


@dataclass(frozen=True)
class Get(Post):
    """A route of ``declare_all`` at GET ``path``."""

    def method(self, router: APIRouter) -> Callable[..., Any]:
        return router.get


def declare_all(router: APIRouter, tags: list[str | Enum], routes: list[Post]) -> None:
    """Every route of ``routes`` declared on ``router`` under the OpenAPI ``tags``, in order, as
    ``route`` declares a hand-written endpoint: its ``body`` read and handed to its call."""
    for declared in routes:
        endpoint = route(
            declared.method(router),
            declared.path,
            body=declared.model,
            answer=declared.answer,
            tags=tags,
            summary=declared.summary,
        )
        endpoint(_endpoint(declared.call, declared.model))


@dataclass(frozen=True)
class Routes:
    """A group's routes written beside their handlers: ``post`` and ``get`` declare the
    function they decorate on ``router`` under the OpenAPI ``tags`` as ``declare_all`` declares
    a ``handler``'s record, in the order the functions are written."""

    router: APIRouter
    tags: list[str | Enum]

    def post(
        self, path: str, *, answer: Any, summary: str, who: Callable[..., Any] | None = None
    ) -> Callable[[Handled], Handled]:
        return self._declaring(Post, path, answer, summary, who)

    def get(
        self, path: str, *, answer: Any, summary: str, who: Callable[..., Any] | None = None
    ) -> Callable[[Handled], Handled]:
        return self._declaring(Get, path, answer, summary, who)

    def _declaring(
        self,
        kind: type[Post],
        path: str,
        answer: Any,
        summary: str,
        who: Callable[..., Any] | None,
    ) -> Callable[[Handled], Handled]:
        def declare(fn: Handled) -> Handled:
            declared = kind(path, handler(fn, who=who), answer=answer, summary=summary)
            declare_all(self.router, self.tags, [declared])
            return fn

        return declare
