"""The users the tests make: through the ORM for a test of play, or as signing up makes them
for a test of what an account reads."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model

PASSWORD = "pw-Xk39-long"


def user_factory(prefix: str, *, with_email: bool = False) -> Callable[..., Any]:
    """What a ``make_user`` fixture gives: ``make(name=None, **fields)`` makes the user of that
    name, or of the next numbered name after ``prefix``, with the password ``PASSWORD``;
    ``with_email`` gives each the address of its name unless ``email`` is among the fields."""
    numbers = itertools.count(1)

    def make(name: str | None = None, **fields: Any) -> Any:
        name = name or f"{prefix}{next(numbers)}"
        if with_email:
            fields.setdefault("email", f"{name}@example.com")
        return get_user_model().objects.create_user(name, password=PASSWORD, **fields)

    return make


def account_create(username: str = "anna", *, language: str = "") -> Any:
    """An account as signing up makes it (``accounts.services.user_create``), with the address
    of its name and, if given, a saved language."""
    from accounts.services import user_create

    user = user_create(username=username, email=f"{username}@example.com", password="x-Pw-4471-q")
    if language:
        user.language = language
        user.save(update_fields=["language"])
    return user
