"""The retrograde analysis of games/csrc/retrograde.c in plain Python, to hold the compiled
one to: the same graph (positions numbered breadth first, every legal move, a move into a
position of ``draws`` a drawing exit), the same values and distances.

``graph`` is ``games._core.retrograde_graph``; ``root`` is ``games._core.retrograde``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from games.ai.duel import DuelTable, Key
from games.ai.duel_search import duel_key
from games.rules.cards import BEATERS
from games.rules.state import legal_codes

WIN_EXIT, DRAW_EXIT = -1, -2
Node = tuple[int, int]
Root = tuple[int, int, tuple[tuple[int, int, int], ...], int]


class TooLarge(Exception):
    """More positions than ``max_states``."""


def _explore(trumps: tuple[int, int], strict: bool, root: Key, draws: frozenset[Key],
             max_states: int | None) -> tuple[list[Key], list[list[int]]]:
    keys, number, targets = [root], {root: 0}, []
    i = 0
    while i < len(keys):
        h0, h1, pile, seat = keys[i]
        mine, theirs = (h0, h1) if seat == 0 else (h1, h0)
        row = []
        for code in legal_codes(mine, pile, trumps[seat], strict):
            hand, after = DuelTable.play(mine, pile, code)
            if not hand:
                draw = theirs & (theirs - 1) == 0 and theirs & BEATERS[trumps[1 - seat]][after[-1]]
                row.append(DRAW_EXIT if draw else WIN_EXIT)
                continue
            key = duel_key(theirs, hand, after, 1 - seat)
            if key in draws:
                row.append(DRAW_EXIT)
                continue
            child = number.get(key)
            if child is None:
                if max_states is not None and len(keys) >= max_states:
                    raise TooLarge
                child = number[key] = len(keys)
                keys.append(key)
            row.append(child)
        targets.append(row)
        i += 1
    return keys, targets


def _solve(targets: list[list[int]], root_on_path: bool) -> tuple[list[int], list[int]]:
    n = len(targets)
    value: list[int | None] = [None] * n
    distance = [0] * n
    open_moves = [0] * n
    preds: list[list[int]] = [[] for _ in range(n)]
    queue: deque[int] = deque()
    for i, row in enumerate(targets):
        if i == 0 and root_on_path:
            value[i] = 0
            continue
        if WIN_EXIT in row:
            value[i], distance[i] = 1, 1
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
            if value[c] == -1:
                value[p], distance[p] = 1, distance[c] + 1
                queue.append(p)
            else:
                open_moves[p] -= 1
                if open_moves[p] == 0:
                    value[p], distance[p] = -1, distance[c] + 1
                    queue.append(p)
    return [0 if v is None else v for v in value], distance


def graph(trumps: tuple[int, int], strict: bool, root: Key, draws: Iterable[Key] = (),
          max_states: int | None = None) -> tuple[dict[Key, Node], int] | None:
    try:
        keys, targets = _explore(trumps, strict, root, frozenset(draws), max_states)
    except TooLarge:
        return None
    value, distance = _solve(targets, False)
    return {key: (v, distance[i] if v else 0) for i, (key, v) in
            enumerate(zip(keys, value, strict=True))}, len(keys)


def root(trumps: tuple[int, int], strict: bool, me: int, opp: int, pile: tuple[int, ...],
         mover: int, draws: Iterable[Key] = (), root_on_path: bool = False,
         max_states: int | None = None) -> Root | None:
    try:
        keys, targets = _explore(trumps, strict, duel_key(me, opp, pile, mover),
                                 frozenset(draws), max_states)
    except TooLarge:
        return None
    value, distance = _solve(targets, root_on_path)
    moves = []
    best, best_distance = -2, 0
    for code, target in zip(legal_codes(me, pile, trumps[mover], strict), targets[0],
                            strict=True):
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
    return best, best_distance, tuple(moves), len(keys)
