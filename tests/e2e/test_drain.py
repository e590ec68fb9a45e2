"""SIGTERM drains: a server told to stop lets the requests in flight finish with
their full answer before it goes, and then exits cleanly.

The request in flight is a Converge call to the app's own simulator held for a few seconds by
the simulator's ``delay`` fault (the longest thing a parent's request waits on); it is known
to be in flight when the simulator has taken the fault (``/_sim/state``), not after a sleep.
The signal goes to the server's main process only (what an orchestrator sends), not to the
whole process group.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.e2e.server import AppServer, start_app
from tests.e2e.simulator import merchant_credentials, xml_call
from tests.e2e.smtp import SmtpServer
from tests.e2e.test_simulator_ledger import CARD, VISA

# Starts servers of its own: make test runs it after the browser tests, one module at a time.
pytestmark = pytest.mark.servers

DELAY_SECONDS = 8


@pytest.fixture
def server(tmp_path_factory, smtp: SmtpServer):
    env = {**smtp.env, "CONVERGE_SIM_CONTROL": "1"}
    app = start_app(tmp_path_factory.mktemp("e2e-drain"), env)
    try:
        yield app
    finally:
        app.stop()


def _sim(app: AppServer, path: str, **params: str) -> httpx.Response:
    return httpx.post(f"{app.base_url}/converge-sim/_sim/{path}", params=params, timeout=60)


def test_sigterm_lets_the_request_in_flight_finish(server: AppServer) -> None:
    merchant = merchant_credentials(server)
    assert _sim(server, "fault", kind=f"delay:{DELAY_SECONDS}", scope="xml").status_code == 200

    with ThreadPoolExecutor(max_workers=1) as pool:
        started = time.monotonic()
        sale = pool.submit(
            xml_call,
            server,
            merchant,
            ssl_transaction_type="ccsale",
            ssl_amount="12.34",
            ssl_card_number=VISA,
            ssl_invoice_number="DRAIN-1",
            ssl_first_name="Drain",
            **CARD,
        )
        # In flight: the simulator took the fault and is holding the request.
        deadline = time.monotonic() + 120
        while True:
            state = httpx.get(f"{server.base_url}/converge-sim/_sim/state", timeout=60).json()
            if state["fault"] is None:
                break
            assert time.monotonic() < deadline, "the sale never reached the simulator"
            assert not sale.done(), sale.result()
            time.sleep(0.05)
        assert not sale.done(), "the delay fault did not hold the sale"

        os.kill(server.process.pid, signal.SIGTERM)  # the main process only, as an orchestrator

        answer = sale.result(timeout=120)  # the full answer, not a reset connection
        assert answer.get("ssl_result") == "0", answer
        assert time.monotonic() - started >= DELAY_SECONDS - 1  # it really waited the delay

    try:
        code = server.process.wait(timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("the server did not exit after draining")
    assert code == 0, server.log_path.read_text(errors="replace")[-3000:]
    with pytest.raises(httpx.TransportError):  # gone: nothing accepts a new request
        httpx.get(f"{server.base_url}/api/v1/health", timeout=10)
