"""The rules tests are pure Python: they need no Django, database, Redis or browser."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def _clean_redis() -> None:
    """Overrides the site-wide autouse fixture of tests/conftest.py, which reads Django
    settings to flush Redis: nothing here touches Redis, and these tests must run with
    ``-p no:django`` (before any settings exist)."""
    return


@pytest.fixture(autouse=True)
def _default_language() -> None:
    """Overrides the site-wide autouse fixture that turns Django's translations off around
    each test: nothing here translates, and there are no settings to read."""
    return
