"""The AI tests are pure Python: no Django, database, Redis or browser."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def _clean_redis() -> None:
    """Overrides the site-wide autouse fixture of tests/conftest.py, which reads Django
    settings to flush Redis: these tests run with ``-p no:django``."""
    return
