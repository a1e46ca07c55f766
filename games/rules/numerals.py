"""Whole numbers written in the notations (TPN counts and seats, moves' take counts, the
record's headers), read in one place.

Only plain ASCII decimals count: Python's ``str.isdigit`` also accepts ``²`` or ``٣``, which
``int`` then refuses, and ``int`` refuses more than 4,300 digits; both surfaced as crashes of
the record import. ``plain_decimal`` returns None for anything else, so that each caller
raises its own ``InvalidNotationError`` naming the field.
"""

from __future__ import annotations

import re
from typing import Final

_DECIMAL: Final = re.compile(r"(0|[1-9][0-9]*)", re.ASCII)
_SIGNED: Final = re.compile(r"(0|-?[1-9][0-9]*)", re.ASCII)


def plain_decimal(text: str, *, max_digits: int, signed: bool = False) -> int | None:
    """The value of ``text`` if it is a plain decimal (ASCII digits, no leading zero, a
    leading ``-`` only when ``signed``) of at most ``max_digits`` digits, else None."""
    if len(text.lstrip("-")) > max_digits:
        return None
    if (_SIGNED if signed else _DECIMAL).fullmatch(text) is None:
        return None
    return int(text)
