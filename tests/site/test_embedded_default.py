"""The embedded default: with no environment at all the site migrates and runs on SQLite."""

import json
import urllib.request

from tests.support.embedded import embedded_daphne, migrated_env


def test_embedded_default_migrates_starts_and_answers_healthz(tmp_path):
    env = migrated_env(tmp_path)
    with embedded_daphne(env, tmp_path) as base:
        with urllib.request.urlopen(f"{base}/healthz", timeout=10) as response:
            body = json.loads(response.read())
        with urllib.request.urlopen(f"{base}/", timeout=10) as response:
            home = response.read().decode()

    assert body["status"] == "ok"
    assert body["checks"]["broker"] == "ok (eager, no broker)"
    assert "Your Trumps" in home
    assert (tmp_path / "yourtrumps.sqlite3").exists()
