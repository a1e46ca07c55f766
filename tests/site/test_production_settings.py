"""Production settings: hardened, and refusing to start without what they need."""

import os
import subprocess
import sys

from tests.support.processes import REPO_ROOT

PRODUCTION_ENV = {
    "DJANGO_ENV": "production",
    "DJANGO_SETTINGS_MODULE": "yourtrumps_site.settings",
    "SECRET_KEY": "a-long-random-secret-used-only-by-this-test-0123456789-abcdefghijkl",
    "ALLOWED_HOSTS": "yourtrumps.example",
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/postgres",
    "REDIS_URL": "redis://127.0.0.1:6379/13",
}


def manage(*args: str, **env_overrides: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **PRODUCTION_ENV, **env_overrides}
    env = {k: v for k, v in env.items() if v != ""}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO_ROOT, env=env,
        capture_output=True, text=True, timeout=120,
    )


def test_check_deploy_is_clean_under_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_without_a_secret_key_stops_with_a_clear_error():
    result = manage("check", SECRET_KEY="")

    assert result.returncode != 0
    assert "SECRET_KEY is required when DJANGO_ENV=production" in result.stderr


def test_an_unknown_environment_name_is_refused():
    result = manage("check", DJANGO_ENV="staging")

    assert result.returncode != 0
    assert "DJANGO_ENV must be 'embedded' or 'production'" in result.stderr


def test_a_database_thread_count_that_is_not_a_positive_number_is_refused():
    for bad in ("zero", "0", "-2"):
        result = manage("check", DB_THREADS=bad)

        assert result.returncode != 0
        assert f"DB_THREADS must be a whole number of at least 1, not '{bad}'" in result.stderr


def test_a_refusal_hold_that_is_not_a_sane_number_of_seconds_is_refused():
    for bad in ("soon", "-1", "nan", "inf", "86400"):
        result = manage("check", WS_REFUSAL_HOLD_SECONDS=bad)

        assert result.returncode != 0
        assert ("WS_REFUSAL_HOLD_SECONDS must be a number of seconds from 0 to 3600, "
                f"not '{bad}'") in result.stderr


def test_the_urls_load_in_production_before_the_static_files_are_collected():
    """The Celery worker and the management commands load the URLs but never collect the
    static files: nothing at import may ask for a hashed static name (the manifest)."""
    script = ("import tempfile, django; django.setup(); from django.conf import settings; "
              "settings.STATIC_ROOT = tempfile.mkdtemp(); "  # nothing collected: no manifest
              "from django.urls import reverse; print(reverse('favicon'), reverse('home'))")
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO_ROOT,
        env={**os.environ, **PRODUCTION_ENV},
        capture_output=True, text=True, timeout=120,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["/favicon.ico", "/"]
