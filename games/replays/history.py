"""Reads of game histories, for a player and for the whole site. Nothing here writes.

One query for the page of matches, one for the seats of those matches (with their users) and
one to count: the number of queries does not depend on the number of rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext as _

from games.play.models import Match, Seat, SeatResult, Status
from games.play.time_control import TimeControl
from games.replays.selectors import SUIT_SYMBOLS

HISTORY_PAGE_SIZE = 25

AGAINST_AI = "ai"
AGAINST_PEOPLE = "people"


@dataclass(frozen=True, slots=True)
class HistoryFilters:
    """What the history lists may be narrowed to; empty values mean "any"."""

    opponent_id: int | None = None
    """Games in which this user sat (at another seat than the player's, on a player's page)."""
    result: str = ""
    """On a player's page a ``SeatResult`` of the player; on the site's ``draw``/``decided``."""
    rated: bool | None = None
    against: str = ""
    """``ai``: an AI sat at the table; ``people``: no AI did."""
    time_control: TimeControl | None = None
    date_from: date | None = None
    date_to: date | None = None
    n_players: int | None = None


@dataclass(frozen=True, slots=True)
class HistorySeat:
    index: int
    name: str
    url: str | None
    trump: str
    symbol: str
    result: str
    is_ai: bool
    rating_after: int | None
    rating_delta: int | None
    bot: bool = False  # a bot account's seat, marked BOT


@dataclass(frozen=True, slots=True)
class HistoryRow:
    match_id: int
    replay_url: str
    finished_at: datetime | None
    seats: list[HistorySeat]
    result: str
    loser: int | None
    termination: str
    termination_label: str
    rated: bool
    time_control: str
    variant: str
    n_players: int
    plies: int
    player_result: str
    """The result of the player whose history this is ('' on the site's history)."""
    outcome: str
    """Who won (a duel) or lost (3-4 players), in words."""


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def history_queryset(*, filters: HistoryFilters, player_id: int | None = None
                     ) -> QuerySet[Match]:
    """Finished matches, newest first, narrowed by the filters (and to a player's games).

    Newest first by the time they finished, the time the page shows (a long game that
    started first may finish last), then by id: the index of `finished_at` for the site's
    list; a player's games are found by the index of seats by (user, match) and sorted, a
    top-N sort of one player's games. A player's games are a join on their seat (one seat
    per match: no duplicates), in one ``filter`` so the result applies to that seat."""
    matches = Match.objects.filter(status=Status.FINISHED)
    if player_id is not None:
        matches = matches.filter(seats__user_id=player_id,
                                 seats__result__in=_player_results(filters))
    elif filters.result == "draw":
        matches = matches.filter(result="draw")
    elif filters.result == "decided":
        matches = matches.filter(result="decided")
    if filters.opponent_id is not None:
        matches = matches.filter(
            Exists(Seat.objects.filter(match=OuterRef("pk"), user_id=filters.opponent_id))
        )
    if filters.rated is not None:
        matches = matches.filter(rated=filters.rated)
    if filters.against:
        # An AI seat from the start: a person's seat the AI took over is still a person's.
        ai_seat = Exists(Seat.objects.filter(match=OuterRef("pk"), ai_level__isnull=False,
                                             taken_over_ply__isnull=True))
        matches = matches.filter(ai_seat if filters.against == AGAINST_AI else ~ai_seat)
    if filters.time_control is not None:
        control = filters.time_control
        matches = matches.filter(clock_initial=control.initial, clock_increment=control.increment)
    if filters.date_from is not None:
        matches = matches.filter(finished_at__gte=_day_start(filters.date_from))
    if filters.date_to is not None:
        matches = matches.filter(finished_at__lt=_day_start(filters.date_to + timedelta(days=1)))
    if filters.n_players is not None:
        matches = matches.filter(n_players=filters.n_players)
    return matches.order_by("-finished_at", "-id")


FINISHED_RESULTS = (SeatResult.WIN, SeatResult.LOSS, SeatResult.DRAW)


def _player_results(filters: HistoryFilters) -> tuple[str, ...]:
    """The seat results a player's list shows: a seat has one of these exactly when its
    match is finished (aborted and unfinished games leave it empty), as the profile counts."""
    if filters.result in FINISHED_RESULTS:
        return (filters.result,)
    return FINISHED_RESULTS


def _player_count_source(filters: HistoryFilters, player_id: int) -> QuerySet[Seat] | None:
    """When only the player's own result narrows the list, count their seats alone (an
    index of seats by user) instead of joining every match."""
    narrowed = (filters.opponent_id, filters.rated, filters.date_from, filters.date_to,
                filters.n_players, filters.time_control)
    if any(value is not None for value in narrowed) or filters.against:
        return None
    return Seat.objects.filter(user_id=player_id, result__in=_player_results(filters))


HISTORY_COUNT_CAP = 10_000


class CappedPaginator(Paginator):
    """Counts at most ``HISTORY_COUNT_CAP`` + 1 rows: an exact count of a big list costs a
    scan of all of it, and nobody pages through more than 400 pages. ``capped`` tells the
    page to say "more than 10,000". ``count_source`` counts the same rows more cheaply."""

    def __init__(self, object_list: QuerySet[Any], per_page: int,
                 count_source: QuerySet[Any] | None = None) -> None:
        super().__init__(object_list, per_page)
        self.count_source = count_source if count_source is not None else object_list

    @cached_property
    def count(self) -> int:
        # Without the ordering: counting needs no sort.
        return int(self.count_source.order_by()[: HISTORY_COUNT_CAP + 1].count())

    @property
    def capped(self) -> bool:
        return self.count > HISTORY_COUNT_CAP

    @property
    def cap(self) -> int:
        return HISTORY_COUNT_CAP


def history_page(
    *,
    filters: HistoryFilters,
    page_number: int | str = 1,
    player_id: int | None = None,
    per_page: int = HISTORY_PAGE_SIZE,
) -> tuple[Page, list[HistoryRow]]:
    """One page of the history and its rows: three queries whatever the page size (count,
    matches, their seats with users)."""
    matches = history_queryset(filters=filters, player_id=player_id).prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
    )
    count_source = (_player_count_source(filters, player_id) if player_id is not None
                    else None)
    paginator = CappedPaginator(matches, per_page, count_source=count_source)
    page = paginator.get_page(page_number)
    rows = [_history_row(match, player_id) for match in page.object_list]
    return page, rows


