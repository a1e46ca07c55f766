"""The embedded default as a test runs it: no site environment at all (SQLite, in-memory
channel layer, Celery eager in a thread), its files in a folder of the test's own, and one
daphne process."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.processes import REPO_ROOT, ManagedProcess, free_port, wait_for_http

SITE_VARIABLES = ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "DJANGO_ENV", "SECRET_KEY")


def embedded_env(var_dir: Path) -> dict[str, str]:
    """This environment less the site's variables, with the site's files in ``var_dir``."""
    env = {k: v for k, v in os.environ.items() if k not in SITE_VARIABLES}
    env["DJANGO_SETTINGS_MODULE"] = "yourtrumps_site.settings"
    env["YOURTRUMPS_VAR_DIR"] = str(var_dir)
    return env


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``manage.py ARGS`` (checked), its output captured as text."""
    return subprocess.run([sys.executable, "manage.py", *args], cwd=REPO_ROOT, env=env,
                          check=True, capture_output=True, text=True)


def migrated_env(var_dir: Path) -> dict[str, str]:
    """``embedded_env(var_dir)``, its database migrated."""
    env = embedded_env(var_dir)
    manage(env, "migrate", "--noinput")
    return env


@contextmanager
def embedded_daphne(env: dict[str, str], log_dir: Path) -> Iterator[str]:
    """One daphne process of the site in ``env``, answering: yields its base URL
    (``http://127.0.0.1:PORT``), and stops it after."""
    port = free_port()
    server = ManagedProcess(
        name="embedded daphne",
        args=[sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
              "yourtrumps_site.asgi:application"],
        env=env,
        log_path=log_dir / "daphne.log",
    ).start()
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for_http(f"{base}/healthz", server)
        yield base
    finally:
        server.stop()
