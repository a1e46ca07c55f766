"""Time controls: one value type for every form, pool, seek, challenge, table, filter and label.

A live time control is an initial time and an increment per move, in seconds; the untimed
game has neither. A correspondence control is a time *per move* (`initial` seconds, whole
days; the mover's clock starts full again at each of their turns, as in correspondence chess),
or none at all (an untimed correspondence game, which never flags but may be claimed after a
long silence). Its *key* is how players write it and how it travels in forms, URLs and socket
messages: minutes + seconds a move (`"3+2"`), `"untimed"`, days per move (`"3d"`) or
`"corr"`. Its *label* is the same in the active language's numbers (a half minute is `"0,5+0"`
in Polish), its *words* the long form for a title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext

UNTIMED_KEY = "untimed"
CORRESPONDENCE_UNTIMED_KEY = "corr"
DAY = 86_400
# Minutes + seconds a move; the minutes may be a fraction for clocks under a minute.
_KEY = re.compile(r"(?P<minutes>[0-9]{1,3}(?:\.[0-9]{1,2})?)\+(?P<increment>[0-9]{1,3})")
_DAYS_KEY = re.compile(r"(?P<days>[1-9][0-9]?)d")


class HasClock(Protocol):
    @property
    def clock_initial(self) -> int | None: ...
    @property
    def clock_increment(self) -> int: ...
    @property
    def correspondence(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class TimeControl:
    """`initial` seconds each plus `increment` seconds a move; `initial` None: untimed.
    `correspondence`: `initial` is the time per move, whole days, with no increment."""

    initial: int | None
    increment: int = 0
    correspondence: bool = False

    def __post_init__(self) -> None:
        if self.initial is None and self.increment:
            raise ValueError("an untimed game has no increment")
        if self.initial is not None and self.initial <= 0:
            raise ValueError("the initial time must be positive")
        if self.increment < 0:
            raise ValueError("the increment cannot be negative")
        if self.correspondence and (self.increment or (self.initial or 0) % DAY):
            raise ValueError("a correspondence game has whole days per move and no increment")

    @classmethod
    def of(cls, holder: HasClock) -> TimeControl:
        """The time control of a match, seek, challenge or table (its `clock_*` fields and
        `correspondence`)."""
        return cls(holder.clock_initial, holder.clock_increment, holder.correspondence)

    @classmethod
    def parse(cls, key: str) -> TimeControl:
        """The time control of a key (`"3+2"`, `"untimed"`, `"3d"`, `"corr"`); ValueError if
        it is not one."""
        if key == UNTIMED_KEY:
            return UNTIMED
        if key == CORRESPONDENCE_UNTIMED_KEY:
            return CORRESPONDENCE_UNTIMED
        if (days := _DAYS_KEY.fullmatch(key)) is not None:
            return cls(int(days["days"]) * DAY, correspondence=True)
        found = _KEY.fullmatch(key)
        if found is None:
            raise ValueError(f"{key!r} is not a time control (write minutes+seconds, e.g. 3+2)")
        seconds = round(float(found["minutes"]) * 60)
        return cls(seconds, int(found["increment"]))

    @property
    def timed(self) -> bool:
        return self.initial is not None

    @property
    def per_move(self) -> bool:
        """Whether the clock starts full again at each turn (a timed correspondence game)."""
        return self.correspondence and self.initial is not None

    @property
    def days(self) -> int | None:
        """Days per move of a timed correspondence game."""
        return self.initial // DAY if self.per_move and self.initial is not None else None

    @property
    def key(self) -> str:
        if self.correspondence:
            return CORRESPONDENCE_UNTIMED_KEY if self.days is None else f"{self.days}d"
        if self.initial is None:
            return UNTIMED_KEY
        return f"{self.initial / 60:g}+{self.increment}"

    @property
    def label(self) -> str:
        """As players write it, in the active language's numbers: "3+2", "3 days"."""
        if self.correspondence:
            return self.words
        if self.initial is None:
            return gettext("Untimed")
        minutes = self.initial / 60
        shown = f"{minutes:g}" if minutes >= 1 else f"{minutes:.2g}"
        return f"{number_format(shown)}+{self.increment}"

    @property
    def words(self) -> str:
        """The same in words, for the label's title: "3 minutes, plus 2 seconds a move"."""
        if self.correspondence:
            if self.days is None:
                return gettext("Correspondence, no clock")
            return ngettext("%(count)d day a move", "%(count)d days a move", self.days) % {
                "count": self.days}
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
CORRESPONDENCE_UNTIMED = TimeControl(None, correspondence=True)
# The live time controls offered everywhere: quick-pairing pools, seeks, challenges, the AI.
LIVE: tuple[TimeControl, ...] = (
    TimeControl(60, 1), TimeControl(180, 2), TimeControl(300, 3), TimeControl(600, 5),
)
LIVE_BY_KEY: dict[str, TimeControl] = {control.key: control for control in LIVE}


# The correspondence time controls: days per move, for challenges, seeks and tables. The
# untimed correspondence game is offered only between friends (a challenge), never rated.
CORRESPONDENCE: tuple[TimeControl, ...] = tuple(
    TimeControl(days * DAY, correspondence=True) for days in (1, 2, 3, 5, 7)
)
CORRESPONDENCE_BY_KEY: dict[str, TimeControl] = {
    control.key: control for control in CORRESPONDENCE
}


def offered_live(key: str) -> TimeControl | None:
    """The offered live time control of a key, or None."""
    return LIVE_BY_KEY.get(key)


def offered(key: str, *, untimed_correspondence: bool = False) -> TimeControl | None:
    """The offered time control of a key, live or correspondence, or None; the untimed
    correspondence game only where it is allowed (`untimed_correspondence`: a challenge)."""
    if untimed_correspondence and key == CORRESPONDENCE_UNTIMED_KEY:
        return CORRESPONDENCE_UNTIMED
    return LIVE_BY_KEY.get(key) or CORRESPONDENCE_BY_KEY.get(key)
