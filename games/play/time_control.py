"""Time controls: one value type for every form, pool, seek, challenge, filter and label.

A live time control is an initial time and an increment per move, in seconds; the untimed
game has neither. Its *key* is how players write it and how it travels in forms, URLs and
socket messages: minutes + seconds a move (`"3+2"`), or `"untimed"`. Its *label* is the
same in the active language's numbers (a half minute is `"0,5+0"` in Polish), its *words*
the long form for a title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext

UNTIMED_KEY = "untimed"
# Minutes + seconds a move; the minutes may be a fraction for clocks under a minute.
_KEY = re.compile(r"(?P<minutes>[0-9]{1,3}(?:\.[0-9]{1,2})?)\+(?P<increment>[0-9]{1,3})")


class HasClock(Protocol):
    @property
    def clock_initial(self) -> int | None: ...
    @property
    def clock_increment(self) -> int: ...


@dataclass(frozen=True, slots=True)
class TimeControl:
    """`initial` seconds each plus `increment` seconds a move; `initial` None: untimed."""

    initial: int | None
    increment: int = 0

    def __post_init__(self) -> None:
        if self.initial is None and self.increment:
            raise ValueError("an untimed game has no increment")
        if self.initial is not None and self.initial <= 0:
            raise ValueError("the initial time must be positive")
        if self.increment < 0:
            raise ValueError("the increment cannot be negative")

    @classmethod
    def of(cls, holder: HasClock) -> TimeControl:
        """The time control of a match, seek or challenge (its `clock_*` fields)."""
        return cls(holder.clock_initial, holder.clock_increment)

    @classmethod
    def parse(cls, key: str) -> TimeControl:
        """The time control of a key (`"3+2"`, `"untimed"`); ValueError if it is not one."""
        if key == UNTIMED_KEY:
            return UNTIMED
        found = _KEY.fullmatch(key)
        if found is None:
            raise ValueError(f"{key!r} is not a time control (write minutes+seconds, e.g. 3+2)")
        seconds = round(float(found["minutes"]) * 60)
        return cls(seconds, int(found["increment"]))

    @property
    def timed(self) -> bool:
        return self.initial is not None

    @property
    def key(self) -> str:
        if self.initial is None:
            return UNTIMED_KEY
        return f"{self.initial / 60:g}+{self.increment}"

    @property
    def label(self) -> str:
        """As players write it, in the active language's numbers: "3+2"."""
        if self.initial is None:
            return gettext("Untimed")
        minutes = self.initial / 60
        shown = f"{minutes:g}" if minutes >= 1 else f"{minutes:.2g}"
        return f"{number_format(shown)}+{self.increment}"

    @property
    def words(self) -> str:
        """The same in words, for the label's title: "3 minutes, plus 2 seconds a move"."""
        if self.initial is None:
            return gettext("Untimed")
        if self.initial % 60 == 0:
            count = self.initial // 60
            clock = ngettext("%(count)d minute", "%(count)d minutes", count) % {"count": count}
        else:
            clock = ngettext("%(count)d second", "%(count)d seconds", self.initial) % {
                "count": self.initial}
        bonus = ngettext(
            "%(count)d second a move", "%(count)d seconds a move", self.increment
        ) % {"count": self.increment}
        return gettext("%(clock)s, plus %(bonus)s") % {"clock": clock, "bonus": bonus}

    def __str__(self) -> str:
        return self.key


UNTIMED = TimeControl(None)
# The live time controls offered everywhere: quick-pairing pools, seeks, challenges, the AI.
LIVE: tuple[TimeControl, ...] = (
    TimeControl(60, 1), TimeControl(180, 2), TimeControl(300, 3), TimeControl(600, 5),
)
LIVE_BY_KEY: dict[str, TimeControl] = {control.key: control for control in LIVE}


def offered_live(key: str) -> TimeControl | None:
    """The offered live time control of a key, or None."""
    return LIVE_BY_KEY.get(key)
