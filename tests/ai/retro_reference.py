"""An independent reference for the exact solver: retrograde analysis written plainly over
the rules engine's own ``State`` (``legal_move_codes``, ``apply_code``, ``outcome``), with
nothing from ``games.ai``.

The rules with their history (docs/rules.md): a move into a position the game has seen
twice is a draw (its third occurrence), and the game is a draw once the move limit is
reached. ``reference_values`` computes, for k = 1, 2, ..., the positions the mover can win within
k plies and those the mover loses within k plies, until nothing changes; a position is won
with ``plies`` plies left if it is won within that many plies, lost likewise, and a draw
otherwise (a side that cannot be beaten within the limit is not beaten).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from games.rules.state import PositionKey, State


def move_targets(state: State, draws: set[PositionKey]) -> dict[int, tuple[str, object]]:
    """Each legal move of ``state``: its end value for the mover, or the position it leads
    to."""
    targets: dict[int, tuple[str, object]] = {}
    for code in state.legal_move_codes():
        child = state.clone()
        child.apply_code(code)
        outcome = child.outcome()
        if outcome is not None:
            value = 0 if outcome.loser is None else (1 if outcome.loser != state.to_move else -1)
            targets[code] = ("end", value)
        elif child.key() in draws:
            targets[code] = ("end", 0)
        else:
            targets[code] = ("pos", child)
    return targets


def reference_values(root: State, history: Iterable[PositionKey] = (),
                     plies: int = 2000) -> dict[int, int]:
    """The value for the mover of each legal move of ``root``: ``history`` holds the keys
    of the positions the game has been in (the root's included), ``plies`` the plies left
    before the move limit."""
    counts = Counter(history)
    draws = {key for key, count in counts.items() if count >= 2}
    # Every reachable position, breadth first.
    states: dict[PositionKey, State] = {root.key(): root}
    moves: dict[PositionKey, dict[int, tuple[str, object]]] = {}
    todo = [root]
    while todo:
        state = todo.pop()
        targets = move_targets(state, draws)
        plain: dict[int, tuple[str, object]] = {}
        for code, (kind, target) in targets.items():
            if kind == "pos":
                assert isinstance(target, State)
                key = target.key()
                if key not in states:
                    states[key] = target
                    todo.append(target)
                plain[code] = ("pos", key)
            else:
                plain[code] = (kind, target)
        moves[state.key()] = plain
    # Round k decides the positions won, and those lost, within k plies (a position
    # decided stays decided); ``decided[key] = (1 or -1, k)``.
    decided: dict[PositionKey, tuple[int, int]] = {}
    k = 0
    while k < plies:
        k += 1
        now: dict[PositionKey, tuple[int, int]] = {}
        for key, targets in moves.items():
            if key in decided:
                continue
            outcomes = []
            for kind, target in targets.values():
                if kind == "end":
                    outcomes.append(target)
                else:
                    status = decided.get(target)  # type: ignore[arg-type]
                    outcomes.append(0 if status is None else -status[0])
            if 1 in outcomes:
                now[key] = (1, k)
            elif all(kind == "pos" for kind, _t in targets.values()) and all(
                    o == -1 for o in outcomes):
                now[key] = (-1, k)
        if not now:
            break
        decided.update(now)
    values: dict[int, int] = {}
    for code, (kind, target) in moves[root.key()].items():
        if kind == "end":
            assert isinstance(target, int)
            values[code] = target
            continue
        status = decided.get(target)  # type: ignore[arg-type]
        values[code] = 0 if status is None or status[1] > plies - 1 else -status[0]
    return values
