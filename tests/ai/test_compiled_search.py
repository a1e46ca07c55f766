"""The compiled duel search (games._core.DuelSearch) against the Python node of
games/ai/search.py, which it must match on every position checked: the move order, the
evaluation and the quick win of each node, and whole searches node for node (the result,
the node count, every entry of the transposition table), proofs and single-move scores,
with positions held on the path and positions the game has seen twice, and a node budget
that runs out at the same node.

Positions: random endgames of 4 to 16 cards, and duels dealt and played some plies at
random (hypothesis), in both variants, with equivalent cards collapsed or not.
"""

from __future__ import annotations

import random
import signal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ai.duel import DuelTable
from games.ai.duel_search import SearchTimeout, duel_key
from games.ai.endgames import random_endgame
from games.ai.evaluation import evaluate
from games.ai.search import Searcher
from games.rules import Game, State
from games.rules.native import core
from games.rules.playout import random_playout_python

POSITIONS = settings(max_examples=60, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])
Position = tuple[int, int, tuple[int, ...], int]


@pytest.fixture(autouse=True)
def _needs_the_core() -> None:
    if core is None:
        pytest.fail("games._core is not built: reinstall with a C compiler (pip install -e .)")


def _duel(seed: int, cards: int, strict: bool) -> State:
    rng = random.Random(seed)
    if cards < 36:
        state = random_endgame(rng, cards)
        return State.from_tpn(state.tpn(), strict=strict)
    state = Game.new(2, seed=seed, strict=strict).state
    random_playout_python(state, rng, rng.randrange(0, 60))
    if state.is_over():
        state = Game.new(2, seed=seed, strict=strict).state
    return state


def _position(state: State) -> Position:
    h0, h1 = state.hand_masks
    me, opp = (h0, h1) if state.to_move == 0 else (h1, h0)
    return me, opp, state.pile_codes, state.to_move


def _table(state: State, collapse: bool) -> DuelTable:
    t0, t1 = state.trumps
    return DuelTable((int(t0), int(t1)), state.strict, collapse)


def _pair(table: DuelTable, **budget: int) -> tuple[Searcher, Searcher]:
    compiled, python = Searcher(table, **budget), Searcher(table, compiled=False, **budget)
    assert compiled.compiled
    assert not python.compiled
    return compiled, python


def _same_tables(compiled: Searcher, python: Searcher) -> None:
    assert compiled.table_size() == python.table_size()
    session = compiled._core
    assert session is not None
    for key, entry in python.tt.items():
        assert session.table_get(key) == entry, key


@POSITIONS
@given(seed=st.integers(0, 2**32), cards=st.sampled_from([4, 6, 9, 12, 16, 36]),
       strict=st.booleans(), collapse=st.booleans())
def test_each_node_orders_evaluates_and_wins_alike(seed: int, cards: int, strict: bool,
                                                   collapse: bool) -> None:
    state = _duel(seed, cards, strict)
    table = _table(state, collapse)
    session = Searcher(table)._core
    assert session is not None
    me, opp, pile, mover = _position(state)
    moves = table.ordered_moves(me, opp, pile, mover)
    assert session.ordered_moves(me, opp, pile, mover) == moves
    assert session.ordered_moves(me, opp, pile, mover, moves[-1]) == \
        table.ordered_moves(me, opp, pile, mover, moves[-1])
    assert session.ordered_moves(me, opp, pile, mover, 1436) == moves
    assert session.evaluate(me, opp, pile, mover) == evaluate(table, me, opp, pile, mover)
    assert session.wins_now(me, opp, pile, mover) == table.wins_now(me, opp, pile, mover)


@POSITIONS
@given(seed=st.integers(0, 2**32), cards=st.sampled_from([4, 6, 9, 12, 16, 36]),
       strict=st.booleans(), collapse=st.booleans(), nodes=st.sampled_from([300, 3000]))
def test_a_whole_search_is_the_same_node_for_node(seed: int, cards: int, strict: bool,
                                                  collapse: bool, nodes: int) -> None:
    state = _duel(seed, cards, strict)
    compiled, python = _pair(_table(state, collapse), max_nodes=nodes)
    position = _position(state)
    first, second = compiled.search(*position), python.search(*position)
    assert (first.move, first.score, first.depth, first.nodes) == \
        (second.move, second.score, second.depth, second.nodes)
    assert compiled.nodes == python.nodes
    _same_tables(compiled, python)
    # The sessions go on from their tables: a second search and single-move scores too.
    compiled.max_nodes = python.max_nodes = compiled.nodes + nodes
    again = compiled.search(*position), python.search(*position)
    assert again[0].move == again[1].move
    assert again[0].score == again[1].score
    moves = _table(state, collapse).ordered_moves(*position)
    for code in moves[:3]:
        compiled.max_nodes = python.max_nodes = compiled.nodes + nodes
        outcomes = []
        for searcher in (compiled, python):
            try:
                outcomes.append(searcher.move_score(*position, code, 2))
            except SearchTimeout:
                outcomes.append(None)
        assert outcomes[0] == outcomes[1]
        assert compiled.nodes == python.nodes
    _same_tables(compiled, python)


