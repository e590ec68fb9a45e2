"""A local stand-in for Elavon Converge (converge.md §8), as a Starlette ASGI app.

    app = create_simulator_app(clock=None, base_path="")

The app mounts it at ``/converge-sim`` when no real credentials are configured; tests run it
under uvicorn. Only merchant ``000000`` / user ``hotmeals`` and the PIN of
``hotmeals.converge.configured.simulator_credentials()`` (``CONVERGE_SIM_PIN`` when set;
unset: the PIN generated with the simulator's store and kept there) are accepted, on every
merchant call: the token request and processxml.do (the Lightbox's browser-side endpoints
take a session token instead, and only see that session).
Its sessions, transactions, stored cards and test controls live in its own database
(``simulator_store.py``), shared by every worker and kept across restarts.

Converge's own doors (same paths as the real hosts):
    POST /hosted-payments/transaction_token   form -> plain-text session token (15 min, once);
                                              ccsale, ccverify or ccgettoken (else 4010)
    GET  /hosted-payments/PayWithConverge.js  stand-in Lightbox: ``PayWithConverge.open(...)``
    POST /VirtualMerchantDemo/processxml.do   ``xmldata`` in the form body or the query string
    POST /VirtualMerchant/processxml.do       the same (production path); GET is accepted too
The stand-in Lightbox's own endpoints (browser side; open to any origin):
    GET  /hosted-payments/session?ssl_txn_auth_token=...   amount/invoice for the dialog
    POST /hosted-payments/process             form: ssl_txn_auth_token, ssl_card_number,
                                              ssl_exp_date (MMYY), ssl_cvv2cvc2 (the session
                                              decides whether the card is saved)
                                              -> JSON {"outcome": approval|declined|invalid|
                                                 error, "response": {...} | "error": {...}}

Test-only controls under ``/_sim/`` (``control=False`` leaves them out); parameters go in the
query string or a form body:
    POST /_sim/reset                 forget everything, clear faults, release hung requests
                                     (in every worker)
    POST /_sim/settle                close the batch: open transactions become STL
    POST /_sim/fault?kind=K&count=N&scope=S
        K: no_answer (hang, nothing processed), lost_answer (processed, then hang: the charge
        happened but the answer is lost), http_500 (nothing processed), delay:<seconds>
        (wait, then process even if the caller gave up), none (clear).
        N requests (default 1); S: any (default), xml, token, process.
    POST /_sim/clock?advance_seconds=960   move the simulator's clock (``reset=1`` to undo)
    POST /_sim/config?decline_by_cents=0   turn the cents rules off/on
    GET  /_sim/transactions          JSON list;  GET /_sim/state: transactions, tokens,
                                     sessions and the pending fault
    GET  /_sim/lightbox?token=...    a bare page that opens the Lightbox with that token

A hang (no_answer, lost_answer, $22.22) lasts until the caller disconnects, ``/_sim/reset``,
or ``hang_seconds`` (default 30); if anyone is still listening it then answers errorCode 4017.
Test cards and amounts: see ``simulator_cards.py``.
"""

from __future__ import annotations

import functools
import json
import os
import time
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar
from xml.sax.saxutils import escape

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from hotmeals.converge.simulator_cards import InvalidInput, SimError
from hotmeals.converge.simulator_controls import (
    FAULT_KINDS,
    FAULT_SCOPES,
    MAX_DELAY_SECONDS,
    SimulatorControls,
)
from hotmeals.converge.simulator_engine import Clock, Credentials, NoAnswer, SimulatorEngine
from hotmeals.converge.simulator_identity import SIM_MERCHANT_ID, SIM_PIN_VAR, SIM_USER_ID
from hotmeals.converge.simulator_store import store_for, store_url_for
from hotmeals.settings import get_settings

ASSETS = Path(__file__).with_name("simulator_assets")
CORS = {"Access-Control-Allow-Origin": "*", "Cache-Control": "no-store"}
TIMEOUT_ERROR = SimError("4017", "Request Timeout", "The request has timed out.")
HANG_POLL_SECONDS = 0.05
GENERATION_POLL_SECONDS = 0.1  # how often a hung request asks the store whether reset ran

T = TypeVar("T")


