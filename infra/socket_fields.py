"""The kinds of text a socket message or an API path may carry, as pydantic types for the
socket schemas (`games.play.schemas`, `games.matchmaking.schemas`) and the API's path
parameters (`games.api`).

Each is held to the same pattern as its HTTP path or form (`infra.converters`, the
time controls' keys): printable ASCII of its own alphabet and length. So a text that could not
reach a view by its URL (a NUL byte, a control character, a letter of another script, an
over-long value) cannot reach a service or a query by a socket either: the message is refused
as not understood, before anything runs.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import StringConstraints

from infra.converters import TokenConverter, UsernameConverter

Token = Annotated[str, StringConstraints(pattern=rf"^{TokenConverter.regex}$")]
"""A challenge's or a table's link token, as its path (`/table/<token>/`) takes it."""

Username = Annotated[str, StringConstraints(pattern=rf"^{UsernameConverter.regex}$")]
"""A player's name, as the sign-up form allows it and a profile's path takes it."""

TimeControlKey = Annotated[str, StringConstraints(pattern=r"^[0-9a-z.+]{1,10}$")]
"""A time control's key (`3+2`, `0.5+0`, `untimed`, `3d`, `corr`); the service refuses one
that is not offered."""

PoolKey = Annotated[str, StringConstraints(pattern=r"^[0-9a-z.+/]{1,12}$")]
"""A quick-pairing pool's key: a time control's, or a table's size and one (`4/3+2`)."""

MoveText = Annotated[str, StringConstraints(pattern=r"^[0-9A-Z+-]{2,8}$")]
"""A move in notation (`9H`, `QH-7D`, `+3`); the rules engine reads it."""

