"""Fixtures every test package may use: the real servers, worker and browser of the site."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests.support.broker import SENT_QUEUE, broker_empty
from tests.support.broker import sent_tasks as sent_tasks_on_broker
from tests.support.mail import WorkerOutbox
from tests.support.processes import (
    ManagedProcess,
    database_url,
    start_celery_worker,
    start_daphne,
)

# No per-example deadline: CI shares two cores with servers, workers and a browser, so an
# example's wall time says nothing about the code. Speed is measured by the bench commands.
hypothesis_settings.register_profile(
    "yourtrumps", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
hypothesis_settings.load_profile("yourtrumps")

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session", autouse=True)
def _clean_redis() -> Iterator[None]:
    """The tests' Redis database starts empty, so no earlier run's messages leak in."""
    from django.conf import settings

    if settings.REDIS_URL:
        redis.Redis.from_url(settings.REDIS_URL).flushdb()
    return


@pytest.fixture(scope="session")
def process_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("process-logs")


@pytest.fixture(scope="session")
def server_env(django_db_setup: None) -> dict[str, str]:
    """The environment a child process needs to use this run's test database."""
    from django.db import connection

    return {
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": database_url(connection.settings_dict),
    }


@pytest.fixture(scope="session")
def asgi_server(server_env: dict[str, str], process_logs: Path) -> Iterator[ManagedProcess]:
    """One daphne process serving the site (HTTP and WebSockets) on a free local port."""
    server = start_daphne(server_env, process_logs)
    yield server
    server.stop()


@pytest.fixture
def start_asgi_server(
    server_env: dict[str, str], process_logs: Path
) -> Iterator[Callable[..., ManagedProcess]]:
    """Start more daphne processes for one test (they are stopped when it ends)."""
    started: list[ManagedProcess] = []

    def start(**overrides: str) -> ManagedProcess:
        server = start_daphne({**server_env, **overrides}, process_logs)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="session")
def worker_mail_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("worker-mail")


@pytest.fixture(scope="session")
def celery_worker(
    server_env: dict[str, str], process_logs: Path, worker_mail_dir: Path
) -> Iterator[ManagedProcess]:
    """A real Celery worker on the tests' Redis and database, ready when the fixture returns.
    The mail it sends goes to files (`worker_outbox` reads them): a test's own process cannot
    see the locmem outbox of another process."""
    from yourtrumps_site.celery import app

    worker = start_celery_worker(
        {**server_env, "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
         "EMAIL_FILE_PATH": str(worker_mail_dir)},
        process_logs,
    )
    for _attempt in range(60):
        if not worker.alive:
            raise RuntimeError(f"the Celery worker exited:\n{worker.log_tail()}")
        if app.control.ping(timeout=0.5):
            break
    else:
        raise RuntimeError(f"the Celery worker never answered:\n{worker.log_tail()}")
    yield worker
    worker.stop()


@pytest.fixture
def worker_outbox(celery_worker: ManagedProcess, worker_mail_dir: Path) -> WorkerOutbox:
    return WorkerOutbox(worker_mail_dir)


def chromium_executable() -> str:
    path = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        pytest.fail("Chromium is not installed: `apt-get install -y chromium` (see README).")
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium driven by Playwright; never a downloaded browser.

    Module-scoped on purpose: sync Playwright keeps an event loop running in the main thread
    while it is open, which would break the asyncio tests of other modules.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=chromium_executable(), headless=True, args=CHROMIUM_FLAGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: object, asgi_server: ManagedProcess) -> Iterator[Callable[[], object]]:
    """Open a page in a fresh browser context (its own cookies: one user per context)."""
    contexts = []

    def open_page(**context_options: object) -> object:
        context = browser.new_context(base_url=asgi_server.extra["url"], **context_options)  # type: ignore[attr-defined]
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page: Callable[[], object]) -> object:
    return new_page()


@pytest.fixture
def sent_tasks() -> Iterator[Callable[[], list[tuple[str, tuple[object, ...]]]]]:
    """What this test sends to the real broker: its tasks go to a queue no worker reads,
    emptied first; call the fixture for what is on it (name and arguments, oldest first)."""
    from yourtrumps_site.celery import app

    default_queue = app.conf.task_default_queue
    broker_empty()
    app.conf.task_default_queue = SENT_QUEUE
    try:
        yield sent_tasks_on_broker
    finally:
        app.conf.task_default_queue = default_queue
        broker_empty()
