"""The AI's answer to a draw offer at a table of 3-4: from its own seat's observation only.

Public names: ``DrawAnswer``, ``draw_answer``, ``DRAW_SAMPLES``.

A draw by agreement saves whoever would have been the loser, so a seat agrees when it is not
winning: when the chance that it ends as the loser, as far as it can tell, is at least its
fair share (one in the number of seats still holding cards). The chance is estimated like the
3-4 player search judges its moves (``determinized``): full positions are sampled from what
the seat knows (``inference.sample_world``, weighted by what the takes of the game suggest),
each is played out by greedy play with a little noise (``rollout.playout``), and the share of
playouts the seat loses is counted (an unfinished one by the hand sizes, as the search does).
The true hands of the game are never read.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from games.ai.determinized import NOISE, ROLLOUT_PLIES, playout_score
from games.ai.inference import observe_game, sample_world
from games.ai.levels import level_budget
from games.ai.rollout import playout
from games.rules.game import Game
from games.rules.observation import Observation

DRAW_SAMPLES: dict[int, int] = {1: 12, 2: 24, 3: 48, 4: 120}
"""Playouts per level: a stronger level looks closer before it answers."""
MIN_SECONDS = 0.1
"""The least time an answer may take, whatever the level's budget for a move."""


@dataclass(frozen=True, slots=True)
class DrawAnswer:
    accept: bool
    loss_chance: float
    """The estimated chance that the seat ends the game as the loser if it plays on."""
    fair_share: float
    """One in the number of seats still holding cards: an even chance of losing."""
    samples: int


def draw_answer(game: Game, seat: int, level: int, *, rng: random.Random | None = None,
                seconds: float | None = None) -> DrawAnswer:
    """Whether the AI at ``level`` in ``seat`` (still holding cards, at a table of 3-4)
    accepts a draw in ``game`` now, judged from that seat's observation. ``seconds`` bounds
    the time (the level's move budget, at least ``MIN_SECONDS``, by default)."""
    if game.n_players < 3:
        raise ValueError("the AI answers draw offers at tables of 3-4 only")
    if game.is_over():
        raise ValueError("the game is over")
    if seat in game.state.out or not 0 <= seat < game.n_players:
        raise ValueError(f"seat {seat} holds no cards in this game")
    move_budget = level_budget(level, game.n_players)  # refuses an unknown level
    samples = DRAW_SAMPLES[level]
    budget = max(MIN_SECONDS, move_budget) if seconds is None else seconds
    deadline = time.monotonic() + budget
    rng = rng if rng is not None else random.Random()
    # Only this seat's view of the start and the moves everyone saw.
    observation, evidence = observe_game(Observation.of_state(game.start, seat), game.move_codes)
    lost = 0.0
    played = 0
    while played < samples and (played == 0 or time.monotonic() < deadline):
        world = sample_world(observation, evidence, rng)
        playout(world, rng, ROLLOUT_PLIES, NOISE)
        lost += max(0.0, 1.0 - playout_score(world, seat))
        played += 1
    remaining = game.n_players - len(game.state.out)
    chance = lost / played
    fair = 1 / remaining
    return DrawAnswer(accept=chance >= fair, loss_chance=chance, fair_share=fair,
                      samples=played)

