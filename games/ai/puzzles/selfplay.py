"""AI duels to cut puzzles from, when there are not enough finished games.

Public names: ``SelfPlay``, ``self_play_puzzles``, ``DEFAULT_PAIRS``, ``DEAL_CARDS``.

A full deal's positions are almost never puzzles: all 36 cards stay in play (the pile comes
back by takes), the winner near the end has many ways to win, and the losing alternatives
take proofs deeper than any budget (docs/puzzles.md has the figures). So self-play deals
short games: a random position of ``DEAL_CARDS`` cards (``games.ai.endgames.
random_endgame``: hands, a pile, two trumps; a TPN may hold fewer than 36 cards), which the
arena's bots (``games.ai.match``) then play out, the pairs given in turn; every position of
the game goes to the finder (``PuzzleFinder.in_game``), where the exact solver proves it. A
position already made into a puzzle, by this run or before (``SelfPlay.known``), is not
given again. Everything follows from ``seed``: the same run gives the same puzzles.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final

from games.ai.endgames import random_endgame
from games.ai.match import Bot, make_bot, play_game
from games.ai.puzzles.finder import PuzzleFinder
from games.ai.puzzles.lines import Puzzle
from games.ai.puzzles.proofs import SOLVE_STATES

DEFAULT_PAIRS: Final = (("level1", "level2"), ("level2", "level2"), ("level2", "level1"),
                        ("level1", "level1"))
DEAL_CARDS: Final = (5, 11)
"""The least and most cards of a self-play deal."""


@dataclass(slots=True)
class SelfPlay:
    """Counters of one run of self-play."""

    games: int = 0
    examined: int = 0
    """Positions the finder looked at."""
    puzzles: int = 0
    known: set[str] = field(default_factory=set)
    """TPNs already made into puzzles (the run adds its own)."""


def self_play_puzzles(count: int, *, seed: int = 0,
                      pairs: Sequence[tuple[str, str]] = DEFAULT_PAIRS,
                      cards: tuple[int, int] = DEAL_CARDS, max_nodes: int = 20_000,
                      solve_states: int = SOLVE_STATES,
                      run: SelfPlay | None = None) -> Iterator[tuple[Puzzle, str, int]]:
    """Up to ``count`` new puzzles from AI duels of seeds ``seed``, ``seed + 1``, ...; each
    with its game's start (TPN) and seed. ``run`` counts the work (and lists the known
    TPNs)."""
    run = run if run is not None else SelfPlay()
    bots: dict[str, Bot] = {}
    finders: dict[tuple[int, int], PuzzleFinder] = {}
    game_seed = seed
    while run.puzzles < count:
        rng = random.Random(game_seed)
        start = random_endgame(rng, rng.randint(*cards))
        if start.is_over():
            game_seed += 1
            continue
        names = pairs[game_seed % len(pairs)]
        players = [bots.setdefault(name, make_bot(name)) for name in names]
        record = play_game(start, players, rng)
        run.games += 1
        t0, t1 = start.trumps
        trumps = (int(t0), int(t1))
        finder = finders.setdefault(trumps, PuzzleFinder(trumps, False, max_nodes, solve_states))
        before = finder.examined
        for puzzle in finder.in_game(start, record.codes):
            if puzzle.tpn in run.known:
                continue
            run.known.add(puzzle.tpn)
            run.puzzles += 1
            yield puzzle, start.tpn(), game_seed
            if run.puzzles >= count:
                break
        run.examined += finder.examined - before
        game_seed += 1
