"""What the fault tests break on purpose: their own Redis, a proxy in front of PostgreSQL that
can refuse connections, and workers and servers they may kill. The machine's shared PostgreSQL
and Redis are never stopped.

They take about two minutes, more than the whole suite may spend on them, so they run when
asked for: `pytest tests/faults` (or any path inside it), or `YT_FAULTS=1` with any selection.
A plain `pytest` skips them with that reason."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.processes import VENV_BIN, ManagedProcess, child_env, free_port

FAULTS_DIR = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    asked = os.environ.get("YT_FAULTS") == "1" or any(
        Path(str(arg).split("::")[0]).resolve().is_relative_to(FAULTS_DIR) for arg in config.args
    )
    if asked:
        return
    skip = pytest.mark.skip(reason="fault tests run with `pytest tests/faults` or YT_FAULTS=1")
    for item in items:
        if Path(str(item.fspath)).resolve().is_relative_to(FAULTS_DIR):
            item.add_marker(skip)


@pytest.fixture
def make_user(db):
    from django.contrib.auth import get_user_model

    counter = iter(range(1, 10_000))

    def make():
        return get_user_model().objects.create_user(f"fault{next(counter)}", password="pw-x9-k")

    return make


class OwnRedis:
    """A throwaway redis-server on a free port, no persistence: stop() and start() at will."""

    def __init__(self, log_dir: Path) -> None:
        self.port = free_port()
        self.log_dir = log_dir
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        log = (self.log_dir / f"redis-{self.port}.log").open("ab")
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--daemonize", "no"],
            stdout=log, stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the throwaway redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self.process = None


@pytest.fixture
def own_redis(process_logs: Path) -> Iterator[OwnRedis]:
    redis = OwnRedis(process_logs)
    redis.start()
    yield redis
    redis.stop()


class PostgresProxy:
    """A TCP proxy to the real PostgreSQL. `refuse()` drops every open connection and closes
    new ones at once (as a server that is restarting); `allow()` lets them through again."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self.refusing = False
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", self.port))
        self.listener.settimeout(0.2)
        self.running = True
        self.refused = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while self.running:
            try:
                client, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if self.refusing:
                self.refused += 1
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, 5)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.open |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with self.lock:
                    self.open.discard(s)
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()

    def refuse(self) -> None:
        self.refusing = True
        with self.lock:
            sockets = list(self.open)
        for s in sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def allow(self) -> None:
        self.refusing = False

    def close(self) -> None:
        self.running = False
        self.refuse()
        self.listener.close()


@pytest.fixture
def pg_proxy(server_env) -> Iterator[PostgresProxy]:
    from django.db import connection

    host = connection.settings_dict.get("HOST") or "127.0.0.1"
    port = int(connection.settings_dict.get("PORT") or 5432)
    proxy = PostgresProxy((host, port))
    yield proxy
    proxy.close()


def start_worker(env: dict[str, str], log_dir: Path, name: str, slow: bool = False
                 ) -> ManagedProcess:
    module = ["-m", "tests.faults.slow_ai_worker"] if slow else ["-m", "celery", "-A",
                                                                  "yourtrumps_site"]
    return ManagedProcess(
        name=f"celery:{name}",
        args=[str(VENV_BIN / "python"), *module, "worker", "--pool=solo", "--concurrency=1",
              "--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat",
              "-n", f"{name}@%h"],
        env=child_env(env), log_path=log_dir / f"celery-{name}.log",
    ).start()
