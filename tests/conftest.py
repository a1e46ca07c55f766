"""Fixtures every test package may use: the real servers, worker and browser of the site."""

from __future__ import annotations

import collections
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
from tests.support.events import Received, recording_events
from tests.support.mail import WorkerOutbox
from tests.support.processes import (
    ManagedProcess,
    database_url,
    start_celery_worker,
    start_daphne,
    wait_for_worker,
)
from tests.support.silent_service import SilentService

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


# The marks of tests that take many seconds each: their files are run first.
LONG_MARKS = ("browser", "slow")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist, the files of long tests (`LONG_MARKS`) first, then the others, each
    part by its files' numbers of tests, most first. With `--dist loadfile` the workers take
    files in this order (`--no-loadscope-reorder`: xdist's own order, by the number of tests
    alone, puts the files of a few whole games at a table, the suite's longest, last), so
    that the short files even out the workers' ends. In one process the order stays
    pytest-django's."""
    if not hasattr(config, "workerinput"):
        return
    long_files = {item.path for item in items
                  if any(item.get_closest_marker(mark) for mark in LONG_MARKS)}
    tests_in = collections.Counter(item.path for item in items)
    items.sort(key=lambda item: (item.path not in long_files, -tests_in[item.path]))


def pytest_sessionfinish(session: pytest.Session) -> None:
    """An xdist worker hands the counts of the generated-input tests to the run that started
    it, which prints them (`pytest_terminal_summary`)."""
    from tests.security import tally

    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput["generated_input"] = {
            "sent": dict(tally.sent), "server_errors": dict(tally.server_errors)}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    from tests.security import tally

    counts = getattr(node, "workeroutput", {}).get("generated_input")
    if counts:
        tally.sent.update(counts["sent"])
        tally.server_errors.update(counts["server_errors"])


def pytest_terminal_summary(terminalreporter: object, exitstatus: int, config: pytest.Config
                            ) -> None:
    """The counts the generated-input tests keep (`tests.security.tally`), printed and kept
    in var/generated-input.json, for the security page's figures."""
    import json

    from tests.security import tally

    if not tally.sent or hasattr(config, "workeroutput"):
        return
    sent = ", ".join(f"{count} {kind}" for kind, count in sorted(tally.sent.items()))
    errors = sum(tally.server_errors.values())
    terminalreporter.write_line(f"generated input: {sent}; {errors} server errors")  # type: ignore[attr-defined]
    out = Path(config.rootpath) / "var" / "generated-input.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"sent": dict(tally.sent),
                               "server_errors": dict(tally.server_errors)}, indent=1))


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test begins in the site's default language: a language a test turned on in this
    thread (a view or a service run in it) would otherwise stay on for the next test."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(scope="session", autouse=True)
def _clean_redis() -> None:
    """The tests' Redis database starts empty, so no earlier run's messages leak in. An xdist
    worker empties only its own keys: the other worker is already using the database."""
    from django.conf import settings

    if not settings.REDIS_URL:
        return
    client = redis.Redis.from_url(settings.REDIS_URL)
    if not settings.XDIST_WORKER:
        client.flushdb()
        return
    patterns = (f"{settings.XDIST_WORKER}:*", f"{settings.CACHES['default']['KEY_PREFIX']}:*",
                f"{settings.CHANNEL_LAYERS['default']['CONFIG']['prefix']}*")
    for pattern in patterns:
        for key in client.scan_iter(match=pattern, count=1000):
            client.unlink(key)


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
def silent_push_service() -> Iterator[SilentService]:
    """A push service on this machine that takes connections and never answers, which the
    suite's workers take as a push service (`WEBPUSH_LOCAL_ORIGINS`); nothing else local is."""
    with SilentService() as service:
        yield service


