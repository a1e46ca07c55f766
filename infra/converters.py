"""The path converters of the site's URLs and WebSocket routes: each kind of identifier in a
path is read here, once, and a path whose part is not of its kind matches no route (a 404 for
a page, a refused handshake for a socket) instead of reaching a view or a query.

- `id`: a row's id, 1 to 18 ASCII digits (every value fits PostgreSQL's bigint; Django's
  `int` takes any length, and an id past the bigint range failed in the database).
- `username`: a player's name as the sign-up form allows it (`accounts.validators`).
- `token`: a challenge's link token (URL-safe base64, as `secrets.token_urlsafe` makes).
"""

from __future__ import annotations

from django.urls import register_converter

from accounts.validators import USERNAME_PATTERN

ID_DIGITS = 18


class IdConverter:
    regex = f"[0-9]{{1,{ID_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(int(value))


class UsernameConverter:
    regex = USERNAME_PATTERN

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return str(value)


class TokenConverter:
    regex = "[A-Za-z0-9_-]{1,32}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return str(value)


def register() -> None:
    register_converter(IdConverter, "id")
    register_converter(UsernameConverter, "username")
    register_converter(TokenConverter, "token")
