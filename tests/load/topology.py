"""The production topology a load run plays on, on this machine: its environment
(`DJANGO_ENV=production`, its own database, created and migrated if missing, and its own Redis
database index, emptied), `--servers` daphne processes and one Celery worker, started on entry
and stopped on exit; or, with `--url`, servers already running."""

from __future__ import annotations

import argparse
import os
import secrets
import tempfile
from pathlib import Path
from typing import Any


def prepare_environment(args: argparse.Namespace) -> dict[str, str]:
    env = {
        "DJANGO_SETTINGS_MODULE": "yourtrumps_site.settings",
        "DJANGO_ENV": "production",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "CHANNEL_LAYER_PREFIX": "yt-load",
        "CACHE_KEY_PREFIX": "yt-load",
        "DB_CONN_MAX_AGE": args.conn_max_age,
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "WARNING"),
        # Every client of the run comes from this machine's one address.
        "WS_MAX_SOCKETS_PER_ADDRESS": "1000000",
    }
    os.environ.update(env)
    return env


def ensure_database(url: str) -> None:
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                    (name,)).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{name}"')


class Topology:
    """The servers of a run: started here (and stopped at the end) unless `--url` is given.
    Entering it also prepares the database and configures Django in this process."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.env = prepare_environment(args)
        self.started: list[Any] = []
        self.pids: dict[str, int] = {}
        self.servers: list[str] = []
        self.logs = Path(tempfile.mkdtemp(prefix="yourtrumps-load-"))

    def __enter__(self) -> Topology:
        args = self.args
        ensure_database(args.database_url)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        if args.url:
            self.servers = list(args.url)
            return self
        import redis

        from tests.support.processes import start_daphne

        redis.Redis.from_url(args.redis_url).flushdb()
        if ended := end_earlier_runs():
            print(f"aborted {ended} games an earlier run left unfinished")
        try:
            for index in range(args.servers):
                server = start_daphne(self.env, self.logs,
                                      None if args.port is None else args.port + index)
                self.started.append(server)
                self.servers.append(str(server.extra["url"]))
                self.pids[server.name] = server.process.pid
            if not args.no_worker:
                for name, options in worker_layout(args):
                    worker = start_worker(self.env, self.logs, options, name=name)
                    self.started.append(worker)
                    wait_for_worker(worker)
                    self.pids[f"celery-{name}"] = worker.process.pid
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for process in self.started:
            process.stop()
        self.started = []

    def __exit__(self, *exc: object) -> None:
        self.stop()


def end_earlier_runs() -> int:
    """Abort the games an earlier run left unfinished in this database: their clocks would
    run out during this run, and the deadline watch's work on them would be measured too."""
    from django.utils import timezone

    from games.play.models import Match, Result, Status, TerminationReason

    return Match.objects.filter(status__in=(Status.TRUMPS, Status.PLAYING)).update(
        status=Status.ABORTED, result=Result.ABORTED, termination=TerminationReason.ABORTED,
        to_move=None, draw_offer_seat=None, due_at=None, finished_at=timezone.now(),
    )


def wait_for_worker(worker: Any) -> None:
    from yourtrumps_site.celery import app

    for _ in range(120):
        if not worker.alive:
            raise RuntimeError(f"the Celery worker exited:\n{worker.log_tail()}")
        if app.control.ping(timeout=0.5):
            return
    raise RuntimeError(f"the Celery worker never answered:\n{worker.log_tail()}")


def worker_layout(args: argparse.Namespace) -> list[tuple[str, list[str]]]:
    """The Celery workers of a run, by name with their options: one worker on every queue
    with the pool options of `--worker-args` (the load tool's default), or, with
    `production_workers`, the three of `scripts/run-production-local`: two processes on the
    default queue, one at nice 10 on the slow queue, two on the outbound queue."""
    if not getattr(args, "production_workers", False):
        return [("load", args.worker_args.split())]
    from django.conf import settings

    return [
        ("fast", ["-Q", settings.CELERY_TASK_DEFAULT_QUEUE, "--pool=prefork", "--concurrency=2"]),
        ("slow", ["-Q", settings.CELERY_SLOW_QUEUE, "--pool=prefork", "--concurrency=1"]),
        ("outbound", ["-Q", settings.CELERY_OUTBOUND_QUEUE, "--pool=prefork",
                      "--concurrency=2"]),
    ]


def start_worker(env: dict[str, str], logs: Path, options: list[str], *,
                 name: str = "load") -> Any:
    """A Celery worker like the tests' one, with the pool options given; the slow queue's at
    nice 10, as production runs it."""
    from tests.support.processes import VENV_BIN, ManagedProcess, child_env

    nice = ["nice", "-n", "10"] if name == "slow" else []
    return ManagedProcess(
        name=f"celery:{name}",
        args=[*nice, str(VENV_BIN / "celery"), "-A", "yourtrumps_site", "worker", *options,
              f"--loglevel={env.get('LOG_LEVEL', 'WARNING')}", "--without-gossip",
              "--without-mingle",
              "--without-heartbeat", "-n", f"{name}@%h"],
        env=child_env(env), log_path=logs / f"celery-{name}.log",
    ).start()