async def _off_loop(func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a store call in a thread: the simulator shares the app's event loop when mounted,
    and a database round trip must not stall the app's websockets."""
    return await anyio.to_thread.run_sync(functools.partial(func, *args, **kwargs))


def render_txn(fields: Mapping[str, str]) -> str:
    return "<txn>" + "".join(_element(k, v) for k, v in fields.items()) + "</txn>"


def render_txnlist(txns: list[dict[str, str]]) -> str:
    inner = "".join(render_txn(txn) for txn in txns)
    return f"<txnlist><ssl_txn_count>{len(txns)}</ssl_txn_count>{inner}</txnlist>"


def _element(key: str, value: str) -> str:
    return f"<{key}>{escape(value)}</{key}>" if value else f"<{key}/>"


def xml_response(body: str, status: int = 200) -> Response:
    return Response(body, status_code=status, media_type="text/xml")


def parse_xmldata(xmldata: str) -> dict[str, str]:
    if "<!DOCTYPE" in xmldata.upper() or "<!ENTITY" in xmldata.upper():
        raise _bad_xml()
    try:
        root = ET.fromstring(xmldata.strip())
    except ET.ParseError:
        raise _bad_xml() from None
    if root.tag != "txn":
        raise _bad_xml()
    return {child.tag: (child.text or "").strip() for child in root}


def _bad_xml() -> SimError:
    # Also what a double-encoded body looks like after one decode (converge.md §3).
    return SimError("4005", "XML Invalid", "The xmldata could not be read as <txn> XML.")


class SimulatorApp:
    """Routes around one ``SimulatorEngine``; reachable as ``app.state.simulator``. Holds no
    state of its own: everything is in the engine's store."""

    def __init__(self, engine: SimulatorEngine, *, hang_seconds: float) -> None:
        self.engine = engine
        self.controls = SimulatorControls(engine)
        self.hang_seconds = hang_seconds

    # -- faults and hangs -----------------------------------------------------------------------

    async def hang(self, request: Request) -> None:
        """Hold the request open until the caller leaves, a reset (through any worker) or
        ``hang_seconds``."""
        hang_id = uuid.uuid4().hex
        generation = await _off_loop(self.controls.generation)
        await _off_loop(self.controls.start_hang, hang_id)
        try:
            deadline = time.monotonic() + self.hang_seconds
            next_check = time.monotonic() + GENERATION_POLL_SECONDS
            while time.monotonic() < deadline:
                if await request.is_disconnected():
                    return
                if time.monotonic() >= next_check:
                    if await _off_loop(self.controls.generation) != generation:
                        return
                    next_check = time.monotonic() + GENERATION_POLL_SECONDS
                await anyio.sleep(HANG_POLL_SECONDS)
        finally:
            with anyio.CancelScope(shield=True):
                await _off_loop(self.controls.end_hang, hang_id)

    async def before(self, request: Request, scope: str) -> Response | str | None:
        """Apply a pending fault. Returns a response to send instead, the fault kind to apply
        after processing ("lost_answer"), or None."""
        kind = await _off_loop(self.controls.take_fault, scope)
        if kind is None:
            return None
        if kind == "http_500":
            return PlainTextResponse("Internal Server Error", status_code=500)
        if kind == "no_answer":
            await self.hang(request)
            return xml_response(render_txn(TIMEOUT_ERROR.fields()))
        if kind.startswith("delay:"):
            await anyio.sleep(min(float(kind.split(":", 1)[1]), MAX_DELAY_SECONDS))
            return None
        return kind

    # -- Converge's doors ---------------------------------------------------------------------

    async def processxml(self, request: Request) -> Response:
        # Read the body first: a lost answer must still be processed after the caller gives up.
        form = await request.form()
        fault = await self.before(request, "xml")
        if isinstance(fault, Response):
            return fault
        xmldata = request.query_params.get("xmldata") or str(form.get("xmldata") or "")
        try:
            if not xmldata:
                raise SimError("4009", "Required Field Not Supplied", "xmldata is required.")
            answer = await _off_loop(self.engine.process_xml, parse_xmldata(xmldata))
            body = render_txnlist(answer) if isinstance(answer, list) else render_txn(answer)
        except SimError as error:
            body = render_txn(error.fields())
        except NoAnswer:
            await self.hang(request)
            return xml_response(render_txn(TIMEOUT_ERROR.fields()))
        if fault == "lost_answer":
            await self.hang(request)
        return xml_response(body)

    async def transaction_token(self, request: Request) -> Response:
        form = await request.form()
        fault = await self.before(request, "token")
        if isinstance(fault, Response):
            return fault
        try:
            fields = {k: str(v) for k, v in form.items()}
            token = await _off_loop(self.engine.create_session, fields)
        except SimError as error:
            return xml_response(render_txn(error.fields()))
        if fault == "lost_answer":
            await self.hang(request)
        return PlainTextResponse(token)

    async def lightbox_js(self, request: Request) -> Response:
        script = (ASSETS / "PayWithConverge.js").read_text(encoding="utf-8")
        return Response(script, media_type="application/javascript", headers=CORS)

    # -- the stand-in Lightbox's endpoints (the browser's side: the session token is the key,
    # never the merchant's credentials) ---------------------------------------------------------

    async def session_info(self, request: Request) -> Response:
        token = request.query_params.get("ssl_txn_auth_token", "")
        try:
            fields = await _off_loop(self.engine.session_fields, token)
        except SimError as error:
            return JSONResponse({"ok": False, "error": error.fields()}, headers=CORS)
        info = {
            "ok": True,
            "ssl_transaction_type": fields.get("ssl_transaction_type", ""),
            "ssl_amount": fields.get("ssl_amount", ""),
            "ssl_invoice_number": fields.get("ssl_invoice_number", ""),
        }
        return JSONResponse(info, headers=CORS)

    async def process(self, request: Request) -> Response:
        form = {k: str(v) for k, v in (await request.form()).items()}
        fault = await self.before(request, "process")
        if isinstance(fault, Response):
            if fault.status_code != 200:
                return Response(fault.body, fault.status_code, headers=CORS)
            return JSONResponse({"outcome": "error", "error": TIMEOUT_ERROR.fields()}, headers=CORS)
        try:
            outcome, answer = await _off_loop(
                self.engine.process_hosted,
                form.get("ssl_txn_auth_token", ""),
                form,
            )
            payload: dict[str, Any] = {"outcome": outcome, "response": answer}
        except InvalidInput as error:
            payload = {"outcome": "invalid", "error": error.fields()}
        except SimError as error:
            payload = {"outcome": "error", "error": error.fields()}
        except NoAnswer:
            await self.hang(request)
            payload = {"outcome": "error", "error": TIMEOUT_ERROR.fields()}
        if fault == "lost_answer":
            await self.hang(request)
        return JSONResponse(payload, headers=CORS)

    # -- /_sim/ controls ------------------------------------------------------------------------

    @staticmethod
    async def _params(request: Request) -> dict[str, str]:
        params = dict(request.query_params)
        if request.method == "POST":
            params.update({k: str(v) for k, v in (await request.form()).items()})
        return params

    async def reset(self, request: Request) -> Response:
        await _off_loop(self.controls.reset)
        return JSONResponse({"reset": True})

    async def settle(self, request: Request) -> Response:
        return JSONResponse({"settled": await _off_loop(self.engine.settle)})

    async def set_fault(self, request: Request) -> Response:
        params = await self._params(request)
        kind, scope = params.get("kind", ""), params.get("scope", "any")
        try:
            count = int(params.get("count", "1"))
            if kind.startswith("delay:"):
                if not 0 <= float(kind.split(":", 1)[1]) <= MAX_DELAY_SECONDS:
                    raise ValueError(kind)
            elif kind not in (*FAULT_KINDS, "none"):
                raise ValueError(kind)
            if scope not in FAULT_SCOPES or count < 1:
                raise ValueError(scope)
        except ValueError:
            return JSONResponse({"error": "bad fault"}, status_code=400)
        await _off_loop(self.controls.set_fault, kind, count, scope)
        return JSONResponse({"fault": kind, "count": count, "scope": scope})

    async def set_clock(self, request: Request) -> Response:
        params = await self._params(request)
        try:
            seconds = float(params.get("advance_seconds", "0"))
        except ValueError:
            return JSONResponse({"error": "bad advance_seconds"}, status_code=400)
        now = await _off_loop(
            self.controls.move_clock, advance_seconds=seconds, reset=bool(params.get("reset"))
        )
        return JSONResponse({"now": now.isoformat()})

    async def set_config(self, request: Request) -> Response:
        params = await self._params(request)
        if "decline_by_cents" in params:
            value = params["decline_by_cents"].lower() in ("1", "true")
            await _off_loop(self.controls.set_decline_by_cents, value)
        return JSONResponse({"decline_by_cents": await _off_loop(self.controls.decline_by_cents)})

    async def transactions(self, request: Request) -> Response:
        snapshot = await _off_loop(self.engine.snapshot)
        return JSONResponse(snapshot["transactions"])

    async def state(self, request: Request) -> Response:
        return JSONResponse(await _off_loop(self.controls.state))

    async def lightbox_page(self, request: Request) -> Response:
        # JSON inside <script>: escape <, > and & so no value can close the element.
        token = json.dumps(request.query_params.get("token", ""))
        for char, code in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
            token = token.replace(char, code)
        page = (ASSETS / "lightbox_page.html").read_text(encoding="utf-8")
        return HTMLResponse(page.replace("__TOKEN_JSON__", token))

    def routes(self, *, control: bool) -> list[BaseRoute]:
        routes: list[BaseRoute] = [
            Route("/hosted-payments/transaction_token", self.transaction_token, methods=["POST"]),
            Route("/hosted-payments/PayWithConverge.js", self.lightbox_js, methods=["GET"]),
            Route("/hosted-payments/session", self.session_info, methods=["GET"]),
            Route("/hosted-payments/process", self.process, methods=["POST"]),
            # GET too: older Converge integrations send xmldata in the query string.
            Route("/VirtualMerchantDemo/processxml.do", self.processxml, methods=["GET", "POST"]),
            Route("/VirtualMerchant/processxml.do", self.processxml, methods=["GET", "POST"]),
        ]
        if control:
            routes += [
                Route("/_sim/reset", self.reset, methods=["POST"]),
                Route("/_sim/settle", self.settle, methods=["POST"]),
                Route("/_sim/fault", self.set_fault, methods=["POST"]),
                Route("/_sim/clock", self.set_clock, methods=["POST"]),
                Route("/_sim/config", self.set_config, methods=["POST"]),
                Route("/_sim/transactions", self.transactions, methods=["GET"]),
                Route("/_sim/state", self.state, methods=["GET"]),
                Route("/_sim/lightbox", self.lightbox_page, methods=["GET"]),
            ]
        return routes


def create_simulator_app(
    clock: Clock | None = None,
    *,
    base_path: str = "",
    hang_seconds: float = 30.0,
    decline_by_cents: bool = True,
    control: bool = True,
    database_url: str | None = None,
    credentials: Credentials | None = None,
) -> Starlette:
    """``clock`` returns an aware ``datetime`` (default: UTC now). ``base_path`` serves every
    route under a prefix (e.g. "/converge-sim" when run on its own); leave it empty when the
    host app mounts the simulator at that prefix itself. ``database_url``: the simulator's
    store (default: ``simulator_store.store_url_for`` the app's settings). ``credentials``:
    (merchant id, user id, PIN); default the demo merchant with ``CONVERGE_SIM_PIN`` when set,
    else the PIN kept in the store (``configured.simulator_credentials``)."""
    if database_url is None:
        app_settings = get_settings()
        database_url = store_url_for(app_settings.database_url, app_settings.data_dir)
    configured_pin = os.environ.get(SIM_PIN_VAR, "").strip()
    if credentials is None and configured_pin:
        credentials = (SIM_MERCHANT_ID, SIM_USER_ID, configured_pin)
    engine = SimulatorEngine(
        store_for(database_url),
        credentials,
        clock,
        decline_by_cents=decline_by_cents,
    )
    simulator = SimulatorApp(engine, hang_seconds=min(hang_seconds, MAX_DELAY_SECONDS))
    routes = simulator.routes(control=control)
    if base_path.strip("/"):
        routes = [Mount("/" + base_path.strip("/"), routes=routes)]
    app = Starlette(routes=routes)
    app.state.simulator = simulator
    return app