def _history_row(match: Match, player_id: int | None) -> HistoryRow:
    seats = list(match.seats.all())
    row_seats = []
    player_result = ""
    for seat in seats:
        row_seats.append(
            HistorySeat(
                index=seat.index,
                name=seat.display_name,
                url=reverse("profile", args=[seat.user.username])
                if seat.user_id is not None and seat.ai_level is None else None,
                trump=seat.trump,
                symbol=SUIT_SYMBOLS.get(seat.trump, ""),
                result=seat.result,
                is_ai=seat.is_ai,
                rating_after=round(seat.rating_after) if seat.rating_after is not None else None,
                rating_delta=seat.rating_delta,
                bot=seat.user_id is not None and seat.user.is_bot,
            )
        )
        if player_id is not None and seat.user_id == player_id:
            player_result = seat.result
    return HistoryRow(
        match_id=match.pk,
        replay_url=reverse("replays:replay", args=[match.pk]),
        finished_at=match.finished_at,
        seats=row_seats,
        result=match.result,
        loser=match.loser_seat,
        termination=match.termination,
        termination_label=match.get_termination_display(),
        rated=match.rated,
        time_control=match.time_control.label,
        variant=match.get_variant_display(),
        n_players=match.n_players,
        plies=match.ply,
        player_result=player_result,
        outcome=_outcome_words(match, row_seats),
    )


def _outcome_words(match: Match, seats: list[HistorySeat]) -> str:
    if match.result == "draw":
        return _("Draw")
    if match.loser_seat is None or match.loser_seat >= len(seats):
        return ""
    if len(seats) == 2:
        return _("%(name)s won") % {"name": seats[1 - match.loser_seat].name}
    return _("%(name)s lost") % {"name": seats[match.loser_seat].name}
