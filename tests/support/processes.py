"""Start the site's real processes (daphne, a Celery worker) for a test, and stop them after."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def database_url(settings_dict: Mapping[str, object]) -> str:
    """The URL of the database Django is using now (in tests: the test database)."""
    engine = str(settings_dict["ENGINE"])
    name = settings_dict["NAME"]
    if "sqlite" in engine:
        return f"sqlite:///{name}"
    user = settings_dict.get("USER") or ""
    password = settings_dict.get("PASSWORD") or ""
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{credentials}{host}:{port}/{name}"


@dataclass
class ManagedProcess:
    """A child process with its log file; `stop()` ends it and everything it started."""

    name: str
    args: list[str]
    env: dict[str, str]
    log_path: Path
    process: subprocess.Popen[bytes] | None = None
    extra: dict[str, object] = field(default_factory=dict)

    def start(self) -> ManagedProcess:
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            self.args,
            cwd=REPO_ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            # A process group of its own, to be stopped whole, but the session of the one that
            # started it: with the kernel's autogroups each session shares the CPU equally, and
            # a niceness (the slow worker's) would count only inside its own session.
            process_group=0,
        )
        log.close()
        return self

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def kill(self) -> None:
        """End the process abruptly, as a crash would."""
        if self.alive:
            assert self.process is not None
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self, timeout: float = 10) -> None:
        if not self.alive:
            return
        assert self.process is not None
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout)
        except ProcessLookupError:
            pass


def child_env(overrides: Mapping[str, str]) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    env["PYTHONUNBUFFERED"] = "1"
    env["PATH"] = f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}"
    # A connection per database call rather than one kept per thread: the two workers of a
    # run start a dozen servers and workers, and their idle connections reached PostgreSQL's
    # 100 ("too many clients already") while a test raced threads of its own.
    env.setdefault("DB_CONN_MAX_AGE", "0")
    env.update(overrides)
    return env


def wait_for_http(url: str, process: ManagedProcess, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        if not process.alive:
            raise RuntimeError(f"{process.name} exited early:\n{process.log_tail()}")
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                response.read()
                return
        except urllib.error.HTTPError:
            return  # it answered, which is all that is asked here
        except OSError as error:
            last_error = error
            time.sleep(0.1)
    raise RuntimeError(f"{process.name} did not answer {url}: {last_error}\n{process.log_tail()}")


def start_daphne(
    env_overrides: Mapping[str, str], log_dir: Path, port: int | None = None
) -> ManagedProcess:
    port = port or free_port()
    process = ManagedProcess(
        name=f"daphne:{port}",
        args=[
            str(VENV_BIN / "daphne"),
            "-b", "127.0.0.1", "-p", str(port),
            "yourtrumps_site.asgi:application",
        ],
        env=child_env(env_overrides),
        log_path=log_dir / f"daphne-{port}.log",
    ).start()
    process.extra["port"] = port
    process.extra["url"] = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(f"http://127.0.0.1:{port}/healthz", process)
    except BaseException:
        process.stop()  # a server that never answered must not outlive the test
        raise
    return process


def start_celery_worker(
    env_overrides: Mapping[str, str], log_dir: Path, name: str = "worker",
    queues: Sequence[str] = (), niceness: int = 0,
) -> ManagedProcess:
    """A worker of one process. With no `queues` it consumes every queue of its settings
    (`CELERY_TASK_QUEUES`: the default and the slow one); else only those named (`-Q`), as
    production's workers do, at `niceness` (production's slow worker runs at 10). Its node
    name is `extra["node"]` (`wait_for_worker`)."""
    from celery.utils.nodenames import gethostname

    worker = ManagedProcess(
        name=f"celery:{name}",
        args=[
            *(["nice", "-n", str(niceness)] if niceness else []),
            str(VENV_BIN / "celery"), "-A", "yourtrumps_site", "worker",
            "--pool=solo", "--concurrency=1", "--loglevel=INFO",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
            "-n", f"{name}@%h", *(["-Q", ",".join(queues)] if queues else []),
        ],
        env=child_env(env_overrides),
        log_path=log_dir / f"celery-{name}.log",
    ).start()
    worker.extra["node"] = f"{name}@{gethostname()}"
    return worker


def wait_for_worker(worker: ManagedProcess, attempts: int = 60) -> None:
    """Return once the worker answers a ping by its own node name (of `start_celery_worker`);
    stop it and fail if it exits or stays silent."""
    from yourtrumps_site.celery import app

    for _attempt in range(attempts):
        if not worker.alive:
            break
        if app.control.ping(timeout=0.5, destination=[str(worker.extra["node"])]):
            return
    worker.stop()
    raise RuntimeError(f"the Celery worker {worker.extra['node']} never answered:\n"
                       f"{worker.log_tail()}")
