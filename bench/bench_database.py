"""The PostgreSQL database a bench fills: created if missing, and only one whose name says it
is for benches (a bench writes thousands of rows and must never touch a real database); and
Django set up on it."""

from __future__ import annotations

import sys
from urllib.parse import urlparse


def ensure_database(url: str) -> None:
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    if "bench" not in name:
        sys.exit(f"refusing to fill database {name!r}: its name must contain 'bench'")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                    [name]).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{name}"')
            print(f"created database {name}")


def setup_django(url: str) -> None:
    """Django on the bench's database, with the embedded cache and channel layer (nothing else
    is needed), answering the test client's host. No setup_test_environment: its instrumented
    template rendering would add its own cost to every page measured."""
    import os

    os.environ["DATABASE_URL"] = url
    os.environ["REDIS_URL"] = ""
    os.environ["DJANGO_SETTINGS_MODULE"] = "yourtrumps_site.settings"
    import django

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["testserver"]
