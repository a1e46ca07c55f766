"""The AI's analysis of a finished duel: an evaluation of every position, and the moves that
threw value away, judged as inaccuracies, mistakes and blunders.

Public names: ``analyse``, ``Analysis``, ``Evaluation``, ``Mistake``, ``Judgement``,
``JUDGEMENTS``, ``ANALYSIS_VERSION``, ``nodes_per_position``.

The scale. Every ``Evaluation.value`` is seat 0's expected score in [-1, 1]: 1 seat 0 wins,
0 a draw (or even chances), -1 seat 0 loses; a mistake's values are the mover's on the same
scale. It is lichess's "winning chances" scale, and an estimate is ``tanh`` of the search's
score (``games.ai.appraisal.expected_score``), fitted to the outcomes of AI games.

Exact or estimate. A value is exact when it is proven: the end of the game, the exact
solver, a forced win or loss the search proved with every card apart, a forced move's only
child, or a move that is known to reach a proven win for its mover (then the position before
it is a proven win too). Everything else is an estimate, never more certain than
``appraisal.ESTIMATE_LIMIT``.

Marks. A move is judged by how much it lowered its mover's evaluation, from the position
before it to the one after (the drop the graph shows): at least 0.1 is an inaccuracy, 0.2 a
mistake, 0.3 a blunder (lichess's thresholds on this scale). A move whose values before and
after are both exact is an exact mistake: it changed the proven value (a win given away is a
drop of 1 or 2, always a blunder). Otherwise the mark is an estimate, and it needs a second
witness: the search of the position before must also find the move worse than its best by
the same threshold, so that a drop that only comes from the search seeing deeper in one
position than in the next marks nothing. Forced moves are never marked.

The budget is in search nodes per position (``nodes_per_position``), never in seconds: the
analysis is a pure function of the game and of ``ANALYSIS_VERSION``, so running it twice
gives the same result.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from games.ai.appraisal import ESTIMATE_LIMIT, Appraisal, Appraiser
from games.ai.duel import Key
from games.rules.game import Game
from games.rules.moves import Move
from games.rules.outcome import Outcome, Termination
from games.rules.state import State

ANALYSIS_VERSION: Final = 2
"""Changes whenever the same game would be analysed differently (stored analyses of another
version are made again)."""

TOTAL_NODES: Final = 48_000_000
"""The default budget of a whole game, shared by its positions: about 9 s of one core on
average with the compiled core (docs/ai.md; the site passes its own, the replays'
``REPLAYS_ANALYSIS_NODES``)."""
MOST_SHARE: Final = 100
"""No position gets more than the game's budget over this (short games are quick) ..."""
LEAST_SHARE: Final = 2_000
"""... or less than the game's budget over this (the longest games take longer)."""


class Judgement(enum.Enum):
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


JUDGEMENTS: Final = ((0.3, Judgement.BLUNDER), (0.2, Judgement.MISTAKE),
                     (0.1, Judgement.INACCURACY))
"""The least drop of the mover's expected score for each judgement, worst first."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    value: float
    """Seat 0's expected score in [-1, 1] (see the module docstring)."""
    exact: bool
    """Proven (1, 0 or -1), or the search's estimate."""


@dataclass(frozen=True, slots=True)
class Mistake:
    ply: int
    """Index of the move in the game (0 = the first move)."""
    move: Move
    judgement: Judgement
    exact: bool
    """Both values are proven: the move changed the position's exact value."""
    value_before: float
    """For the mover, the evaluation of the position before the move."""
    value_after: float
    """For the same player, the evaluation of the position after it."""
    best_moves: tuple[Move, ...]
    """Every value-keeping move of an exact mistake; the search's best move otherwise."""


@dataclass(frozen=True, slots=True)
class Analysis:
    evaluations: tuple[Evaluation, ...]
    """One per position: the deal (ply 0) to the last."""
    mistakes: tuple[Mistake, ...]
    nodes_per_position: int


