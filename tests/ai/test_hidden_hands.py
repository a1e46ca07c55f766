"""With 3-4 players the bots play from the observation only: moving hidden cards between
other hands (consistently with what the mover knows) never changes their choice, and the
determinizer only samples hands consistent with the observation."""

from __future__ import annotations

import random

import pytest

from games.ai.baseline import beginner_code, greedy_code, random_code
from games.ai.determinized import pimc_move, sample_world
from games.ai.view import view_of
from games.rules.cards import mask_codes
from games.rules.deal import deal
from games.rules.observation import Observation
from games.rules.state import State


def _midgame(players: int, seed: int) -> State:
    rng = random.Random(seed)
    state = deal(players, seed)
    for _ in range(rng.randint(0, 40)):
        child = state.clone()
        child.apply_code(rng.choice(child.legal_move_codes()))
        if child.is_over():
            break
        state = child
    return state


def _reshuffled(state: State, rng: random.Random) -> State | None:
    """The same position for the mover, with the other seats' hidden cards swapped."""
    mover = state.to_move
    others = [s for s in range(state.n_players) if s != mover
              and state.hand_mask(s) & ~state.known_mask(s)]
    if len(others) < 2:
        return None
    a, b = rng.sample(others, 2)
    hands = list(state.hand_masks)
    card_a = rng.choice(list(mask_codes(hands[a] & ~state.known_mask(a))))
    card_b = rng.choice(list(mask_codes(hands[b] & ~state.known_mask(b))))
    hands[a] ^= 1 << card_a | 1 << card_b
    hands[b] ^= 1 << card_a | 1 << card_b
    known = [state.known_mask(s) for s in range(state.n_players)]
    return State([int(t) for t in state.trumps], hands, list(state.pile_codes), mover,
                 list(state.out), state.strict, known)


@pytest.mark.parametrize("players", [3, 4])
def test_bots_do_not_depend_on_hidden_cards(players: int) -> None:
    rng = random.Random(players)
    compared = 0
    for seed in range(16):
        state = _midgame(players, seed)
        other = _reshuffled(state, rng)
        if other is None:
            continue
        assert (Observation.of_state(other, other.to_move)
                == Observation.of_state(state, state.to_move))
        assert other.hand_masks != state.hand_masks
        for bot in (lambda s, r: random_code(view_of(s), r),
                    lambda s, r: greedy_code(view_of(s)),
                    lambda s, r: beginner_code(view_of(s), r),
                    lambda s, r: pimc_move(s, 60.0, r, max_samples=1)):
            assert bot(state, random.Random(seed)) == bot(other, random.Random(seed))
        compared += 1
    assert compared >= 5


@pytest.mark.parametrize("players", [3, 4])
def test_the_determinizer_samples_only_consistent_hands(players: int) -> None:
    rng = random.Random(7)
    for seed in range(30):
        state = _midgame(players, seed)
        observation = Observation.of_state(state, state.to_move)
        for _ in range(5):
            world = sample_world(observation, None, rng)
            assert world.pile_codes == state.pile_codes
            assert world.out == state.out
            assert world.to_move == state.to_move
            assert world.hand_mask(state.to_move) == state.hand_mask(state.to_move)
            union = 0
            for seat in range(players):
                hand = world.hand_mask(seat)
                assert hand & observation.known[seat] == observation.known[seat]
                assert hand.bit_count() == state.hand_size(seat)
                assert not hand & union
                union |= hand
            hidden = union & ~(sum(observation.known))
            assert hidden & ~observation.unseen_mask() == 0
