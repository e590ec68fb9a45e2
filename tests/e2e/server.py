"""Start the real app (prod build, one port) on a fresh, migrated, seeded SQLite database."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class AppServer:
    base_url: str  # http://localhost:PORT
    port: int
    data_dir: Path
    env: dict[str, str]
    process: subprocess.Popen
    log_path: Path

    def url(self, path: str = "/") -> str:
        return f"{self.base_url}/parent{path if path.startswith('/') else '/' + path}"

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)


def start_app(data_dir: Path, extra_env: dict[str, str] | None = None) -> AppServer:
    port = free_port()
    env = dict(os.environ)
    env.update(
        {
            "PORT": str(port),
            "DATA_DIR": str(data_dir),
            "DATABASE_URL": f"sqlite:///{data_dir}/e2e.db",
            "REFLEX_USE_NPM": "1",
            "REFLEX_CHECK_LATEST_VERSION": "false",
            "REFLEX_TELEMETRY_ENABLED": "false",
            "PATH": f"{ROOT / '.venv' / 'bin'}{os.pathsep}{env.get('PATH', '')}",
            "PYTHONUNBUFFERED": "1",
            # Its own build folder, so a developer's `make run` (.web) never races the suite.
            # E2E_WEB_WORKDIR lets two checkouts (or two developers' runs) build side by side.
            "REFLEX_WEB_WORKDIR": os.environ.get("E2E_WEB_WORKDIR") or str(ROOT / ".web-e2e"),
            # Payment movements and Converge calls in server.log: a failure has its story, and
            # the no-secrets test has a log to read.
            "HOTMEALS_LOG_LEVEL": "DEBUG",
        }
    )
    env.pop("REDIS_URL", None)
    env.update(extra_env or {})
    py = sys.executable
    for step in (["migrate"], ["seed"]):
        subprocess.run(
            [py, "-m", "hotmeals.db.cli", *step],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    log_path = data_dir / "server.log"
    log = open(log_path, "wb")  # noqa: SIM115 - closed with the process
    reflex = str(ROOT / ".venv" / "bin" / "reflex")
    process = subprocess.Popen(
        [reflex, "run", "--env", "prod", "--single-port", "--backend-port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    server = AppServer(f"http://localhost:{port}", port, data_dir, env, process, log_path)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"app exited early:\n{log_path.read_text()[-4000:]}")
        try:
            if (
                httpx.get(f"{server.base_url}/api/v1/health", timeout=2).status_code == 200
                and httpx.get(server.url("/"), timeout=5).status_code == 200
            ):
                return server
        except httpx.HTTPError:
            pass
        time.sleep(1)
    server.stop()
    raise RuntimeError(f"app did not start in time:\n{log_path.read_text()[-4000:]}")
