"""The answer shape of every /api/v1 call (docs/product.md §7, §8):
``{"code": 1|0, "message", "data"}``."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse


def ok(data: Any = None, message: str = "") -> JSONResponse:
    return JSONResponse({"code": 1, "message": message, "data": data})


def fail(message: str, *, status_code: int = 200, data: Any = None) -> JSONResponse:
    """A refused request: HTTP 200 with code 0, as the original client expects, unless a
    status is required (401 for a missing or expired token, 404 for an unknown path)."""
    return JSONResponse({"code": 0, "message": message, "data": data}, status_code=status_code)
