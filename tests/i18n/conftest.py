from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _default_language_after() -> Iterator[None]:
    """A request in Russian leaves Russian active in this thread: put the default back, so the
    tests that follow (in any package) read the site in English."""
    yield
    translation.deactivate()
