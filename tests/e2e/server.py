"""Start the real app (prod build, one port) on a fresh, migrated, seeded SQLite database.

The frontend is built once per process (a pytest session, a bench run; or once for all the
pytest-xdist workers, see PREBUILT) and build folder: the first start_app() runs
`reflex run --env prod --single-port` (compile + build, 1-2 minutes), every
later one serves that build (the same `reflex run` minus its compile and build steps: seconds).
A build serves any port because hotmeals/ui/backend_url.py makes its websocket, uploads and
pings follow the page's origin; a build without that flag in its env.json is never reused.
Callers whose extra environment may change the compiled pages (anything but the per-server
variables in RUNTIME_ONLY) get a build folder of their own.
"""

from __future__ import annotations

import hashlib
import json
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

# What differs from one server to the next without changing the compiled frontend.
RUNTIME_ONLY = frozenset(
    {
        "PORT",
        "DATA_DIR",
        "DATABASE_URL",
        "REDIS_URL",
        "GRANIAN_WORKERS",
        "GRANIAN_LOG_LEVEL",
        "HOTMEALS_LOG_LEVEL",
        "SMTP_HOST",
        "SMTP_PORT",
        "SMTP_USER",
        "SMTP_PASSWORD",
        "REFLEX_WEB_WORKDIR",
        "CONVERGE_SIM_CONTROL",  # mounts the simulator's controls: a backend route, no page
        # Which Converge the backend talks to (bench/lunch_rush.py: a simulator process of its
        # own): read by the backend's payment calls, no page is compiled with it.
        "CONVERGE_MERCHANT_ID",
        "CONVERGE_USER_ID",
        "CONVERGE_PIN",
        "CONVERGE_BASE_URL",
        "CONVERGE_SIM_PIN",
    }
)
# Set by scripts/run_tests.py to the build folder it built before starting the pytest-xdist
# workers: each worker's servers serve that build instead of building it again (or racing).
PREBUILT = os.environ.get("E2E_PREBUILT", "")
# The app is served by hotmeals.serve (`reflex run`, with failed backend workers respawned);
# with --compiled, without its compile and frontend build: the same checks, ports, environment
# and backend (Granian, GRANIAN_WORKERS), mounting the build already in REFLEX_WEB_WORKDIR.
# Build folders whose build this process made and served (see the module doc).
_built: set[str] = set()


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
    built: bool = True  # False: it serves the build an earlier server of this process made

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
            # The reminders job writes mails at real evening times (Toronto): off, so a test
            # that counts a parent's mails never meets one (tests/integration/test_reminders.py
            # covers the job with a given clock).
            "HOTMEALS_REMINDERS_SECONDS": "0",
            # Likewise the standing orders' job (it would book and charge the demo parent's
            # standing order mid-test; tests/integration/test_standing_orders_job.py covers it).
            "HOTMEALS_STANDING_SECONDS": "0",
        }
    )
    env.pop("REDIS_URL", None)
    env.update(extra_env or {})
    env["REFLEX_WEB_WORKDIR"] = web_workdir(env["REFLEX_WEB_WORKDIR"], extra_env or {})
    workdir = env["REFLEX_WEB_WORKDIR"]
    reuse = (workdir in _built or workdir == PREBUILT) and serves_any_port(workdir)
    py = sys.executable
    for step in (["migrate"], ["seed"]):
        subprocess.run(
            [py, "-m", "hotmeals.cli", *step],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    log_path = data_dir / "server.log"
    log = open(log_path, "wb")  # noqa: SIM115 - closed with the process
    run = ["run", "--env", "prod", "--single-port", "--backend-port", str(port)]
    command = [py, "-m", "hotmeals.serve", *(["--compiled"] if reuse else []), *run]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    server = AppServer(
        f"http://localhost:{port}", port, data_dir, env, process, log_path, built=not reuse
    )
    try:
        # A build takes 1-2 minutes on an idle machine, several on a busy one; a start that
        # reuses the build, seconds.
        deadline = time.monotonic() + (300 if reuse else 600)
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"app exited early:\n{log_path.read_text()[-4000:]}")
            try:
                if (
                    httpx.get(f"{server.base_url}/api/v1/health", timeout=2).status_code == 200
                    and httpx.get(server.url("/"), timeout=5).status_code == 200
                ):
                    _built.add(env["REFLEX_WEB_WORKDIR"])
                    return server
            except httpx.HTTPError:
                pass
            time.sleep(1)
        raise RuntimeError(f"app did not start in time:\n{log_path.read_text()[-4000:]}")
    except BaseException:
        # Whatever stops the wait (its deadline, pytest-timeout, Ctrl-C), the server and its
        # build stop with it: none is left running, holding a port and the build folder.
        server.stop()
        raise


def web_workdir(base: str, extra_env: dict[str, str]) -> str:
    """The build folder: ``base``, or one of its own for an environment that may change the
    compiled pages (HOTMEALS_MODE, SUPPORT_PHONE...), so that its build never replaces the one
    another server of the session is serving."""
    compiled = sorted((k, v) for k, v in extra_env.items() if k not in RUNTIME_ONLY)
    if not compiled:
        return base
    digest = hashlib.sha256(json.dumps(compiled).encode()).hexdigest()[:10]
    return f"{base.rstrip('/')}-{digest}"


def serves_any_port(workdir: str) -> bool:
    """Whether the finished build in ``workdir`` follows the page's origin (backend_url.py)."""
    web = Path(workdir)
    try:
        flags = json.loads((web / "env.json").read_text())
    except (OSError, ValueError):
        return False
    return flags.get("SAME_ORIGIN_BACKEND") is True and (web / "build" / "client").is_dir()


def prebuild() -> str:
    """Build the session's frontend once (a server started and stopped) and return its folder,
    for E2E_PREBUILT: scripts/run_tests.py runs this before the browser tests' xdist workers."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="hotmeals-prebuild-") as folder:
        start_app(Path(folder)).stop()
        return web_workdir(os.environ.get("E2E_WEB_WORKDIR") or str(ROOT / ".web-e2e"), {})


if __name__ == "__main__":
    print(prebuild())
