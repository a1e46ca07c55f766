"""At 3-4 players the AI decides from its seat's knowledge only, on every path the site
uses: two games that the seat to move cannot tell apart (the same moves, the same view, but
other cards in the other hands) get the same move for the same random seed, at every level.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from games.ai import STRONGEST, choose_move
from games.ai.baseline import greedy_code
from games.ai.determinized import full_view
from games.ai.inference import observe_game, sample_world
from games.ai.rollout import greedy_full
from games.ai.view import view_of
from games.rules.cards import mask_codes
from games.rules.game import Game
from games.rules.moves import Move
from games.rules.observation import Observation
from games.rules.state import State


def _greedy_game(players: int, seed: int, plies: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(players, seed=seed)
    for _ in range(plies):
        if game.is_over():
            break
        codes = game.state.legal_move_codes()
        code = rng.choice(codes) if rng.random() < 0.3 else greedy_code(view_of(game.state))
        child = game.clone()
        child.play(Move.from_code(code, bool(game.state.pile_codes)))
        if child.is_over():
            break
        game = child
    return game


def _twin(game: Game) -> Game | None:
    """The same game with two cards swapped between two other seats' hands from the deal
    on: cards neither seat has played or revealed, so every move stays legal and the seat
    to move sees exactly the same game."""
    mover = game.state.to_move
    start = game.start
    kept = []
    for seat in range(game.n_players):
        if seat == mover:
            continue
        # Held since the deal and still unknown to the others: never played, never taken.
        never_shown = (start.hand_mask(seat) & game.state.hand_mask(seat)
                       & ~game.state.known_mask(seat) & ~start.known_mask(seat))
        if never_shown:
            kept.append((seat, min(mask_codes(never_shown))))
    for (a, card_a), (b, card_b) in itertools.combinations(kept, 2):
        hands = list(start.hand_masks)
        swap = 1 << card_a | 1 << card_b
        hands[a] ^= swap
        hands[b] ^= swap
        twin = Game(State([int(t) for t in start.trumps], hands, list(start.pile_codes),
                          start.to_move, list(start.out), start.strict))
        for code in game.move_codes:
            twin.play(Move.from_code(code, bool(twin.state.pile_codes)))
        return twin
    return None


def _stop_after(polls: int) -> Callable[[], bool]:
    """A stop request after a fixed number of polls: the search then does the same work
    whatever the machine's speed, so two runs can be compared."""
    count = itertools.count()
    return lambda: next(count) >= polls


@settings(max_examples=25, deadline=None)
@given(players=st.sampled_from([3, 4]), seed=st.integers(0, 10**6),
       plies=st.integers(0, 150), level=st.integers(1, STRONGEST))
def test_games_the_seat_cannot_tell_apart_get_the_same_move(players: int, seed: int,
                                                            plies: int, level: int) -> None:
    game = _greedy_game(players, seed, plies)
    twin = _twin(game)
    if twin is None:
        return
    mover = game.state.to_move
    assert twin.state.to_move == mover
    assert Observation.of_state(twin.state, mover) == Observation.of_state(game.state, mover)
    assert twin.state.hand_masks != game.state.hand_masks
    moves = [choose_move(g, level, movetime=60.0, rng=random.Random(seed),
                         should_stop=_stop_after(40)) for g in (game, twin)]
    assert moves[0] == moves[1]
    assert moves[0] in game.legal_moves()


@settings(max_examples=25, deadline=None)
@given(players=st.sampled_from([3, 4]), seed=st.integers(0, 10**6),
       plies=st.integers(0, 150), level=st.integers(1, STRONGEST))
def test_states_with_one_observation_get_the_same_move(players: int, seed: int, plies: int,
                                                       level: int) -> None:
    """Two full positions dealt from one observation (the hidden cards placed at random)."""
    state = _greedy_game(players, seed, plies).state
    observation = Observation.of_state(state, state.to_move)
    worlds = [observation.sample_state(random.Random(seed + k)) for k in range(2)]
    for world in worlds:
        assert Observation.of_state(world, world.to_move) == observation
    moves = {choose_move(position, level, movetime=60.0, rng=random.Random(seed),
                         should_stop=_stop_after(40))
             for position in (*worlds, observation)}
    assert len(moves) == 1


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([3, 4]), seed=st.integers(0, 10**6),
       plies=st.integers(0, 200))
def test_the_replayed_view_is_the_seats_observation(players: int, seed: int,
                                                    plies: int) -> None:
    """What the AI reads of a game (its view of the start, then the public moves) comes to
    the seat's observation now, and the weighted sampler deals only consistent hands."""
    game = _greedy_game(players, seed, plies)
    mover = game.state.to_move
    observation, evidence = observe_game(Observation.of_state(game.start, mover), game.move_codes)
    assert observation == Observation.of_state(game.state, mover)
    world = sample_world(observation, evidence, random.Random(seed))
    assert Observation.of_state(world, mover) == observation
    assert sum(world.hand_masks).bit_count() + len(world.pile_codes) == 36


@settings(max_examples=60, deadline=None)
@given(players=st.sampled_from([3, 4]), seed=st.integers(0, 10**6),
       plies=st.integers(0, 200))
def test_the_fast_playout_policy_is_greedy(players: int, seed: int, plies: int) -> None:
    state = _greedy_game(players, seed, plies).state
    trumps = tuple(int(t) for t in state.trumps)
    for _ in range(30):
        if state.is_over():
            break
        code = greedy_full(state, trumps)
        assert code == greedy_code(full_view(state))
        state.apply_code(code)


def test_in_the_strict_variant_a_take_proves_the_taker_held_no_beater() -> None:
    """Strict: who can beat must beat. So after a seat took on a card, no sampled deal
    gives that seat a hidden card that beats it, as long as other hands have room."""
    checked = 0
    for seed in range(40):
        game = Game.new(4, seed=seed, strict=True)
        while not game.is_over() and game.ply < 60:
            game.play(Move.from_code(greedy_code(view_of(game.state)),
                                     bool(game.state.pile_codes)))
        if game.is_over():
            continue
        mover = game.state.to_move
        observation, evidence = observe_game(Observation.of_state(game.start, mover),
                                             game.move_codes)
        rng = random.Random(seed)
        for seat in range(4):
            unlikely = evidence.unlikely[seat]
            others_room = sum(observation.hidden) - observation.hidden[seat]
            doubtful = observation.unseen_mask() & unlikely
            if seat == mover or not unlikely or not observation.hidden[seat] or (
                    doubtful.bit_count() > others_room):
                continue
            for _ in range(10):
                world = sample_world(observation, evidence, rng)
                hidden = world.hand_mask(seat) & ~observation.known[seat]
                assert not hidden & unlikely
            checked += 1
    assert checked >= 5
