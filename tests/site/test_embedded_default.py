"""The embedded default: with no environment at all the site migrates and runs on SQLite."""

import json
import os
import subprocess
import sys
import urllib.request

from tests.support.processes import REPO_ROOT, ManagedProcess, free_port, wait_for_http

SITE_VARIABLES = ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "DJANGO_ENV", "SECRET_KEY")


def embedded_env(var_dir) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SITE_VARIABLES}
    env["DJANGO_SETTINGS_MODULE"] = "yourtrumps_site.settings"
    env["YOURTRUMPS_VAR_DIR"] = str(var_dir)
    return env


def test_embedded_default_migrates_starts_and_answers_healthz(tmp_path):
    env = embedded_env(tmp_path)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=REPO_ROOT, env=env, check=True, capture_output=True,
    )
    port = free_port()
    server = ManagedProcess(
        name="embedded daphne",
        args=[sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
              "yourtrumps_site.asgi:application"],
        env=env,
        log_path=tmp_path / "daphne.log",
    ).start()
    try:
        wait_for_http(f"http://127.0.0.1:{port}/healthz", server)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
            body = json.loads(response.read())
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
            home = response.read().decode()
    finally:
        server.stop()

    assert body["status"] == "ok"
    assert body["checks"]["broker"] == "ok (eager, no broker)"
    assert "Your Trumps" in home
    assert (tmp_path / "yourtrumps.sqlite3").exists()