@POSITIONS
@given(seed=st.integers(0, 2**32), cards=st.sampled_from([6, 9, 12, 16]),
       strict=st.booleans(), held=st.integers(0, 6))
def test_proofs_agree_with_held_and_repeated_positions(seed: int, cards: int, strict: bool,
                                                       held: int) -> None:
    state = _duel(seed, cards, strict)
    me, opp, pile, mover = _position(state)
    table = _table(state, collapse=False)
    # Positions along a random line from here: some held on the path, some seen twice.
    rng = random.Random(seed)
    line = []
    walker = state.clone()
    for _ in range(2 * held):
        if walker.is_over():
            break
        walker.apply_code(rng.choice(walker.legal_move_codes()))
        if not walker.is_over():
            line.append(duel_key(*_position(walker)))
    repeated = line[held:]
    sessions = (Searcher(table, repeated, max_nodes=4000),
                Searcher(table, repeated, max_nodes=4000, compiled=False))
    for searcher in sessions:
        for key in line[:held]:
            searcher.hold(key)
    for depth in (1, 3, 5):
        for win in (True, False):
            outcomes = []
            for searcher in sessions:
                try:
                    outcomes.append(searcher.proves(me, opp, pile, mover, depth, win))
                except SearchTimeout:
                    outcomes.append(None)
            assert outcomes[0] == outcomes[1]
            assert sessions[0].nodes == sessions[1].nodes
    _same_tables(*sessions)


def test_a_stop_request_is_asked_and_a_failing_one_leaves_the_session_usable() -> None:
    state = Game.new(2, seed=5).state
    position = _position(state)
    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) >= 3

    searcher = Searcher(_table(state, True), should_stop=stop)
    result = searcher.search(*position)
    assert len(asked) == 3
    assert 3 * 256 <= searcher.nodes < 4 * 256
    assert result.move in _table(state, True).ordered_moves(*position)

    def broken() -> bool:
        raise RuntimeError("the stop request failed")

    searcher = Searcher(_table(state, True), should_stop=broken)
    with pytest.raises(RuntimeError, match="stop request"):
        searcher.search(*position)
    session = searcher._core
    assert session is not None
    assert session.path_get(duel_key(*position)) is None
    searcher.should_stop, searcher.max_nodes = None, 2000
    assert searcher.search(*position).move in _table(state, True).ordered_moves(*position)


def test_the_table_can_be_measured_and_emptied() -> None:
    state = Game.new(2, seed=8).state
    for searcher in _pair(_table(state, True), max_nodes=2000):
        searcher.search(*_position(state))
        assert searcher.table_size() > 0
        searcher.clear_table()
        assert searcher.table_size() == 0


def test_bad_positions_are_refused_with_a_value_error() -> None:
    session = Searcher(DuelTable((0, 1)))._core
    assert session is not None
    with pytest.raises(ValueError, match="no card"):
        session.ordered_moves(0, 1, (), 0)
    with pytest.raises(ValueError, match="mover"):
        session.evaluate(1, 2, (), 2)
    with pytest.raises(ValueError, match="card code"):
        session.wins_now(1, 2, (40,), 0)
    with pytest.raises(IndexError):
        session.path_pop()


def test_a_signal_handler_interrupts_a_search_without_a_budget() -> None:
    """A task's time limit or Ctrl-C arrives as a signal, whose Python handler must run
    inside a long compiled search, not after it."""
    state = Game.new(2, seed=3).state
    position = _position(state)

    def alarm(signum: int, frame: object) -> None:
        raise TimeoutError("the alarm rang")

    searcher = Searcher(_table(state, True))
    # A timer of CPU time (SIGPROF), clear of the wall-clock one of pytest-timeout.
    previous = signal.signal(signal.SIGPROF, alarm)
    signal.setitimer(signal.ITIMER_PROF, 0.3)
    try:
        with pytest.raises(TimeoutError, match="alarm"):
            searcher.proves(*position, depth=40, win=True)  # one long call into C
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
    session = searcher._core
    assert session is not None
    assert session.path_get(duel_key(*position)) is None


def test_the_compiled_search_keeps_its_deadline_on_the_sessions_clock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The core reads the deadline on ``time.monotonic`` as the session sees it, which the
    arena's --cpu-clock replaces by the process's CPU time: a clock of its own would stop
    at once (or never) on a deadline set on another clock."""
    state = State.from_tpn("SH 7C8CTCJCAC6D9DTD8HTHJHKH6S7S8S9STSQS/"
                           "6C9CQCKC7D8DJDQDKDAD6H7H9HQHAHJSKSAS - 0 -")
    h0, h1 = state.hand_masks
    table = DuelTable((3, 2))
    for now, finished in ((0.0, True), (2.0, False)):
        monkeypatch.setattr("time.monotonic", lambda now=now: now)
        searcher = Searcher(table, deadline=1.0)
        assert searcher.compiled
        result = searcher.search(h0, h1, (), 0, max_depth=6)  # thousands of nodes
        assert (result.depth == 6) is finished, now
