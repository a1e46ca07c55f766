"""Fixtures of the security and hostile-input tests: users, and a wait for sockets to close."""

from __future__ import annotations

import pytest

from tests.support.users import user_factory


@pytest.fixture
def make_user(db):
    return user_factory("sec")
