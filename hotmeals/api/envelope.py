"""The answer shape of every /api/v1 call (docs/product.md §7, §8):
``{"code": 1|0, "message", "data"}``."""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

T = TypeVar("T")


class Envelope(BaseModel, Generic[T]):
    """The answer model of every call: a route's ``response_model`` is ``Envelope[its data]``."""

    code: Literal[0, 1] = Field(description="1 success, 0 refused (see message).")
    message: str
    data: T | None = None


# The refusals every parent call may answer, declared once for the OpenAPI document.
FAILURES: dict[int | str, dict[str, Any]] = {
    401: {"model": Envelope[None], "description": "Missing, expired or revoked token."},
    403: {"model": Envelope[None], "description": "Wrong api-key or app header."},
}


class ApiError(Exception):
    """A refusal decided by the API layer itself (bad key, bad body)."""

    def __init__(self, message: str, *, status_code: int = 200, data: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.status_code = status_code
        self.data = data


def ok(data: Any = None, message: str = "") -> dict[str, Any]:
    """A success: the route's ``response_model`` (``Envelope[its data]``) checks and
    serializes it (FastAPI)."""
    return {"code": 1, "message": message, "data": data}


def ok_or_fail(succeeded: bool, data: Any, message: str) -> dict[str, Any] | JSONResponse:
    """``data`` with ``message``: a success, or a refusal that carries the same data."""
    return ok(data, message) if succeeded else fail(message, data=data)


def fail(message: str, *, status_code: int = 200, data: Any = None) -> JSONResponse:
    """A refused request: HTTP 200 with code 0, as the original client expects, unless a
    status is required (401 for a missing or expired token, 404 for an unknown path)."""
    return JSONResponse({"code": 0, "message": message, "data": data}, status_code=status_code)
