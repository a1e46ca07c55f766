"""A game with its history: the rules that need history, and every way a game ends.

Public names: ``Game``, ``MOVE_LIMIT``.

``Game`` holds the start position, the moves played and the current ``State``. On top of
the position's own end (NORMAL, DRAW_RULE) it applies the house rules of docs/rules.md that
need history: the third occurrence of a position is a draw (REPETITION; positions are
counted from the start one on), and so is reaching ``MOVE_LIMIT`` plies (MOVE_LIMIT). A
player may resign or lose on time (RESIGNATION, TIMEOUT) and a game may be aborted
(ABORTED, no result). After the end no move is accepted.

The clock itself is the site's business: ``timeout(seat)`` records its verdict.

History: ``moves``, ``move_codes`` and ``position_keys()`` (``State.key()`` of every
position the game has been in, the start first and the current one last: what repetition
counts, and what a search needs to count it too). ``undo()`` takes the last move back, in
the manner of python-chess's ``pop`` (``play`` being its ``push``): the state, the history
and the repetition counts are then exactly as before that move.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from games.rules.cards import Suit
from games.rules.deal import deal, first_dealer
from games.rules.errors import IllegalMoveError
from games.rules.moves import Move, format_move_code, parse_move_code
from games.rules.observation import Observation
from games.rules.outcome import Outcome, Termination
from games.rules.state import PositionKey, State, Undo

MOVE_LIMIT: Final = 2000


class Game:
    def __init__(self, start: State, *, seed: int | None = None,
                 dealer: int | None = None) -> None:
        """A game from ``start``; ``seed`` and ``dealer`` record how it was dealt, if known
        (a seed needs its dealer, and must deal ``start``, or a record could not be read)."""
        if seed is not None and (dealer is None or start.key() != deal(
                start.n_players, seed, dealer, start.trumps, start.strict).key()):
            raise ValueError(f"the start is not the deal of seed {seed} by dealer {dealer}")
        self.start = start.clone()
        self.seed = seed
        self.dealer = dealer
        self.state = start.clone()
        self._codes: list[int] = []
        self._moves: list[Move] = []
        self._undos: list[Undo] = []
        self._keys: list[PositionKey] = [start.key()]
        self._seen: Counter[PositionKey] = Counter(self._keys)
        self._ended: Outcome | None = None  # an end the position does not show

    @classmethod
    def new(
        cls,
        n_players: int = 2,
        seed: int | None = None,
        dealer: int | None = None,
        trumps: str | Sequence[Suit] | None = None,
        strict: bool = False,
    ) -> Game:
        """A freshly dealt game (``games.rules.deal.deal``); a random seed if none given,
        and the seed's ``first_dealer`` if no dealer is given."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        dealer = first_dealer(n_players, seed) if dealer is None else dealer
        return cls(deal(n_players, seed, dealer, trumps, strict), seed=seed, dealer=dealer)

    @classmethod
    def from_tpn(cls, tpn: str, moves: Iterable[Move | str] = (), strict: bool = False) -> Game:
        """A game from a position (no deal history), with ``moves`` played validated."""
        game = cls(State.from_tpn(tpn, strict))
        for move in moves:
            game.play(move)
        return game

    def clone(self) -> Game:
        new = Game.__new__(Game)
        new.start = self.start.clone()
        new.seed = self.seed
        new.dealer = self.dealer
        new.state = self.state.clone()
        new._codes = self._codes[:]
        new._moves = self._moves[:]
        new._undos = self._undos[:]
        new._keys = self._keys[:]
        new._seen = self._seen.copy()
        new._ended = self._ended
        return new

    # --- reading ----------------------------------------------------------------------

    @property
    def n_players(self) -> int:
        return self.state.n_players

    @property
    def strict(self) -> bool:
        return self.state.strict

    @property
    def moves(self) -> list[Move]:
        """The moves played, in order (lone cards resolved to LEAD or BEAT)."""
        return self._moves[:]

    @property
    def move_codes(self) -> list[int]:
        return self._codes[:]

    @property
    def ply(self) -> int:
        """The number of moves played."""
        return len(self._codes)

    def position_at(self, ply: int) -> State:
        """The position after the first ``ply`` moves (0 = the start), for replays."""
        if not 0 <= ply <= len(self._codes):
            raise IndexError(f"ply {ply} is not in 0..{len(self._codes)}")
        state = self.start.clone()
        for code in self._codes[:ply]:
            state.apply_code(code)
        return state

    def movers(self) -> list[int]:
        """The seat that played each move, in order."""
        state = self.start.clone()
        movers = []
        for code in self._codes:
            movers.append(state.to_move)
            state.apply_code(code)
        return movers

    def position_keys(self) -> list[PositionKey]:
        """``State.key()`` of every position the game has been in, in order: the start
        first, the current position last (what repetition counts)."""
        return self._keys[:]

    def repetitions(self) -> int:
        """How many times the current position has occurred, this time included."""
        return self._seen[self.state.key()]

    def observation(self, seat: int) -> Observation:
        return Observation.of_state(self.state, seat)

    # --- the end ----------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        if self._ended is not None:
            return self._ended
        ended = self.state.outcome()
        if ended is not None:
            return ended
        if self._seen[self.state.key()] >= 3:
            return Outcome.drawn(Termination.REPETITION, self.n_players, list(self.state.out))
        if len(self._codes) >= MOVE_LIMIT:
            return Outcome.drawn(Termination.MOVE_LIMIT, self.n_players, list(self.state.out))
        return None

    def is_over(self) -> bool:
        return self.outcome() is not None

    def _end_by(self, termination: Termination, seat: int) -> None:
        if self.is_over():
            raise ValueError(f"the game is already over, cannot record a {termination.value}")
        if not 0 <= seat < self.n_players:
            raise ValueError(f"seat {seat} is not at this table of {self.n_players}")
        if seat in self.state.out:
            raise ValueError(f"seat {seat} has gone out and can no longer lose")
        self._ended = Outcome.lost_by(termination, self.n_players, list(self.state.out), seat)

    def resign(self, seat: int) -> None:
        """``seat`` resigns and loses."""
        self._end_by(Termination.RESIGNATION, seat)

    def timeout(self, seat: int) -> None:
        """``seat`` ran out of time on the clock and loses."""
        self._end_by(Termination.TIMEOUT, seat)

    def agree_draw(self) -> None:
        """End the game drawn because the players agreed to (nobody loses; those out keep
        their places)."""
        if self.is_over():
            raise ValueError("the game is already over, cannot agree a draw")
        self._ended = Outcome.drawn(Termination.AGREEMENT, self.n_players, list(self.state.out))

    def abort(self) -> None:
        """End the game without a result."""
        if self.is_over():
            raise ValueError("the game is already over, cannot abort it")
        self._ended = Outcome.aborted(self.n_players)

    # --- playing ----------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        return [] if self.is_over() else self.state.legal_moves()

    def play(self, move: Move | str) -> Move:
        """Play a move after checking it (IllegalMoveError / InvalidNotationError if not);
        returns it with its kind resolved."""
        code = parse_move_code(move) if isinstance(move, str) else move.code
        outcome = self.outcome()
        if outcome is not None:
            raise IllegalMoveError(format_move_code(code),
                                   f"the game is over ({outcome.termination.value})")
        resolved = Move.from_code(code, bool(self.state.pile_codes))
        self._undos.append(self.state.apply(resolved))
        self._codes.append(code)
        self._moves.append(resolved)
        key = self.state.key()
        self._keys.append(key)
        self._seen[key] += 1
        return resolved

    def undo(self) -> Move:
        """Take back the last move and return it (python-chess's ``pop``). Raises
        IndexError if no move was played, and ValueError once the game was resigned, lost
        on time or aborted (those ends are not the position's, and came after the move)."""
        if self._ended is not None:
            raise ValueError(f"the game has ended ({self._ended.termination.value}): "
                             "no move can be taken back")
        if not self._codes:
            raise IndexError("no move has been played: there is nothing to undo")
        key = self._keys.pop()
        self._seen[key] -= 1
        if not self._seen[key]:
            del self._seen[key]
        self.state.undo(self._undos.pop())
        self._codes.pop()
        return self._moves.pop()
