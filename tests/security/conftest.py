"""Fixtures of the security and hostile-input tests: users, a wait for sockets to close, and
where the shared server's log stood when each test began."""

from __future__ import annotations

import pytest

from tests.support.users import user_factory


@pytest.fixture
def make_user(db):
    return user_factory("sec")


@pytest.fixture(autouse=True)
def _shared_server_log_mark(request):
    """The session's server serves every test of its worker, and its log holds theirs too,
    down to a query of a test before that the test database's flush cut off after it (a
    deadlock with the TRUNCATE): a test that asks whether its own input made a server error
    reads the log from where it stood when the test began (`test_fuzz.server_errors`)."""
    if "asgi_server" in request.fixturenames:
        server = request.getfixturevalue("asgi_server")
        server.test_log_mark = server.log_path.stat().st_size