@pytest.fixture(scope="session")
def celery_worker(
    server_env: dict[str, str], process_logs: Path, worker_mail_dir: Path,
    silent_push_service: SilentService,
) -> Iterator[ManagedProcess]:
    """Real Celery workers on the tests' Redis and database, ready when the fixture returns:
    one for the default queue (returned: the AI's moves, the moments of play), one for the
    slow queue (the analyses and puzzle scans, at a lower CPU priority) and one for the
    outbound queue (e-mail and Web Push: `extra["outbound"]`), as in production, so that a
    test waiting on an AI move never waits behind another test's analysis or a silent push
    service, nor shares the cores with an analysis on equal terms. The mail they send goes to
    files (`worker_outbox` reads them): a test's own process cannot see the locmem outbox of
    another process."""
    from django.conf import settings

    from notifications.management.commands.vapid_keys import vapid_key_pair

    # Named after the xdist worker: the ping must hear this run's workers, not the other's.
    name = f"worker-{settings.XDIST_WORKER}" if settings.XDIST_WORKER else "worker"
    public, private = vapid_key_pair()
    env = {**server_env, "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
           "EMAIL_FILE_PATH": str(worker_mail_dir),
           # They push (to the subscriptions a test makes), as production's do.
           "WEBPUSH_VAPID_PUBLIC_KEY": public, "WEBPUSH_VAPID_PRIVATE_KEY": private,
           "TEST_WEBPUSH_LOCAL_ORIGINS": silent_push_service.origin}
    worker = start_celery_worker(env, process_logs, name=name,
                                 queues=[settings.CELERY_TASK_DEFAULT_QUEUE])
    slow = start_celery_worker(env, process_logs, name=f"{name}-slow",
                               queues=[settings.CELERY_SLOW_QUEUE], niceness=10)
    outbound = start_celery_worker(env, process_logs, name=f"{name}-outbound",
                                   queues=[settings.CELERY_OUTBOUND_QUEUE])
    try:
        wait_for_worker(worker)
        wait_for_worker(slow)
        wait_for_worker(outbound)
        worker.extra["slow"] = slow
        worker.extra["outbound"] = outbound
        yield worker
    finally:
        worker.stop()
        slow.stop()
        outbound.stop()


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

    from tests.support.chromium import Chromium

    with sync_playwright() as playwright:
        chromium = Chromium(playwright, chromium_executable(), CHROMIUM_FLAGS)
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
        browser.close_context(context)  # type: ignore[attr-defined]


@pytest.fixture
def sockets_settled() -> Iterator[None]:
    """After a test with match sockets on real servers, wait until the servers have recorded
    their closing (`tests.support.settle`)."""
    yield
    from tests.support.settle import wait_sockets_settled

    wait_sockets_settled()


@pytest.fixture
def page(new_page: Callable[[], object]) -> object:
    return new_page()


@pytest.fixture
def sent_tasks() -> Iterator[Callable[[], list[tuple[str, tuple[object, ...]]]]]:
    """What this test sends to the real broker: its tasks go to a queue no worker reads,
    emptied first; call the fixture for what is on it (name and arguments, oldest first).
    The slow tasks' routes are lifted meanwhile, so they land there too."""
    from yourtrumps_site.celery import app

    default_queue, routes = app.conf.task_default_queue, app.conf.task_routes
    broker_empty()
    # `update` (not assignment) makes Celery build its router again from the routes.
    app.conf.update(task_default_queue=SENT_QUEUE, task_routes={})
    try:
        yield sent_tasks_on_broker
    finally:
        app.conf.update(task_default_queue=default_queue, task_routes=routes)
        broker_empty()


def _caused_by_deadlock(error: BaseException | None) -> bool:
    while error is not None:
        if "deadlock detected" in str(error):
            return True
        error = error.__cause__ or error.__context__
    return False


@pytest.fixture(scope="session", autouse=True)
def _flush_outlasts_deadlocks() -> Iterator[None]:
    """The flush after a transactional test truncates every table while a server or the
    worker of the suite may still be finishing a transaction of that test (a move, a flag by
    the deadline watch). PostgreSQL then breaks the deadlock by cancelling one of the two,
    sometimes the flush: the flush is tried again once the other has committed, so that one
    late write cannot fail every test after it with the rows it left."""
    import time

    from django.test import TransactionTestCase

    original = TransactionTestCase._fixture_teardown

    def teardown(self: TransactionTestCase) -> None:
        for attempt in range(5):
            try:
                original(self)
                return
            except Exception as error:
                if attempt == 4 or not _caused_by_deadlock(error):
                    raise
                time.sleep(0.5)

    TransactionTestCase._fixture_teardown = teardown  # type: ignore[method-assign]
    yield
    TransactionTestCase._fixture_teardown = original  # type: ignore[method-assign]


@pytest.fixture
def play_events() -> Iterator[Received]:
    """The moments of play the test's code sends (`tests.support.events`): what a test's
    transaction commits is sent (in a test without transactions, under
    `django_capture_on_commit_callbacks(execute=True)`)."""
    with recording_events() as received:
        yield received
