"""Browser tests: the real ASGI app under Daphne, driven by Debian's Chromium through Playwright.

``live_server_url`` starts ``daphne config.asgi:application`` in a subprocess against a fresh
SQLite file (``SQLITE_PATH``) that was migrated first, waits for the port and yields the base
URL; the server is stopped when the session ends. ``daphne_server(workdir, **env)`` does the
same for a test that needs its own server (other clock settings, say). Nothing here uses pytest-django's live server
(a thread in the test process, where the async-unsafe check would get in the way): the browser
talks to the same server a person would.

``browser`` launches ``/usr/bin/chromium``. Without it the browser tests are skipped with the
reason, except in CI (``CI=true``) or with ``REQUIRE_SERVICES=1``, where that is a failure.

Screenshots go to ``tests/e2e/artifacts/`` (git-ignored) through the ``screenshot`` fixture.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


def _required() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"} or os.environ.get(
        "REQUIRE_SERVICES", ""
    ) in {"1", "true", "yes"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for_port(port: int, proc: subprocess.Popen[bytes], log: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited with {proc.returncode}:\n{log.read_text()[-4000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), 0.25):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"daphne did not answer on port {port} within {timeout:.0f} s:\n{log.read_text()[-4000:]}")


@contextmanager
def daphne_server(workdir: Path, **extra_env: str) -> Iterator[str]:
    """Migrate a fresh SQLite file in ``workdir`` and serve the real ASGI app on a free port.

    Yields the base URL (no trailing slash); stops the server on exit. ``extra_env`` reaches the
    server process, e.g. shorter table clocks for a test that waits for a timeout.
    """
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SQLITE_PATH": str(workdir / "e2e.sqlite3"),
        "DJANGO_DEBUG": "0",
        "PYTHONUNBUFFERED": "1",
        # The server runs as `make run` does, timers' worker thread included (the test process
        # itself never starts one, see tests/conftest.py).
        "CELERY_EMBEDDED_WORKER": "1",
        **extra_env,
    }
    # The browser tests run against the embedded mode: no Redis or PostgreSQL behind them.
    for name in ("DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
    migrate = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180,
    )
    if migrate.returncode != 0:
        pytest.fail(f"migrate failed:\n{migrate.stdout}\n{migrate.stderr}")

    port = _free_port()
    log = workdir / "daphne.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    try:
        _wait_for_port(port, proc, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@pytest.fixture(scope="session")
def live_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL (no trailing slash) of Daphne serving config.asgi:application."""
    with daphne_server(tmp_path_factory.mktemp("e2e-server")) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """A Playwright Chromium browser (Debian's, never a downloaded one)."""
    if not Path(CHROMIUM).exists():
        reason = f"{CHROMIUM} is missing (apt-get install chromium)"
        if _required():
            pytest.fail(f"{reason}, and CI/REQUIRE_SERVICES makes that a failure")
        pytest.skip(reason)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:  # pragma: no cover - the test extra installs it
        if _required():
            pytest.fail(f"playwright is not installed: {exc}")
        pytest.skip(f"playwright is not installed: {exc}")

    # Playwright's sync API runs its own event loop in this thread; the tests that use it are
    # plain functions, so pytest-asyncio (asyncio_mode=auto) leaves them alone.
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Callable[[object, str], Path]:
    """``screenshot(page, "name")`` saves a full-page PNG under tests/e2e/artifacts/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    test_name = request.node.name.replace("[", "-").replace("]", "").replace("/", "_")

    def take(page: object, name: str) -> Path:
        path = ARTIFACTS / f"{test_name}--{name}.png"
        page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
        return path

    return take


@pytest.fixture(scope="session", autouse=True)
def _clean_artifacts() -> None:
    """Start each run with an empty artifacts folder, so what is there belongs to this run."""
    if ARTIFACTS.exists():
        shutil.rmtree(ARTIFACTS)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
