"""The Converge simulator under uvicorn on 127.0.0.1 (one server per test session), and a
client that talks to it over real HTTP."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
import pytest_asyncio
import uvicorn

from hotmeals.converge.configured import simulator_credentials
from hotmeals.converge.converge import ConvergeClient
from hotmeals.converge.simulator import create_simulator_app
from tests.payments.support import PATIENT, START, FakeClock, SimServer


@pytest.fixture(scope="session")
def sim_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SimServer]:
    clock = FakeClock()
    # Served under the same prefix the app uses, so the paths match production use; its store
    # is a SQLite file of this test session's own.
    store = tmp_path_factory.mktemp("converge-sim") / "sim.db"
    # The client (``SimServer.settings``) sends the app's demo credentials; this simulator
    # accepts the same ones although its ledger is a file of its own.
    app = create_simulator_app(
        clock,
        base_path="/converge-sim",
        hang_seconds=5.0,
        database_url=f"sqlite:///{store}",
        credentials=simulator_credentials(),
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60  # a condition, with room for a busy machine
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("simulator did not start")
        time.sleep(0.02)
    with httpx.Client(timeout=PATIENT) as http:  # the tests' control calls assert no timing
        yield SimServer(f"http://127.0.0.1:{port}/converge-sim", app, clock, http)
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()
    app.state.simulator.engine.store.dispose()


@pytest.fixture
def sim(sim_server: SimServer) -> SimServer:
    sim_server.control("reset")
    sim_server.clock.now = START
    return sim_server


@pytest_asyncio.fixture
async def client(sim: SimServer) -> AsyncIterator[ConvergeClient]:
    async with ConvergeClient(sim.settings, timeout=PATIENT) as converge:
        yield converge
