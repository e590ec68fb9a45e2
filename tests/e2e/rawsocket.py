"""A raw Socket.IO client for Reflex's ``/_event`` websocket, for attack tests.

It speaks the wire protocol by hand (Engine.IO 4 + Socket.IO 5 over one websocket, through
``simple_websocket``, already installed with Reflex) so a test can send exactly what a hostile
browser would: any event name, any payload, no frontend in between.

    with RawReflexSocket(base_url) as sock:
        sock.call("reflex___state____state.<substate>.<handler>", {"arg": 1}, barrier=...)
        text = sock.received_text()   # every frame the server sent back, as text
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import simple_websocket

NAMESPACE = "/_event"


class _Client(simple_websocket.Client):
    """simple_websocket's client, minus a race: when the server's first frame (Engine.IO's open
    packet) arrives in the same read as the handshake's 101 answer, the stock client leaves that
    frame parsed but unread until the next bytes come in (the server's ping, 25 s later)."""

    def handshake(self) -> None:
        super().handshake()
        if not self._handle_events():  # frames that came with the handshake's answer
            self.connected = False


class RawReflexSocket:
    def __init__(self, base_url: str, *, client_token: str | None = None) -> None:
        self.client_token = client_token or str(uuid.uuid4())
        ws_base = base_url.replace("http://", "ws://").replace("https://", "wss://")
        self.url = f"{ws_base}{NAMESPACE}/?EIO=4&transport=websocket&token={self.client_token}"
        self.frames: list[str] = []
        self.updates: list[dict[str, Any]] = []
        self._ws: _Client | None = None

    # --- connection ------------------------------------------------------------------------
    def __enter__(self) -> RawReflexSocket:
        self._ws = _Client(self.url)
        opened = self._recv(10)
        if not opened or not opened.startswith("0"):
            raise RuntimeError(f"no Engine.IO open packet: {opened!r}")
        self._ws.send(f"40{NAMESPACE},")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            frame = self._recv(1)
            if frame and frame.startswith(f"40{NAMESPACE}"):
                return self
            if frame and frame.startswith(f"44{NAMESPACE}"):
                raise RuntimeError(f"namespace refused: {frame}")
        raise RuntimeError("no Socket.IO connect acknowledgement")

    def __exit__(self, *exc: object) -> None:
        if self._ws is not None:
            self._ws.close()
            self._ws = None

    def _recv(self, timeout: float) -> str | None:
        assert self._ws is not None
        try:
            frame = self._ws.receive(timeout=timeout)
        except simple_websocket.ConnectionClosed:
            raise RuntimeError("the server closed the websocket") from None
        if frame is None:
            return None
        text = frame.decode() if isinstance(frame, bytes) else frame
        if text == "2":  # Engine.IO ping: answer, or the server drops us
            self._ws.send("3")
            return self._recv(timeout)
        self.frames.append(text)
        prefix = f"42{NAMESPACE},"
        if text.startswith(prefix):
            name, *args = json.loads(text[len(prefix) :])
            if name == "event" and args and isinstance(args[0], dict):
                self.updates.append(args[0])
        return text

    # --- events ------------------------------------------------------------------------------
    def send_event(
        self, name: str, payload: dict[str, Any] | None = None, *, path: str = "/edit-profile"
    ) -> None:
        """Send one event as the frontend does (name, payload, router data)."""
        assert self._ws is not None
        event = {
            "name": name,
            "payload": payload or {},
            "router_data": {"pathname": path, "asPath": path, "query": {}},
        }
        self._ws.send(f"42{NAMESPACE}," + json.dumps(["event", event]))

    def call(
        self,
        name: str,
        payload: dict[str, Any] | None = None,
        *,
        barrier: tuple[str, str] | None = None,
        path: str = "/edit-profile",
        timeout: float = 20.0,
    ) -> list[dict[str, Any]]:
        """Send an event, then wait until the server has processed it; returns the updates
        received meanwhile.

        Reflex 0.10 marks no update as the last of an event, but it processes one client's
        (non-background) events in order: ``barrier`` names a ``set_x(value)``-style handler
        ``(event name, var name)`` that is sent next with a fresh boolean, and the wait ends
        when that value comes back in a delta.
        """
        start = len(self.updates)
        self.send_event(name, payload, path=path)
        if barrier is None:
            self.drain(quiet=0.5, limit=timeout)
            return self.updates[start:]
        self._flag = not getattr(self, "_flag", False)
        barrier_name, var = barrier
        state_key = barrier_name.rpartition(".")[0]
        self.send_event(barrier_name, {"value": self._flag}, path=path)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._recv(0.5)
            for update in self.updates[start:]:
                delta = update.get("delta") or {}
                if delta.get(state_key, {}).get(f"{var}_rx_state_") is self._flag:
                    return self.updates[start:]
        raise TimeoutError(f"{name}: the server did not process it within {timeout} s")

    def drain(self, quiet: float = 1.5, limit: float = 20.0) -> None:
        """Read until the server has been quiet for ``quiet`` seconds (background events)."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            if self._recv(quiet) is None:
                return

    def received_text(self) -> str:
        return "\n".join(self.frames)
