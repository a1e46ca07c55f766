"""Retrograde analysis of a duel position: every position reachable from it, the moves
between them, and the exact value and distance of each, worked out from the ends back.

Public names: ``Retrograde``, ``retrograde``, ``retrograde_python``.

The positions are numbered in the order they are first reached (breadth first from the
root, the moves of each in ``legal_codes`` order, every legal move: no card is collapsed).
A move that goes out is an exit: a win for its mover, or a draw by the draw rule. A
position in ``draws`` (seen twice by the game, or held on a path above the root) is a draw
when entered, and so is the root itself with ``root_on_path`` (it is on the path of every
line from it: the solver's rule, ``games.ai.solver``). Then, from the exits back: a position
with a winning exit or a move into a lost position is won; one whose every move leads into
a won position is lost (a drawing exit, or a move into a draw, keeps it from that); what is
left is a draw, where either side can keep the game going or repeat. Since along the
winner's best line the distance falls by one at every ply, that line never repeats a
position, so "a repetition on the path is a draw" gives these same values.

The distance is in plies: a won position's the fewest to its end against the best defence
(1: the mover goes out and wins now), a lost one's the most; 0 for a draw. The root's
value and distance come from its moves' (``moves``: each legal move's value and distance
for the root's mover).

The work is in the compiled core when it is built (``games._core.retrograde``, one call);
``retrograde_python`` is the same analysis in Python (slow: for tests and small positions),
and the tests hold the two to the same results, and both to the solved endgame file.
It is bounded by ``max_states`` positions: past it the answer is None.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from games.ai.duel import DuelTable, Key
from games.ai.duel_search import duel_key
from games.rules.cards import BEATERS
from games.rules.native import core
from games.rules.state import legal_codes

MAX_STATES: Final = 2_000_000
WIN_EXIT: Final = -1
DRAW_EXIT: Final = -2
_WON, _LOST, _DRAWN = 1, -1, 0


@dataclass(frozen=True, slots=True)
class Retrograde:
    value: int
    """For the mover: 1 win, 0 draw, -1 loss."""
    distance: int
    """Plies to the end with best play on both sides (0 for a draw)."""
    moves: tuple[tuple[int, int, int], ...]
    """``(code, value, distance)`` for the mover of each legal move, in ``legal_codes``
    order."""
    positions: int
    """The positions reached from the root, the root included."""


def retrograde(trumps: tuple[int, int], strict: bool, me: int, opp: int,
               pile: tuple[int, ...], mover: int, draws: Iterable[Key] = (),
               root_on_path: bool = True, max_states: int = MAX_STATES,
               compiled: bool = True) -> Retrograde | None:
    """The analysis of ``(me, opp, pile, mover)`` (see the module docstring), or None past
    ``max_states`` positions."""
    if not compiled or core is None:
        return retrograde_python(trumps, strict, me, opp, pile, mover, draws, root_on_path,
                                 max_states)
    found = core.retrograde(trumps, strict, me, opp, pile, mover, tuple(draws),
                            root_on_path, max_states)
    if found is None:
        return None
    value, distance, moves, positions = found
    return Retrograde(value, distance, tuple(moves), positions)


def retrograde_python(trumps: tuple[int, int], strict: bool, me: int, opp: int,
                      pile: tuple[int, ...], mover: int, draws: Iterable[Key] = (),
                      root_on_path: bool = True,
                      max_states: int = MAX_STATES) -> Retrograde | None:
    """``retrograde`` in Python, step for step."""
    if not me or not opp:
        raise ValueError("both seats must hold cards")
    drawn = frozenset(draws)
    keys: list[Key] = [duel_key(me, opp, pile, mover)]
    number = {keys[0]: 0}
    targets: list[list[int]] = []
    root_codes: list[int] = []
    i = 0
    while i < len(keys):
        h0, h1, at, seat = keys[i]
        if i > 0 and keys[i] in drawn:
            targets.append([])  # a draw when entered: no moves
            i += 1
            continue
        mine, theirs = (h0, h1) if seat == 0 else (h1, h0)
        codes = legal_codes(mine, at, trumps[seat], strict)
        if i == 0:
            root_codes = codes
        row = []
        for code in codes:
            hand, after = DuelTable.play(mine, at, code)
            if not hand:
                draw = (theirs & (theirs - 1) == 0
                        and theirs & BEATERS[trumps[1 - seat]][after[-1]])
                row.append(DRAW_EXIT if draw else WIN_EXIT)
                continue
            key = duel_key(theirs, hand, after, 1 - seat)
            child = number.get(key)
            if child is None:
                if len(keys) >= max_states:
                    return None
                child = number[key] = len(keys)
                keys.append(key)
            row.append(child)
        targets.append(row)
        i += 1
    value, distance = _solve(targets, root_on_path)
    moves = []
    best, best_distance = -2, 0
    for code, target in zip(root_codes, targets[0], strict=True):
        if target == WIN_EXIT:
            v, d = 1, 1
        elif target == DRAW_EXIT:
            v, d = 0, 0
        else:
            v = -value[target]
            d = distance[target] + 1 if v else 0
        moves.append((code, v, d))
        if v > best or (v == best and ((v > 0 and d < best_distance)
                                       or (v < 0 and d > best_distance))):
            best, best_distance = v, d
    return Retrograde(best, best_distance, tuple(moves), len(keys))


def _solve(targets: list[list[int]], root_on_path: bool) -> tuple[list[int], list[int]]:
    """Values (1, -1, 0 for the mover) and distances of every position."""
    n = len(targets)
    value: list[int | None] = [None] * n
    distance = [0] * n
    open_moves = [0] * n
    preds: list[list[int]] = [[] for _ in range(n)]
    queue: deque[int] = deque()
    for i, row in enumerate(targets):
        if not row or (i == 0 and root_on_path):
            value[i] = _DRAWN  # a draw when entered
            continue
        if WIN_EXIT in row:
            value[i], distance[i] = _WON, 1
            queue.append(i)
        open_moves[i] = sum(1 for t in row if t != WIN_EXIT)
        for t in row:
            if t >= 0:
                preds[t].append(i)
    while queue:
        c = queue.popleft()
        for p in preds[c]:
            if value[p] is not None:
                continue
            if value[c] == _LOST:
                value[p], distance[p] = _WON, distance[c] + 1
                queue.append(p)
            else:
                open_moves[p] -= 1
                if open_moves[p] == 0:
                    value[p], distance[p] = _LOST, distance[c] + 1
                    queue.append(p)
    return [_DRAWN if v is None else v for v in value], distance