def nodes_per_position(plies: int, total: int = TOTAL_NODES) -> int:
    """The search budget of each position of a game of ``plies`` moves whose whole budget
    is ``total`` nodes."""
    if total < LEAST_SHARE:
        raise ValueError(f"a game's budget is at least {LEAST_SHARE} nodes, not {total}")
    return max(total // LEAST_SHARE, min(total // MOST_SHARE, total // (plies + 1)))


def analyse(start: State | Game, moves: Sequence[Move | str] = (), *,
            nodes: int | None = None, total_nodes: int = TOTAL_NODES) -> Analysis:
    """The analysis of a duel, given a ``Game`` or a start and its moves; ``nodes`` per
    position (default: ``nodes_per_position`` of the game's length and ``total_nodes``)."""
    if isinstance(start, Game):
        game = start
    else:
        game = Game(start)
        for move in moves:
            game.play(move)
    if game.n_players != 2:
        raise ValueError("only duels can be analysed: 3-4 players hide their hands")
    budget = nodes_per_position(game.ply, total_nodes) if nodes is None else nodes
    appraisals, movers = _appraise_all(game, budget)
    evaluations = _evaluations(appraisals, movers)
    return Analysis(tuple(evaluations), tuple(_mistakes(game, appraisals, movers, evaluations)),
                    budget)


def _appraise_all(game: Game, nodes: int) -> tuple[list[Appraisal], list[int]]:
    """Every position appraised, in the mover's terms, walking the game once; then values
    carried back from each position to the one before where they prove it."""
    state = game.start.clone()
    t0, t1 = state.trumps
    appraiser = Appraiser((int(t0), int(t1)), state.strict, nodes)
    codes = game.move_codes
    seen: dict[Key, int] = {}
    repeated: frozenset[Key] = frozenset()
    appraisals: list[Appraisal] = []
    movers: list[int] = []
    single: list[bool] = []
    for ply in range(len(codes) + 1):
        mover = state.to_move
        movers.append(mover)
        end = _end_value(state, game.outcome() if ply == len(codes) else None)
        if end is not None:
            appraisals.append(Appraisal(end, True, ()))
            single.append(False)
            break
        h0, h1 = state.hand_masks
        pile = state.pile_codes
        me, opp = (h0, h1) if mover == 0 else (h1, h0)
        played = codes[ply] if ply < len(codes) else None
        appraisal = appraiser.appraise(me, opp, pile, mover, played)
        if appraisal.forced and played is None:
            # The last position of a game that ended off the board (a resignation, a
            # flag): its value is its only move's.
            appraisal = _forced_end(appraiser, state, appraisal.best[0])
        appraisals.append(appraisal)
        single.append(state.count_legal_moves() == 1)
        key: Key = (h0, h1, pile, mover)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] == 2:
            repeated = repeated | {key}
        appraiser.went_through(key, repeated)
        if played is not None:
            state.apply_code(played)
    for ply in range(len(appraisals) - 2, -1, -1):
        here, child = appraisals[ply], appraisals[ply + 1]
        if here.forced:
            # Exact only with a single legal move: equivalent cards are not exactly so.
            exact = child.exact and single[ply]
            value = -child.value if exact else max(-ESTIMATE_LIMIT,
                                                   min(ESTIMATE_LIMIT, -child.value))
            appraisals[ply] = replace(here, value=value, exact=exact)
        elif child.exact and child.value == -1.0 and not here.exact:
            # The move played reaches a proven win for its mover: so is this position
            # (the child's value holds whatever the path: see games.ai.appraisal).
            appraisals[ply] = replace(here, value=1.0, exact=True)
    return appraisals, movers


def _end_value(state: State, outcome: Outcome | None) -> float | None:
    """The mover's value of a position where the game is over by its rules, else None. A
    resignation or a flag says nothing of the position: it is judged like any other."""
    ended = state.outcome()
    if ended is None and outcome is not None and outcome.termination in (
            Termination.REPETITION, Termination.MOVE_LIMIT):
        ended = outcome
    if ended is None:
        return None
    if ended.loser is None:
        return 0.0
    return -1.0 if ended.loser == state.to_move else 1.0


def _forced_end(appraiser: Appraiser, state: State, code: int) -> Appraisal:
    """The value of a forced position with no move after it in the game: its child's, or
    its grandchild's, ... (an estimate)."""
    child = state.clone()
    for _step in range(8):
        child.apply_code(code)
        sign = 1.0 if child.to_move == state.to_move else -1.0
        end = _end_value(child, None)
        if end is not None:
            return Appraisal(sign * end, False, (code,))
        h0, h1 = child.hand_masks
        mover = child.to_move
        me, opp = (h0, h1) if mover == 0 else (h1, h0)
        appraisal = appraiser.appraise(me, opp, child.pile_codes, mover, None)
        if not appraisal.forced:
            return Appraisal(sign * appraisal.value, False, (code,))
        code = appraisal.best[0]
    return Appraisal(0.0, False, (code,))


def _evaluations(appraisals: Sequence[Appraisal], movers: Sequence[int]) -> list[Evaluation]:
    return [Evaluation(round(a.value if mover == 0 else -a.value, 3) + 0.0, a.exact)
            for a, mover in zip(appraisals, movers, strict=True)]


def _judgement(drop: float) -> Judgement | None:
    for least, judgement in JUDGEMENTS:
        if drop >= least - 1e-9:
            return judgement
    return None


def _mistakes(game: Game, appraisals: Sequence[Appraisal], movers: Sequence[int],
              evaluations: Sequence[Evaluation]) -> list[Mistake]:
    state = game.start.clone()
    found = []
    for ply, code in enumerate(game.move_codes[: len(appraisals) - 1]):
        pile_nonempty = bool(state.pile_codes)
        state.apply_code(code)
        here = appraisals[ply]
        if here.forced:
            continue
        sign = 1.0 if movers[ply] == 0 else -1.0
        before, after = evaluations[ply], evaluations[ply + 1]
        drop = sign * (before.value - after.value)
        exact = before.exact and after.exact
        if not exact:
            if here.played is None or here.compared_best is None:
                continue
            drop = min(drop, here.compared_best - here.played)
        judgement = _judgement(drop)
        if judgement is None:
            continue
        found.append(Mistake(
            ply, Move.from_code(code, pile_nonempty), judgement, exact,
            sign * before.value, sign * after.value,
            tuple(Move.from_code(c, pile_nonempty) for c in here.best)))
    return found
