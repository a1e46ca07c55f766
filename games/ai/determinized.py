"""Play with hidden hands (3-4 players): determinized Monte Carlo from the observation.

Public names: ``pimc_move``, ``candidate_moves``, ``full_view``, ``playout_score``.

The bot never sees the true hands. It samples full positions consistent with what its seat
knows (``inference.sample_world``: its own hand, the cards known to be in other hands,
each hand's size, the pile; the hidden cards drawn from the unseen ones, weighted by what
the takes of the game suggest), plays each candidate move in every sample and finishes the
game with greedy play by everyone (``rollout.playout``, with a little noise, so that a line
is not judged on one fixed reply), and keeps the move that most often avoids being the
loser. The same samples serve every candidate, so the candidates are compared on equal
deals; after ``FIRST_CUT`` samples the worse half is dropped, and again each time the
number of samples doubles, so that the budget goes to the moves worth telling apart.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from games.ai.baseline import cheapness, greedy_code
from games.ai.inference import TakeEvidence, sample_world
from games.ai.rollout import playout
from games.ai.view import TableView, legal_codes, view_of
from games.rules.moves import BEAT_BASE, TAKE_BASE
from games.rules.observation import Observation
from games.rules.state import State

ROLLOUT_PLIES = 240
NOISE = 0.1
FIRST_CUT = 6
"""After this many samples the worse half of the candidates is dropped, then again each
time the number of samples doubles."""


def full_view(state: State) -> TableView:
    """The view of a sampled world, where the searcher may look at every hand."""
    n = state.n_players
    return TableView(tuple(int(t) for t in state.trumps), state.hand_masks, (0,) * n,
                     state.pile_codes, state.to_move, state.out, state.strict, 0)


def candidate_moves(view: TableView, limit: int = 14) -> list[int]:
    """The moves worth comparing: every lead, the take, and for each beater the seconds
    the next player is least likely to beat (there can be dozens of beater-second pairs)."""
    codes = legal_codes(view)
    if len(codes) <= limit:
        return codes
    trump = view.trumps[view.to_move]
    greedy = greedy_code(view)
    beats = [c for c in codes if BEAT_BASE <= c < TAKE_BASE]
    others = [c for c in codes if not BEAT_BASE <= c < TAKE_BASE]

    def order(code: int) -> tuple[tuple[int, int, int], int]:
        beater, second = divmod(code - BEAT_BASE, 36)
        return cheapness(beater, trump), -cheapness(second, trump)[1]

    beats.sort(key=order)
    chosen = [greedy, *others]
    for code in beats:
        if len(chosen) >= limit:
            break
        if code not in chosen:
            chosen.append(code)
    return list(dict.fromkeys(chosen))


def playout_score(state: State, seat: int) -> float:
    """How good the end of a playout is for ``seat``: 0 for the loser, else 1 and a little
    for an earlier place."""
    outcome = state.outcome()
    if outcome is None:
        # Unfinished (long take cycles): judge by hand sizes, the biggest hand is likeliest
        # to lose; ties count half.
        mine = state.hand_size(seat)
        rivals = [state.hand_size(s) for s in range(state.n_players)
                  if s != seat and state.hand_size(s)]
        return sum(1.0 if h > mine else 0.5 if h == mine else 0.0 for h in rivals) / len(
            rivals)
    if outcome.loser == seat:
        return 0.0
    n = state.n_players
    return 1.0 + 0.1 * (n - outcome.place_of(seat)) / (n - 1)


def pimc_move(
    position: Observation | State,
    seconds: float,
    rng: random.Random,
    should_stop: Callable[[], bool] | None = None,
    max_samples: int | None = None,
    evidence: TakeEvidence | None = None,
) -> int:
    """The move code for the seat to move, from what that seat can know (``evidence``:
    what the public moves suggest about the hidden cards, see ``inference``)."""
    deadline = time.monotonic() + seconds
    observation = position if isinstance(position, Observation) else Observation.of_state(position,
        position.to_move)
    view = view_of(observation)
    candidates = candidate_moves(view)
    if len(candidates) == 1:
        return candidates[0]
    seat = observation.to_move
    totals = [0.0] * len(candidates)
    alive = list(range(len(candidates)))
    samples = 0
    next_cut = FIRST_CUT
    while max_samples is None or samples < max_samples:
        world = sample_world(observation, evidence, rng)
        scores = []
        for index in alive:
            if time.monotonic() > deadline or (should_stop is not None and should_stop()):
                break
            child = world.clone()
            child.apply_code(candidates[index])
            playout(child, rng, ROLLOUT_PLIES, NOISE)
            scores.append(playout_score(child, seat))
        if len(scores) < len(alive):
            break  # out of time within a sample: compare only complete samples
        for index, score in zip(alive, scores, strict=True):
            totals[index] += score
        samples += 1
        if samples == next_cut and len(alive) > 2:
            # Every candidate still in has been played on the same deals: drop the worse
            # half and spend the rest of the budget telling the better ones apart.
            alive.sort(key=lambda i: -totals[i])
            alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
            next_cut *= 2
    if not samples:
        return greedy_code(view)
    best = max(alive, key=lambda i: totals[i])
    return candidates[best]
