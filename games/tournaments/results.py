"""What the end of a tournament's games does to its standings: each ended game is scored once
for its players (points, streak, the sheet), who are then free to be paired again.

The ended games of a tournament are scored together, in a few statements whatever their
number: whoever comes first (the end's task of any of them, or the arenas' clock) scores
every game of the tournament that has ended, and passes over those another process is
scoring at that moment. An arena's first round starts together and, with a short clock,
ends within seconds: scored one game per task, hundreds of freed players waited in the queue
of tasks, each task a dozen statements, while their socket servers and the waves wanted the
same two cores.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from django.db import transaction

from games.matchmaking.services import ratings_of
from games.play.models import Match, Move, Seat, SeatResult, Status, TerminationReason
from games.tournaments.core import tournament_changed
from games.tournaments.models import Participant, TournamentGame
from games.tournaments.scoring import BASE_POINTS, Outcome, game_score

OUTCOMES = {SeatResult.WIN: Outcome.WIN, SeatResult.DRAW: Outcome.DRAW,
            SeatResult.LOSS: Outcome.LOSS}
SCORED_FIELDS = ["score", "games", "wins", "sheet", "streak", "paused", "last_opponent",
                 "free_since", "rating"]


def ended_games_score(*, tournament_id: int, now: datetime) -> list[int]:
    """Score every ended, unscored game of the tournament that no other transaction holds,
    in one transaction; the ids of their matches. An aborted game of an arena scores
    nothing; in a Swiss it is a loss for both (the round must end). A player who lost on time
    without making a move is paused (they are away)."""
    with transaction.atomic():
        games = list(TournamentGame.objects.select_for_update(skip_locked=True, of=("self",))
                     .filter(tournament_id=tournament_id, scored=False,
                             match__status__in=[Status.FINISHED, Status.ABORTED])
                     .select_related("tournament", "match").order_by("pk"))
        if not games:
            return []
        seats_of: dict[int, list[Seat]] = defaultdict(list)
        for seat in Seat.objects.filter(match_id__in=[g.match_id for g in games]).order_by(
                "match_id", "index"):
            seats_of[seat.match_id].append(seat)
        user_ids = sorted({uid for g in games for uid in g.user_ids()})
        participants = {p.user_id: p for p in Participant.objects.select_for_update().filter(
            tournament_id=tournament_id, user_id__in=user_ids).order_by("pk")}
        moved = _seats_that_moved([g.match for g in games
                                   if g.match.termination == TerminationReason.TIMEOUT])
        ratings = ratings_of(user_ids=user_ids)
        for game in games:  # in the order they were made: a player's earlier game first
            _score(game, seats_of[game.match_id], participants, moved, now)
        for participant in participants.values():
            participant.rating = ratings[participant.user_id]
        Participant.objects.bulk_update(list(participants.values()), SCORED_FIELDS)
        TournamentGame.objects.bulk_update(games, ["scored", "points_a", "points_b"])
        transaction.on_commit(lambda: tournament_changed(tournament_id))
    return [game.match_id for game in games]


def _seats_that_moved(matches: list[Match]) -> set[tuple[int, int]]:
    """(match id, seat) of the seats that made a move in these matches."""
    if not matches:
        return set()
    return set(Move.objects.filter(match_id__in=[m.pk for m in matches])
               .values_list("match_id", "seat").distinct())


def _score(game: TournamentGame, seats: list[Seat], participants: dict[int, Participant],
           moved: set[tuple[int, int]], now: datetime) -> None:
    match = game.match
    swiss = game.tournament.is_swiss
    aborted = match.status == Status.ABORTED
    for seat in seats:
        participant = participants.get(seat.user_id) if seat.user_id is not None else None
        if participant is None:
            continue
        opponent = seats[1 - seat.index].user_id or 0
        if swiss:
            outcome = OUTCOMES.get(seat.result, Outcome.LOSS)
            points = BASE_POINTS[outcome.value]
            participant.sheet = [*participant.sheet, [game.round, opponent, points]]
            participant.score += points
            participant.games += 1
            participant.wins += 1 if outcome == Outcome.WIN else 0
            setattr(game, "points_a" if seat.index == 0 else "points_b", points)
        elif not aborted and seat.result in OUTCOMES:
            scored = game_score(outcome=OUTCOMES[seat.result], streak=participant.streak,
                                berserk=seat.berserk)
            participant.score += scored.points
            participant.games += 1
            participant.wins += 1 if seat.result == SeatResult.WIN else 0
            participant.sheet = [*participant.sheet, scored.sheet_entry()]
            participant.streak = scored.streak
            setattr(game, "points_a" if seat.index == 0 else "points_b", scored.points)
        if (match.termination == TerminationReason.TIMEOUT and seat.result == SeatResult.LOSS
                and (match.pk, seat.index) not in moved):
            participant.paused = True
        participant.last_opponent = opponent
        participant.free_since = now
    game.scored = True
