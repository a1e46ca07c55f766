"""Every write of the puzzles: storing found puzzles, cutting them from a finished match,
generating them (finished games first, then AI self-play), the end of a play (its attempt,
rated for an account, and the streak) and the choice of a streak's puzzle.

Storing is idempotent: a puzzle is its position (``Puzzle.tpn`` is unique), so a task run
twice, or two generators at once, store each position once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts import ratings
from accounts.models import PlayerRating, RatingMode, User
from games.ai.puzzles import Puzzle as FoundPuzzle
from games.ai.puzzles import PuzzleFinder, SelfPlay, puzzle_fault, self_play_puzzles
from games.play.models import Match, Status, Variant
from games.play.selectors import match_game
from games.puzzles.models import (
    Puzzle,
    PuzzleAttempt,
    PuzzleScan,
    PuzzleStreak,
    Source,
    theme_bits,
)
from games.puzzles.players import GuestPuzzles, Streak
from games.puzzles.selectors import puzzle_next
from games.rules.moves import format_move_code
from games.rules.state import State


@dataclass(frozen=True, slots=True)
class Generated:
    from_games: int
    """Puzzles stored from finished site games."""
    from_self_play: int
    games_examined: int
    self_play_games: int
    positions_examined: int


def puzzle_solution(*, found: FoundPuzzle) -> list[dict[str, Any]]:
    """A found puzzle's steps as ``Puzzle.solution`` keeps them."""
    return [{"move": step.text(), "player": step.player,
             "accepted": [format_move_code(code) for code in step.accepted]}
            for step in found.steps]


def puzzle_store(*, found: FoundPuzzle, match: Match | None = None) -> Puzzle | None:
    """Store one found puzzle; None if its position is stored already."""
    solution = puzzle_solution(found=found)
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
    try:
        with transaction.atomic():
            PuzzleScan.objects.get_or_create(match=match, defaults={"found": stored})
    except IntegrityError:
        pass  # scanned at the same moment by another process, or the match deleted meanwhile
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
class Verified:
    checked: int
    """Puzzles proved again (those retired before are not)."""
    retired: list[tuple[int, str, str]]
    """``(id, TPN, what is wrong)`` of each puzzle retired by this run."""


def puzzles_verify(*, max_nodes: int | None = None,
                   progress: Callable[[int], None] | None = None) -> Verified:
    """Prove every puzzle not retired again (``games.ai.puzzles.puzzle_fault``) and retire
    the ones whose line does not hold; ``progress`` is told the count checked so far.
    Running it again retires nothing more."""
    budget = settings.PUZZLES_PROOF_NODES if max_nodes is None else max_nodes
    finders: dict[tuple[int, int], PuzzleFinder] = {}
    retired: list[tuple[int, str, str]] = []
    checked = 0
    for puzzle in Puzzle.objects.filter(retired=False).order_by("pk").iterator(chunk_size=500):
        t0, t1 = State.from_tpn(puzzle.tpn).trumps
        trumps = (int(t0), int(t1))
        finder = finders.setdefault(trumps, PuzzleFinder(trumps, False, budget))
        fault = puzzle_fault(finder, puzzle.tpn, [
            (str(step["move"]), [str(m) for m in step["accepted"]], bool(step["player"]))
            for step in puzzle.solution])
        checked += 1
        if fault is not None:
            Puzzle.objects.filter(pk=puzzle.pk).update(retired=True)
            retired.append((puzzle.pk, puzzle.tpn, fault))
        if progress is not None:
            progress(checked)
    return Verified(checked, retired)


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


@dataclass(frozen=True, slots=True)
class PlayEnd:
    """How a play of a puzzle ended, as recorded."""

    first: bool
    """This play decided the attempt; False: it had been decided before (nothing changed)."""
    solved: bool
    """The attempt's result as recorded (an earlier one's, when not ``first``)."""
    rating_before: float | None
    rating_after: float | None
    """The player's puzzle rating; None for a guest."""
    streak: Streak | None
    """The streak after it, when the puzzle was the streak's."""


def puzzle_play_end(*, puzzle_id: int, user: User | None, guest: GuestPuzzles | None,
                    solved: bool) -> PlayEnd:
    """End a play of a puzzle, once: the attempt (rated for an account), and the streak
    whose puzzle it was. A second end of the same puzzle (a retried request, a second tab,
    the solution asked for after the end) changes nothing and returns the first. A guest's
    part is ``guest`` (the caller keeps it in the session). Raises ``Puzzle.DoesNotExist``."""
    if user is None:
        if guest is None:
            raise ValueError("a guest's play needs the guest's puzzles")
        earlier = guest.played.get(puzzle_id)
        if earlier is not None:
            return PlayEnd(False, earlier, None, None, None)
        puzzle_attempt_record(puzzle_id=puzzle_id, user=None, solved=solved)
        guest.remember(puzzle_id, solved)
        if guest.streak.puzzle_id != puzzle_id:
            return PlayEnd(True, solved, None, None, None)
        guest.streak = guest.streak.after(solved=solved)
        return PlayEnd(True, solved, None, None, guest.streak)
    with transaction.atomic():
        result = puzzle_attempt_record(puzzle_id=puzzle_id, user=user, solved=solved)
        streak = None
        if result.first:
            row = PuzzleStreak.objects.select_for_update().filter(user=user,
                                                                  puzzle_id=puzzle_id).first()
            if row is not None:
                streak = Streak(row.current, row.best).after(solved=solved)
                row.current, row.best, row.puzzle = streak.current, streak.best, None
                row.save(update_fields=["current", "best", "puzzle", "updated_at"])
    return PlayEnd(result.first, result.attempt.solved, result.rating_before,
                   result.rating_after, streak)


def streak_puzzle(*, user: User | None, guest: GuestPuzzles | None) -> tuple[Puzzle | None,
                                                                            Streak]:
    """The puzzle the player's streak is at, chosen now if none is (the one nearest the
    streak's target never played), and the streak. An account's choice is stored, so the
    page shows the same puzzle until it is played; a guest's goes into ``guest``."""
    if user is None:
        if guest is None:
            raise ValueError("a guest's streak needs the guest's puzzles")
        streak = guest.streak
        current = streak.puzzle_id
        if current is not None and current not in guest.played:
            puzzle = Puzzle.objects.filter(pk=current, retired=False).first()
            if puzzle is not None:
                return puzzle, streak
        puzzle = puzzle_next(user_id=None, target=streak.target, exclude=guest.exclude)
        guest.streak = streak.with_puzzle(puzzle.pk if puzzle is not None else None)
        return puzzle, guest.streak
    with transaction.atomic():
        PuzzleStreak.objects.get_or_create(user=user)
        row = PuzzleStreak.objects.select_for_update().get(user=user)
        streak = Streak(row.current, row.best, row.puzzle_id)
        if row.puzzle_id is not None and not PuzzleAttempt.objects.filter(
                user=user, puzzle_id=row.puzzle_id).exists():
            kept = Puzzle.objects.filter(pk=row.puzzle_id, retired=False).first()
            if kept is not None:
                return kept, streak
        puzzle = puzzle_next(user_id=user.pk, target=streak.target)
        row.puzzle = puzzle
        row.save(update_fields=["puzzle", "updated_at"])
    return puzzle, streak.with_puzzle(puzzle.pk if puzzle is not None else None)
