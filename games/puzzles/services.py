"""Every write of the puzzles: storing found puzzles, cutting them from a finished match,
generating them (finished games first, then AI self-play).

Storing is idempotent: a puzzle is its position (``Puzzle.tpn`` is unique), so a task run
twice, or two generators at once, store each position once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts import ratings
from accounts.models import PlayerRating, RatingMode, User
from games.ai.puzzles import Puzzle as FoundPuzzle
from games.ai.puzzles import PuzzleFinder, SelfPlay, self_play_puzzles
from games.play.models import Match, Status, Variant
from games.play.selectors import match_game
from games.puzzles.models import Puzzle, PuzzleAttempt, PuzzleScan, Source, theme_bits
from games.rules.moves import format_move_code


@dataclass(frozen=True, slots=True)
class Generated:
    from_games: int
    """Puzzles stored from finished site games."""
    from_self_play: int
    games_examined: int
    self_play_games: int
    positions_examined: int


def puzzle_store(*, found: FoundPuzzle, match: Match | None = None) -> Puzzle | None:
    """Store one found puzzle; None if its position is stored already."""
    solution = [{"move": step.text(), "player": step.player,
                 "accepted": [format_move_code(code) for code in step.accepted]}
                for step in found.steps]
    try:
        with transaction.atomic():
            puzzle, created = Puzzle.objects.get_or_create(
                tpn=found.tpn,
                defaults={"source": Source.GAME if match is not None else Source.SELF_PLAY,
                          "match": match, "ply": found.ply if match is not None else None,
                          "solution": solution, "themes": list(found.themes),
                          "theme_bits": theme_bits(found.themes), "rating": found.rating})
    except IntegrityError:
        return None  # stored at the same moment by another process
    return puzzle if created else None


def puzzles_from_match(*, match_id: int) -> int:
    """Cut the puzzles of a finished standard duel, once (``PuzzleScan``); the number
    stored (0 for any other match, or one already scanned)."""
    match = Match.objects.filter(pk=match_id).first()
    if (match is None or match.status != Status.FINISHED or match.n_players != 2
            or match.variant != Variant.STANDARD
            or PuzzleScan.objects.filter(match=match).exists()):
        return 0
    game = match_game(match=match)
    stored = 0
    if game is not None:
        t0, t1 = game.start.trumps
        finder = PuzzleFinder((int(t0), int(t1)), max_nodes=settings.PUZZLES_PROOF_NODES)
        stored = sum(puzzle_store(found=found, match=match) is not None
                     for found in finder.in_game(game.start, game.move_codes,
                                                   settings.PUZZLES_GAME_LAST_POSITIONS))
    PuzzleScan.objects.get_or_create(match=match, defaults={"found": stored})
    return stored


def _finished_duels() -> Iterable[int]:
    """The finished standard duels not scanned yet, oldest first."""
    return list(Match.objects.filter(status=Status.FINISHED, n_players=2,
                                     variant=Variant.STANDARD, puzzle_scan=None)
                .order_by("pk").values_list("pk", flat=True)[:settings.PUZZLES_SCAN_BATCH])


def puzzles_generate(*, count: int, seed: int = 0,
                     progress: Callable[[int], None] | None = None) -> Generated:
    """Store ``count`` new puzzles: from finished site duels not scanned yet first (at most
    ``PUZZLES_SCAN_BATCH`` of them a run), then from AI self-play (seeds from ``seed``) for
    the rest. ``progress`` is told the total so far."""
    from_games = games = 0
    for match_id in _finished_duels():
        if from_games >= count:
            break
        games += 1
        from_games += puzzles_from_match(match_id=match_id)
        if progress is not None:
            progress(from_games)
    run = SelfPlay(known=set(Puzzle.objects.values_list("tpn", flat=True)))
    stored = 0
    if from_games < count:
        for found, _start, _seed in self_play_puzzles(count - from_games, seed=seed, run=run,
                                                       max_nodes=settings.PUZZLES_PROOF_NODES):
            stored += puzzle_store(found=found) is not None
            if progress is not None:
                progress(from_games + stored)
    return Generated(from_games, stored, games, run.games, run.examined)


@dataclass(frozen=True, slots=True)
class AttemptResult:
    attempt: PuzzleAttempt
    rating_before: float | None
    rating_after: float | None
    """The player's puzzle rating; None for a guest (unrated)."""
    first: bool
    """False: the account had played this puzzle already, and nothing changed."""


def puzzle_attempt_record(*, puzzle_id: int, user: User | None, solved: bool,
                          now: datetime | None = None) -> AttemptResult:
    """Record one play of a puzzle. An account's first play of it rates both, by Glicko-2
    as a game between the player and the puzzle (a solve is the player's win), on the
    player's puzzle rating (``RatingMode.PUZZLE``); a second play of the same puzzle (two
    tabs, a repeated request) changes nothing and returns the first. A guest's play is kept
    unrated. Raises ``Puzzle.DoesNotExist`` for an unknown puzzle."""
    now = now or timezone.now()
    with transaction.atomic():
        puzzle = Puzzle.objects.select_for_update().get(pk=puzzle_id)
        if user is None:
            attempt = PuzzleAttempt.objects.create(puzzle=puzzle, solved=solved)
            return AttemptResult(attempt, None, None, True)
        PlayerRating.objects.bulk_create([PlayerRating(user_id=user.pk, mode=RatingMode.PUZZLE)],
                                         ignore_conflicts=True)
        row = PlayerRating.objects.select_for_update().get(user_id=user.pk,
                                                           mode=RatingMode.PUZZLE)
        earlier = PuzzleAttempt.objects.filter(puzzle=puzzle, user=user).first()
        if earlier is not None:
            return AttemptResult(earlier, earlier.rating_before, earlier.rating_after, False)
        player = ratings.Standing(row.rating, row.deviation, row.volatility, row.last_rated_at)
        standing = ratings.Standing(puzzle.rating, puzzle.deviation, puzzle.volatility, None)
        player_new, puzzle_new = ratings.rate_duel(player, standing,
                                                   first_score=1.0 if solved else 0.0, now=now)
        attempt = PuzzleAttempt.objects.create(puzzle=puzzle, user=user, solved=solved,
                                               rating_before=row.rating,
                                               rating_after=player_new.rating)
        row.rating, row.deviation, row.volatility = (player_new.rating, player_new.deviation,
                                                     player_new.volatility)
        row.games += 1
        row.last_rated_at = now
        row.save(update_fields=["rating", "deviation", "volatility", "games", "last_rated_at"])
        puzzle.rating, puzzle.deviation, puzzle.volatility = (
            puzzle_new.rating, puzzle_new.deviation, puzzle_new.volatility)
        puzzle.plays += 1
        puzzle.save(update_fields=["rating", "deviation", "volatility", "plays"])
    return AttemptResult(attempt, attempt.rating_before, attempt.rating_after, True)
