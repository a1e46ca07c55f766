from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.management import call_command
from django.utils import translation


@pytest.fixture(scope="session", autouse=True)
def _catalogues_compiled() -> None:
    """`make test` compiles the catalogues; this keeps `pytest tests/i18n` alone right too,
    right after a catalogue was edited."""
    call_command("compilemessages", ignore_patterns=[".venv", "tests"], verbosity=0)


@pytest.fixture(autouse=True)
def _default_language_after() -> Iterator[None]:
    """A request in Russian leaves Russian active in this thread: put the default back, so the
    tests that follow (in any package) read the site in English."""
    yield
    translation.deactivate()
