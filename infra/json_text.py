"""JSON as the sockets send and read it: compact, its characters as they are (UTF-8 on the
wire), by orjson, which makes and reads a game's state several times faster than the standard
library (the states' JSON was about 5 % of a socket server's CPU under 1,000 duels,
docs/reliability.md).

orjson reads strictly: what it refuses (NaN, a lone surrogate, an integer beyond 64 bits) is
not JSON to the site either, refused as any other malformed message.
"""

from __future__ import annotations

from typing import Any

import orjson


def json_text(value: Any, *, sort_keys: bool = False) -> str:
    """`value` (dicts with string keys, lists, tuples, strings, numbers, booleans, None) as
    compact JSON text, its keys sorted with `sort_keys`."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS if sort_keys else 0).decode()


def json_value(text: str | bytes) -> Any:
    """The value of a JSON text; orjson's `JSONDecodeError` (a `ValueError`) if it is not one."""
    return orjson.loads(text)
