"""The keys of the quick-pairing pools: a duel's pool is named by its time control ("3+2"),
a table's by its size and time control ("4/3+2")."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.matchmaking import errors
from games.matchmaking.errors import MatchmakingError
from games.play.time_control import LIVE, TimeControl, offered, offered_live

TABLE_POOL_SIZES = (4, 3)
"""The sizes of table that quick pairing offers, in the order the lobby shows them."""


def pool_key(*, players: int, control: TimeControl) -> str:
    """The key of a quick-pairing pool: a duel's is its time control ("3+2"), a table's its
    size and time control ("4/3+2")."""
    return control.key if players == 2 else f"{players}/{control.key}"


def pool_keys() -> list[str]:
    """Every quick-pairing pool: the duels', then the tables' by size."""
    return [pool_key(players=n, control=control)
            for n in (2, *TABLE_POOL_SIZES) for control in LIVE]


def pool_spec(key: str) -> tuple[int, TimeControl]:
    """The number of players and the time control of a pool's key; refuses an unknown one."""
    size, slash, rest = key.partition("/")
    if not slash:
        return 2, live_time_control(key)
    if size not in {str(n) for n in TABLE_POOL_SIZES}:
        raise MatchmakingError(errors.UNKNOWN_TIME_CONTROL, _("There is no such time control."))
    return int(size), live_time_control(rest)


def live_time_control(key: str) -> TimeControl:
    """The offered live time control of a key: the quick-pairing pools, seeks, challenges
    and tables all use the same set (`games.play.time_control.LIVE`)."""
    control = offered_live(key)
    if control is None:
        raise MatchmakingError(errors.UNKNOWN_TIME_CONTROL, _("There is no such time control."))
    return control


def offered_time_control(key: str, *, untimed_correspondence: bool = False) -> TimeControl:
    """The offered time control of a seek or a challenge: a live one or days per move
    (`games.play.time_control.CORRESPONDENCE`), and for a challenge (`untimed_correspondence`)
    the correspondence game without a clock too."""
    control = offered(key, untimed_correspondence=untimed_correspondence)
    if control is None:
        raise MatchmakingError(errors.UNKNOWN_TIME_CONTROL, _("There is no such time control."))
    return control
