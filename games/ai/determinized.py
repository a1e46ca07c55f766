"""Play with hidden hands (3-4 players): determinized Monte Carlo from the observation.

Public names: ``pimc_move``, ``candidate_moves``, ``sample_world``.

The bot never sees the true hands. It samples full positions consistent with what its seat
knows (``Observation.sample_state``: its own hand, the cards known to be in other hands,
each hand's size, the pile; the hidden cards drawn uniformly from the unseen ones), plays
each candidate move in every sample and finishes the game with greedy play by everyone
(with a little noise, so that a line is not judged on one fixed reply), and keeps the move
that most often avoids being the loser. The same samples serve every candidate, so the
candidates are compared on equal deals.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from games.ai.baseline import cheapness, greedy_code
from games.ai.view import TableView, legal_codes, view_of
from games.rules.moves import BEAT_BASE, TAKE_BASE
from games.rules.observation import Observation
from games.rules.state import State

ROLLOUT_PLIES = 240
NOISE = 0.1


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


def sample_world(observation: Observation, rng: random.Random) -> State:
    return observation.sample_state(rng)


def _rollout_score(state: State, seat: int, rng: random.Random) -> float:
    for _ in range(ROLLOUT_PLIES):
        if state.is_over():
            break
        view = full_view(state)
        if rng.random() < NOISE:
            state.apply_code(rng.choice(legal_codes(view)))
        else:
            state.apply_code(greedy_code(view))
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
    # Not the loser is what counts; an earlier place breaks ties.
    n = state.n_players
    return 1.0 + 0.1 * (n - outcome.place_of(seat)) / (n - 1)


def pimc_move(
    position: Observation | State,
    seconds: float,
    rng: random.Random,
    should_stop: Callable[[], bool] | None = None,
    max_samples: int | None = None,
) -> int:
    """The move code for the seat to move, from what that seat can know."""
    deadline = time.monotonic() + seconds
    observation = position if isinstance(position, Observation) else position.observation(
        position.to_move)
    view = view_of(observation)
    candidates = candidate_moves(view)
    if len(candidates) == 1:
        return candidates[0]
    seat = observation.to_move
    totals = [0.0] * len(candidates)
    samples = 0
    while max_samples is None or samples < max_samples:
        world = sample_world(observation, rng)
        scores = []
        for code in candidates:
            if time.monotonic() > deadline or (should_stop is not None and should_stop()):
                break
            child = world.clone()
            child.apply_code(code)
            scores.append(_rollout_score(child, seat, rng))
        if len(scores) < len(candidates):
            break  # out of time within a sample: compare only complete samples
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        samples += 1
    if not samples:
        return greedy_code(view)
    best = max(range(len(candidates)), key=lambda i: totals[i])
    return candidates[best]
