"""Reads of correspondence play: a player's running correspondence games with the ones
waiting for them first, how many wait (the header badge's number), the next one after a
move, and their vacations.

A player may have hundreds of games running: a page of the list is three queries whatever
its length, and the count one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, QuerySet
from django.urls import reverse

from games.play.models import Match, Seat, Status, Vacation, Variant, player_name
from games.play.time_control import TimeControl
from games.rules import State
from games.rules.cards import CARD_NAMES

_RUNNING = (Status.TRUMPS, Status.PLAYING)


@dataclass(frozen=True, slots=True)
class Mini:
    """A small view of a position, for a list: the viewer's hand, the pile's top card and
    how many lie in it, the trumps, and in a duel the opponent's number of cards and trump
    (at a table the others' are on the board). Cards are (rank as printed, suit sign, suit
    letter): ("10", "♥", "H")."""

    hand: tuple[tuple[str, str, str], ...]
    pile_top: tuple[str, str, str] | None
    pile_size: int
    other_cards: int | None
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


def _own_seats(user_id: int) -> QuerySet[Seat]:
    """The user's seats in running correspondence games, duels and tables, but for those
    the AI has taken over (their person has left that game)."""
    return Seat.objects.filter(user_id=user_id, ai_level__isnull=True,
                               match__correspondence=True, match__status__in=_RUNNING)


def _seats_waiting(user_id: int) -> QuerySet[Seat]:
    return _own_seats(user_id).filter(match__to_move=F("index"))


def your_turn_count(*, user_id: int) -> int:
    """How many correspondence games wait for the user to act (one query)."""
    return _seats_waiting(user_id).count()


@dataclass(frozen=True, slots=True)
class GamesPage:
    """One page of a player's correspondence games, and how many there are in all."""

    games: list[CorrespondenceGame]
    total: int
    waiting: int
    page: int
    pages: int


@dataclass(frozen=True, slots=True)
class _Row:
    match_id: int
    index: int
    your_turn: bool
    deadline: datetime | None


def correspondence_games(*, user_id: int, page: int = 1, per_page: int | None = None
                         ) -> GamesPage:
    """The user's running correspondence games: those where they are to act first, the
    most urgent first, then the others by their opponent's deadline. Three queries: the
    order comes from the seats alone (the player's, then the others' with their clocks and
    names), and only the games of the page asked for are read whole, their positions drawn
    small."""
    per_page = per_page or settings.GAMES_YOUR_TURN_PER_PAGE
    own = list(
        _own_seats(user_id)
        .values_list("match_id", "index", "clock_ms", "match__to_move",
                     "match__turn_started_at")
        .order_by("-match_id")[:settings.GAMES_YOUR_TURN_LIMIT]
    )
    others: dict[int, list[tuple[int, int | None, str]]] = {}
    for match_id, index, clock, username, ai_level, guest in (
        Seat.objects.filter(match_id__in=[row[0] for row in own]).exclude(user_id=user_id)
        .values_list("match_id", "index", "clock_ms", "user__username", "ai_level",
                     "guest_id").order_by("index")
    ):
        name = player_name(ai_level=ai_level, username=username, guest=bool(guest))
        others.setdefault(match_id, []).append((index, clock, name))
    rows = []
    for match_id, index, clock, to_move, turn_started in own:
        clocks = {index: clock, **{i: c for i, c, _name in others.get(match_id, [])}}
        mover_clock = clocks.get(to_move) if to_move is not None else None
        # When the clock of the seat to act reaches zero: `checks.flag_at` (and the trump
        # chooser's timeout of a correspondence game) from the same two fields.
        deadline = (turn_started + timedelta(milliseconds=mover_clock)
                    if mover_clock is not None and turn_started is not None else None)
        rows.append(_Row(match_id, index, to_move == index, deadline))
    rows.sort(key=lambda r: (not r.your_turn,
                             r.deadline.timestamp() if r.deadline else float("inf"),
                             -r.match_id))
    pages = max(1, -(-len(rows) // per_page))
    page = min(max(1, page), pages)
    shown = rows[(page - 1) * per_page:page * per_page]
    matches = Match.objects.in_bulk([row.match_id for row in shown])
    url = reverse("games:match", args=[0]).replace("/0/", "/{id}/")
    games = [
        _game(matches[row.match_id], row, [name for _i, _c, name in others.get(row.match_id, [])],
              url.replace("{id}", str(row.match_id)))
        for row in shown if row.match_id in matches
    ]
    return GamesPage(games=games, total=len(rows),
                     waiting=sum(1 for row in rows if row.your_turn), page=page, pages=pages)


def _game(match: Match, row: _Row, opponents: list[str], url: str) -> CorrespondenceGame:
    return CorrespondenceGame(
        match_id=match.pk,
        url=url,
        your_turn=row.your_turn,
        choosing_trumps=match.status == Status.TRUMPS,
        opponents=tuple(opponents),
        time_control=match.time_control,
        rated=match.rated,
        deadline=row.deadline,
        turn_started_at=match.turn_started_at,
        mini=_mini(match, row.index),
    )


def _mini(match: Match, index: int) -> Mini | None:
    """The small view, from the cached position: the viewer's own hand and the pile, which
    the viewer sees at a table too, and in a duel (both hands open) the opponent's."""
    if not match.position_tpn:
        return None
    state = State.from_tpn(match.position_tpn, strict=match.variant == Variant.STRICT)
    pile = state.pile_codes
    hand = sorted(state.hand(index), key=lambda card: card.code)
    duel = match.n_players == 2
    return Mini(
        hand=tuple(printed_card(str(card)) for card in hand),
        pile_top=printed_card(CARD_NAMES[pile[-1]]) if pile else None,
        pile_size=len(pile),
        other_cards=state.hand_size(1 - index) if duel else None,
        trump=state.trump(index).letter,
        other_trump=state.trump(1 - index).letter if duel else None,
    )


SUIT_SIGNS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def printed_card(card: str) -> tuple[str, str, str]:
    """A card as a small view prints it: (rank as printed, suit sign, suit letter)."""
    rank, suit = card[0], card[1]
    return ("10" if rank == "T" else rank, SUIT_SIGNS[suit], suit)


def next_game(*, user_id: int, after: int | None = None) -> int | None:
    """The next game waiting for the user after `after` (a match id, the one just left):
    the most urgent other one, or None if none waits."""
    waiting = [game for game in correspondence_games(user_id=user_id, per_page=2).games
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
