"""The compiled rules core (games._core) against the pure Python rules, which it must match
on every position checked: the legal moves in order, the position (known cards included)
after every legal move, perft counts, and whole random playouts (same seed, same game, and
the generator left in the same state).

Positions come from random games of 2 to 4 players in both variants (hypothesis), the perft
data file and the endgame file of games/ai. The suite needs the core built (the install
builds it); without it these tests fail rather than pass on nothing.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ai.endgames import load_endgames
from games.rules import Game, State
from games.rules.native import core as compiled
from games.rules.perft import perft, perft_python
from games.rules.playout import random_playout, random_playout_python
from games.rules.state import legal_codes

DATA = Path(__file__).parent / "data" / "perft.txt"
PYTHON_PERFT_LIMIT = 20_000
GAMES = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def core() -> ModuleType:
    if compiled is None:
        pytest.fail("games._core is not built: reinstall with a C compiler (pip install -e .)")
    return compiled


def _position(state: State) -> tuple[list[int], list[int], list[int], list[int], int]:
    n = state.n_players
    return (list(state.hand_masks), [state.known_mask(s) for s in range(n)],
            list(state.pile_codes), list(state.out), state.to_move)


def _check_position(core: ModuleType, state: State) -> None:
    """The core's moves and the position after each of them are the Python engine's."""
    mover = state.to_move
    codes = state.legal_move_codes()
    if codes:
        assert core.legal_codes(state.hand_mask(mover), state.pile_codes,
                                int(state.trump(mover)), state.strict) == codes
    trumps = [int(t) for t in state.trumps]
    hands, known, pile, out, to_move = _position(state)
    for code in codes:
        after = state.clone()
        after.apply_code(code)
        assert core.apply_codes(trumps, hands, known, pile, out, to_move, [code]) == \
            _position(after), code
    for depth in (1, 2):
        assert perft(state, depth) == perft_python(state, depth)


def _played(n_players: int, seed: int, strict: bool, plies: int) -> State:
    state = Game.new(n_players, seed=seed, strict=strict).state
    random_playout_python(state, random.Random(seed), plies)
    return state


@GAMES
@given(n_players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), strict=st.booleans(),
       plies=st.sampled_from([0, 1, 5, 20, 60, 150, 400]))
def test_moves_apply_and_perft_agree_on_random_positions(core: ModuleType, n_players: int,
                                                         seed: int, strict: bool,
                                                         plies: int) -> None:
    _check_position(core, _played(n_players, seed, strict, plies))


@GAMES
@given(n_players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), strict=st.booleans(),
       skip=st.sampled_from([0, 30, 200]), max_plies=st.sampled_from([1, 7, 100, 2000]))
def test_a_playout_is_the_same_game_for_the_same_seed(core: ModuleType, n_players: int,
                                                      seed: int, strict: bool, skip: int,
                                                      max_plies: int) -> None:
    compiled_state = _played(n_players, seed, strict, skip)
    python_state = compiled_state.clone()
    compiled_rng, python_rng = random.Random(seed ^ 1), random.Random(seed ^ 1)
    compiled_rng.random()  # a generator part way through its block of words
    python_rng.random()
    plies = random_playout(compiled_state, compiled_rng, max_plies)
    assert plies == random_playout_python(python_state, python_rng, max_plies)
    assert _position(compiled_state) == _position(python_state)
    assert compiled_rng.getstate() == python_rng.getstate()
    assert compiled_rng.random() == python_rng.random()


def test_a_playout_without_a_seeded_generator_takes_the_python_path(core: ModuleType) -> None:
    class Fixed(random.Random):
        def random(self) -> float:
            return 0.0

    first, second = _played(2, 3, False, 0), _played(2, 3, False, 0)
    assert random_playout(first, Fixed(), 50) == random_playout_python(second, Fixed(), 50)
    assert _position(first) == _position(second)


def _perft_rows() -> list[tuple[str, bool, list[int]]]:
    rows = []
    for line in DATA.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            variant, tpn, counts = (part.strip() for part in line.split("|"))
            rows.append((tpn, variant == "strict", [int(c) for c in counts.split()]))
    return rows


@pytest.mark.parametrize(("tpn", "strict", "counts"), _perft_rows())
def test_perft_of_the_data_file_compiled_and_in_python(core: ModuleType, tpn: str,
                                                       strict: bool, counts: list[int]) -> None:
    state = State.from_tpn(tpn, strict=strict)
    for depth, count in enumerate(counts, 1):
        assert core.perft(state._trumps, state._hands, state._pile, state._out,
                          state.to_move, strict, depth) == count
        if count <= PYTHON_PERFT_LIMIT:
            assert perft_python(state, depth) == count
    _check_position(core, state)


def test_the_endgame_file_agrees_move_for_move(core: ModuleType) -> None:
    for endgame in load_endgames():
        for strict in (False, True):
            state = State.from_tpn(endgame.tpn, strict=strict)
            _check_position(core, state)
            assert perft(state, 4) == perft_python(state, 4)


def test_the_core_refuses_bad_input_with_a_value_error(core: ModuleType) -> None:
    with pytest.raises(ValueError, match="not legal"):
        core.apply_codes([3, 2], [1, 2], None, [], [], 0, [1])
    with pytest.raises(ValueError, match="bits above"):
        core.legal_codes(1 << 36, [], 0, False)
    with pytest.raises(ValueError, match="card code"):
        core.legal_codes(1, [36], 0, False)
    with pytest.raises(ValueError, match="depth"):
        core.perft([3, 2], [1, 2], [], [], 0, False, -1)
    with pytest.raises(ValueError, match="625"):
        core.playout([3, 2], [1, 2], None, [], [], 0, False, 10, (1, 2))
    assert legal_codes(1, [], 0, False) == core.legal_codes(1, [], 0, False) == [0]


def test_without_the_core_the_rules_run_in_python_after_a_warning() -> None:
    env = {**os.environ, "YT_PURE_PYTHON": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "games.rules", "perft", "SH 7C9HAS/KD6HTH 8S 1 -", "4"],
        capture_output=True, text=True, env=env, check=True, timeout=60)
    assert done.stdout.strip() == "45"
    assert "pure Python" in done.stderr
    assert "YT_PURE_PYTHON=1" in done.stderr
