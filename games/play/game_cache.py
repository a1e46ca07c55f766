"""The games of recently changed matches as `games.rules.Game`, per process: an optimisation.

A game's history (what repetition counts) is in its moves, so the game of a match is its deal
with every move played again. A move's service keeps the game it played on here once the move
has committed; the next move of the match in this process (or the AI's task choosing it) then
plays only the moves since (usually none or one, the opponent's, from another process) instead
of the whole game from the deal.

Nothing's correctness depends on it: a game is used only if it is of the very deal and seed of
the match and its moves are the first of the match's (its last move is checked: moves are
never changed once committed, only added), and a
caller gets its own copy; with the cache empty every game is played from the deal.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from games.rules import Game


class GameCache:
    """A bounded map of match id to the game of its newest committed move seen here."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[int, tuple[str, Game]] = OrderedDict()

    def put(self, match_id: int, game: Game, *, deal_tpn: str) -> None:
        """Keep the game of a committed move of the match dealt `deal_tpn` (the caller no
        longer changes it); a game behind the one held is ignored."""
        with self._lock:
            held = self._items.get(match_id)
            if held is not None and held[1].ply > game.ply:
                return
            self._items[match_id] = (deal_tpn, game)
            self._items.move_to_end(match_id)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def game_of(self, match_id: int, *, deal_tpn: str, seed: int | None,
                moves: Sequence[str]) -> Game | None:
        """A copy of the held game of the match brought to `moves` (every move's text, in
        order), or None if none held fits: of another deal or seed, longer than `moves`, or
        whose last move is not the one of `moves` at its ply."""
        with self._lock:
            entry = self._items.get(match_id)
            if entry is None:
                return None
            held_deal, held = entry
            if (held_deal != deal_tpn or held.seed != seed or held.ply > len(moves)
                    or (held.ply and str(held.moves[-1]) != moves[held.ply - 1])):
                return None
            game = held.clone()
        for text in moves[game.ply:]:
            game.play(text)
        return game

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


recent_games = GameCache()
