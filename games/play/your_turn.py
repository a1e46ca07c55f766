"""Reads of correspondence play: a player's running correspondence games with the ones
waiting for them first, how many wait (the header badge's number), the next one after a
move, and their vacations.

A player may have hundreds of games running: the list is two queries (their seats with the
matches, then the other seats with their users) whatever its length, and the count one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, QuerySet
from django.urls import reverse

from games.play import checks
from games.play.models import Match, Seat, Status, Vacation, Variant
from games.play.time_control import TimeControl
from games.rules import State
from games.rules.cards import CARD_NAMES

_RUNNING = (Status.TRUMPS, Status.PLAYING)


@dataclass(frozen=True, slots=True)
class Mini:
    """A small view of a duel's position, for a list: the viewer's hand, the pile's top
    card and how many lie in it, the opponent's number of cards, the trumps. Cards are
    (rank as printed, suit sign, suit letter): ("10", "♥", "H")."""

    hand: tuple[tuple[str, str, str], ...]
    pile_top: tuple[str, str, str] | None
    pile_size: int
    other_cards: int
    trump: str | None
    other_trump: str | None


@dataclass(frozen=True, slots=True)
class CorrespondenceGame:
    match_id: int
    url: str
    your_turn: bool
    choosing_trumps: bool
    opponents: tuple[str, ...]
    time_control: TimeControl
    rated: bool
    deadline: datetime | None
    """When the player to act runs out of time (None: an untimed game)."""
    turn_started_at: datetime | None
    mini: Mini | None

    def time_left(self, now: datetime) -> timedelta | None:
        return None if self.deadline is None else max(timedelta(0), self.deadline - now)


def _seats_waiting(user_id: int) -> QuerySet[Seat]:
    return Seat.objects.filter(
        user_id=user_id, match__correspondence=True, match__status__in=_RUNNING,
        match__to_move=F("index"),
    )


def your_turn_count(*, user_id: int) -> int:
    """How many correspondence games wait for the user to act (one query)."""
    return _seats_waiting(user_id).count()


def correspondence_games(*, user_id: int, limit: int | None = None) -> list[CorrespondenceGame]:
    """The user's running correspondence games: those where they are to act first, the
    most urgent first, then the others by their opponent's deadline (two queries)."""
    limit = limit or settings.GAMES_YOUR_TURN_LIMIT
    own = list(
        Seat.objects.filter(user_id=user_id, match__correspondence=True,
                            match__status__in=_RUNNING)
        .select_related("match")
        .order_by("-match_id")[:limit]
    )
    others: dict[int, list[Seat]] = {}
    for seat in (Seat.objects.filter(match_id__in=[s.match_id for s in own])
                 .exclude(user_id=user_id).select_related("user").order_by("index")):
        others.setdefault(seat.match_id, []).append(seat)
    games = []
    for seat in own:
        match = seat.match
        games.append(_game(match, seat, others.get(match.pk, [])))
    games.sort(key=lambda g: (not g.your_turn,
                              g.deadline.timestamp() if g.deadline else float("inf"),
                              -g.match_id))
    return games


def _game(match: Match, seat: Seat, others: list[Seat]) -> CorrespondenceGame:
    seats = sorted([seat, *others], key=lambda s: s.index)
    deadline = None
    if match.to_move is not None and match.to_move < len(seats):
        deadline = checks.trump_timeout_at(match, seats) or checks.flag_at(match, seats)
    return CorrespondenceGame(
        match_id=match.pk,
        url=reverse("games:match", args=[match.pk]),
        your_turn=match.to_move == seat.index,
        choosing_trumps=match.status == Status.TRUMPS,
        opponents=tuple(other.display_name for other in others),
        time_control=match.time_control,
        rated=match.rated,
        deadline=deadline,
        turn_started_at=match.turn_started_at,
        mini=_mini(match, seat.index),
    )


def _mini(match: Match, index: int) -> Mini | None:
    """The small view, from the cached position (a duel: both hands are open)."""
    if not match.position_tpn or match.n_players != 2:
        return None
    state = State.from_tpn(match.position_tpn, strict=match.variant == Variant.STRICT)
    pile = state.pile_codes
    hand = sorted(state.hand(index), key=lambda card: card.code)
    return Mini(
        hand=tuple(_printed(str(card)) for card in hand),
        pile_top=_printed(CARD_NAMES[pile[-1]]) if pile else None,
        pile_size=len(pile),
        other_cards=state.hand_size(1 - index),
        trump=state.trump(index).letter,
        other_trump=state.trump(1 - index).letter,
    )


_SIGNS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def _printed(card: str) -> tuple[str, str, str]:
    rank, suit = card[0], card[1]
    return ("10" if rank == "T" else rank, _SIGNS[suit], suit)


def next_game(*, user_id: int, after: int | None = None) -> int | None:
    """The next game waiting for the user after `after` (a match id, the one just left):
    the most urgent other one, or None if none waits."""
    waiting = [game for game in correspondence_games(user_id=user_id)
               if game.your_turn and game.match_id != after]
    return waiting[0].match_id if waiting else None


# --- vacations -------------------------------------------------------------------------------


def vacation_current(*, user_id: int, now: datetime) -> Vacation | None:
    return Vacation.objects.filter(user_id=user_id, starts_at__lte=now, ends_at__gt=now).first()


def vacation_days_left(*, user_id: int, now: datetime) -> int:
    """Whole days of vacation the user may still take: the yearly allowance less the days
    of the vacations begun in the last 365 days (one still running counts whole)."""
    since = now - timedelta(days=365)
    used = timedelta(0)
    for starts, ends in Vacation.objects.filter(user_id=user_id, starts_at__gt=since) \
            .values_list("starts_at", "ends_at"):
        used += ends - starts
    allowance = timedelta(days=settings.GAMES_VACATION_DAYS_PER_YEAR)
    return max(0, (allowance - used).days)


def vacations_of(*, user_id: int, limit: int = 10) -> list[Vacation]:
    return list(Vacation.objects.filter(user_id=user_id).order_by("-starts_at")[:limit])
