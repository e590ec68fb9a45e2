"""The path from the backend's ASGI entry to a service is short: at most five of our own frames
between them, counted from inside the service, across the hop to the worker thread
(docs/architecture.md "A request's path").

The request enters the app the way the server hands it over: the guard in front of everything
(``web.guard.backend_entry``), which gives /api/v1 straight to the FastAPI app. The service is
replaced by a recorder that notes the frames above it on its thread and, on the event loop, the
chain of coroutines the request's task is awaiting, then refuses (the answer does not matter).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from types import CoroutineType, FrameType
from typing import Any

import pytest
from fastapi.testclient import TestClient

import hotmeals
from hotmeals.api.app import create_api
from hotmeals.domain.errors import DomainError
from hotmeals.services import children
from hotmeals.services.ordering import cart
from hotmeals.web.guard import backend_entry
from tests.api.helpers import headers, quick_token

OURS = str(Path(hotmeals.__file__).parent)
MOST_FRAMES = 5


async def _pages(scope: Any, receive: Any, send: Any) -> None:
    raise AssertionError("an /api/v1 request reached Reflex's app")


def _ours(code_file: str) -> bool:
    return code_file.startswith(OURS)


def _awaited_frames(coroutine: Any) -> list[FrameType]:
    """The frames of the chain of coroutines ``coroutine`` is awaiting, outermost first."""
    frames: list[FrameType] = []
    while isinstance(coroutine, CoroutineType) and coroutine.cr_frame is not None:
        frames.append(coroutine.cr_frame)
        coroutine = coroutine.cr_await
    return frames


class Recorder:
    """Stands in for a service: notes our frames between the entry and itself."""

    def __init__(self) -> None:
        self.request_task: asyncio.Task | None = None
        self.loop_side: list[str] = []
        self.thread_side: list[str] = []
        self.reached_entry = False

    async def entry(self, scope: Any, receive: Any, send: Any) -> None:
        """The server's call into the app (the test's, so not counted)."""
        self.request_task = asyncio.current_task()
        await self.app(scope, receive, send)

    def service(self, **kwargs: Any) -> Any:
        assert self.request_task is not None
        awaited = _awaited_frames(self.request_task.get_coro())
        self.reached_entry = any(f.f_code is Recorder.entry.__code__ for f in awaited)
        self.loop_side = [f.f_code.co_qualname for f in awaited if _ours(f.f_code.co_filename)]
        frame = sys._getframe(1)
        thread: list[str] = []
        while frame is not None:
            if _ours(frame.f_code.co_filename):
                thread.append(frame.f_code.co_qualname)
            frame = frame.f_back
        self.thread_side = thread[::-1]
        raise DomainError("cart_line_not_found")

    @property
    def frames(self) -> list[str]:
        return self.loop_side + self.thread_side


@pytest.fixture
def recorder() -> Recorder:
    found = Recorder()
    found.app = backend_entry(create_api())(_pages)  # type: ignore[attr-defined]
    return found


def _called(recorder: Recorder, method: str, path: str, **kwargs: Any) -> list[str]:
    client = TestClient(recorder.entry)  # no lifespan: Reflex's app is not there
    client.request(method, f"/api/v1{path}", headers=headers(quick_token()), **kwargs)
    assert recorder.reached_entry, "the chain of awaits did not reach the entry: a hop hid it"
    assert recorder.thread_side, "the service was not run on a worker thread"
    return recorder.frames


def test_a_write_reaches_its_service_through_five_of_our_frames(recorder, monkeypatch):
    monkeypatch.setattr(cart, "add_to_cart", recorder.service)
    frames = _called(
        recorder,
        "POST",
        "/Parent/cart/AddToCart",
        json={"child_id": 1, "meal_id": 1, "menu_day_id": 1},
    )
    assert frames == [
        "EdgeGuard.__call__",
        "add_to_cart",
        "run_in_transaction",
        "in_transaction",
        "submit_once",
    ]
    assert len(frames) <= MOST_FRAMES


def test_a_read_reaches_its_service_through_four_of_our_frames(recorder, monkeypatch):
    monkeypatch.setattr(children, "list_children", recorder.service)
    frames = _called(recorder, "GET", "/Parent/user/GetChilds")
    assert frames == ["EdgeGuard.__call__", "get_children", "run_in_transaction", "in_transaction"]
