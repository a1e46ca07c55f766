"""Fixtures of the security and hostile-input tests: users, and a wait for sockets to close."""

from __future__ import annotations

import time

import pytest

from tests.support.users import user_factory


@pytest.fixture
def make_user(db):
    return user_factory("sec")


@pytest.fixture
def sockets_settled():
    """After a test with match sockets on a real server, wait until the server has handled
    their closing (the presence update), so the flush between tests does not race it."""
    yield
    from games.play.models import Seat

    deadline = time.monotonic() + 10
    while Seat.objects.filter(connections__gt=0).exists() and time.monotonic() < deadline:
        time.sleep(0.02)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """The counts the generated-input tests keep (`tests.security.tally`), printed and kept
    in var/generated-input.json, for the security page's figures."""
    import json
    from pathlib import Path

    from tests.security import tally

    if not tally.sent:
        return
    sent = ", ".join(f"{count} {kind}" for kind, count in sorted(tally.sent.items()))
    errors = sum(tally.server_errors.values())
    terminalreporter.write_line(f"generated input: {sent}; {errors} server errors")
    out = Path(config.rootpath) / "var" / "generated-input.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"sent": dict(tally.sent),
                               "server_errors": dict(tally.server_errors)}, indent=1))
