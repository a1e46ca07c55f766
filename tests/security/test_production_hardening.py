"""Production settings serve secure cookies and headers, and the repository holds no secret."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from collections import Counter

import pytest

from tests.support.processes import REPO_ROOT

PRODUCTION_ENV = {
    "DJANGO_ENV": "production",
    "DJANGO_SETTINGS_MODULE": "yourtrumps_site.settings",
    "SECRET_KEY": "only-for-this-test-" + "k" * 40,
    "ALLOWED_HOSTS": "yourtrumps.example",
}

PROBE = """
import json, django
django.setup()
from django.conf import settings
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()
# Pages only: the hashed static files of production are built by collectstatic at deploy.
from django.test import override_settings
override_settings(STORAGES={**settings.STORAGES, "staticfiles": {
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}).enable()
client = Client(HTTP_HOST="yourtrumps.example")
plain = client.get("/accounts/login/")
secure = client.get("/accounts/login/", secure=True)
cookies = {name: {k: str(v) for k, v in morsel.items() if v}
           for name, morsel in secure.cookies.items()}
print(json.dumps({
    "plain_status": plain.status_code, "plain_location": plain.get("Location"),
    "status": secure.status_code, "headers": dict(secure.headers), "cookies": cookies,
    "settings": {name: getattr(settings, name) for name in [
        "SESSION_COOKIE_SECURE", "SESSION_COOKIE_HTTPONLY", "SESSION_COOKIE_SAMESITE",
        "CSRF_COOKIE_SECURE", "CSRF_COOKIE_SAMESITE", "DEBUG", "SECURE_SSL_REDIRECT"]},
}))
"""


@pytest.fixture(scope="module")
def production(django_db_setup, django_db_blocker):
    from django.db import connection

    from tests.support.processes import database_url

    with django_db_blocker.unblock():
        url = database_url(connection.settings_dict)
    env = {**os.environ, **PRODUCTION_ENV, "DATABASE_URL": url}
    env.pop("DJANGO_DEBUG", None)
    result = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO_ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_plain_http_is_redirected_to_https(production):
    assert production["plain_status"] == 301
    assert production["plain_location"].startswith("https://yourtrumps.example/")


def test_secure_headers_are_sent(production):
    headers = {k.lower(): v for k, v in production["headers"].items()}
    assert production["status"] == 200
    hsts = headers["strict-transport-security"]
    assert "max-age=31536000" in hsts
    assert "includeSubDomains" in hsts
    assert "preload" in hsts
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"
    assert headers["cross-origin-opener-policy"] == "same-origin"


def test_cookies_are_secure(production):
    settings = production["settings"]
    assert settings["DEBUG"] is False
    assert settings["SESSION_COOKIE_SECURE"]
    assert settings["CSRF_COOKIE_SECURE"]
    assert settings["SESSION_COOKIE_HTTPONLY"]
    assert settings["SESSION_COOKIE_SAMESITE"] in ("Lax", "Strict")
    assert settings["CSRF_COOKIE_SAMESITE"] in ("Lax", "Strict")
    csrf = production["cookies"]["csrftoken"]
    assert csrf.get("secure")
    assert csrf.get("samesite") in ("Lax", "Strict")


# --- no secret in the repository -------------------------------------------------------------

KEY_PATTERNS = {
    "private key": re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    "AWS access key": re.compile(r"\b(AKIA|ASIA)[0-9A-Z]{16}\b"),
    "GitHub token": re.compile(r"\b(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b|github_pat_\w{40,}"),
    "Slack token": re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    "Stripe key": re.compile(r"\b[sr]k_live_[A-Za-z0-9]{16,}"),
    "Google API key": re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"),
    # Written in two pieces, so that this file does not hold the pattern it looks for.
    "Django insecure key": re.compile("django-" "insecure-"),
    "URL with a password": re.compile(r"\b[a-z+]+://[^/\s:@'\"]+:[^/\s:@'\"$]{6,}@"),
}
ASSIGNED = re.compile(
    r"(?i)\b[\w.]*(secret|api_?key|token|passw(or)?d|private_?key)[\w.]*[\"']?\s*[:=]\s*"
    r"[\"']([^\"'\s]{24,})[\"']"
)


# A value that says it is a stand-in (the tests' own keys) is not a secret.
STAND_IN = re.compile(r"(?i)test|example|dummy|fake|placeholder|changeme|not-a-real")


def entropy(text: str) -> float:
    counts = Counter(text)
    return -sum(c / len(text) * math.log2(c / len(text)) for c in counts.values())


def tracked_files() -> list[str]:
    result = subprocess.run(["git", "ls-files", "-z"], cwd=REPO_ROOT, capture_output=True,
                            check=True)
    return [p for p in result.stdout.decode().split("\0") if p]


def test_the_scanner_finds_a_planted_secret():
    planted = 'SECRET_KEY = "' + "q7Zr2" + "vX9pLm4Kd8Wn3Bt6Yh1Gf5Sj0Ac" + '"'
    assert ASSIGNED.search(planted)
    assert entropy(ASSIGNED.search(planted)[3]) > 4
    assert KEY_PATTERNS["private key"].search("-----BEGIN RSA " + "PRIVATE KEY-----")


def test_no_tracked_file_holds_a_key_like_string():
    files = tracked_files()
    assert "var/secret_key" not in files
    found = []
    for name in files:
        path = REPO_ROOT / name
        try:
            text = path.read_text()
        except (UnicodeDecodeError, OSError):
            continue  # binary files (images, fonts, compiled catalogues)
        for kind, pattern in KEY_PATTERNS.items():
            if pattern.search(text):
                found.append(f"{name}: {kind}")
        for match in ASSIGNED.finditer(text):
            value = match[3]
            if entropy(value) > 4.0 and not STAND_IN.search(value):
                found.append(f"{name}: {match[0][:40]}...")
    assert found == []
