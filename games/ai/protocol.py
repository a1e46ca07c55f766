"""The engine protocol of docs/interfaces.md on a pair of text streams (``python -m games.ai``).

Public names: ``Engine``, ``run``.

Commands: ``isready``; ``setoption level N``; ``position TPN [moves M1 M2 ...]``; ``go
[movetime MS]``; ``quit``. Anything malformed gets one line ``error <what>`` and the engine
keeps running. Positions of 3-4 players may be observations with ``?N`` hands; moves after
one are followed from the observer's view (``Observation.play``).
"""

from __future__ import annotations

import random
import time
from typing import TextIO

from games.ai.levels import STRONGEST, choose_code, level_budget
from games.rules.errors import IllegalMoveError, InvalidNotationError
from games.rules.game import Game
from games.rules.moves import format_move_code
from games.rules.observation import Observation

MARGIN = 0.05
"""Seconds kept back from ``movetime`` for the reply to travel (process and pipe costs)."""


class Engine:
    def __init__(self, out: TextIO, rng: random.Random | None = None) -> None:
        self.out = out
        self.level = STRONGEST
        self.position: Game | Observation | None = None
        self.rng = rng if rng is not None else random.Random()

    def say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def handle(self, line: str) -> bool:
        """Run one command; False once the engine should exit."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        try:
            if command == "quit":
                return False
            if command == "isready":
                self.say("readyok")
            elif command == "setoption":
                self._setoption(args)
            elif command == "position":
                self._position(args)
            elif command == "go":
                self._go(args)
            else:
                self.say(f"error unknown command {command!r}")
        except (InvalidNotationError, IllegalMoveError, ValueError) as error:
            self.say(f"error {' '.join(str(error).split())}")
        return True

    def _setoption(self, args: list[str]) -> None:
        if len(args) != 2 or args[0] != "level" or not args[1].isdigit():
            raise ValueError("expected: setoption level N")
        level = int(args[1])
        level_budget(level)  # checks the range
        self.level = level

    def _position(self, args: list[str]) -> None:
        if "moves" in args:
            cut = args.index("moves")
            tpn_words, moves = args[:cut], args[cut + 1:]
        else:
            tpn_words, moves = args, []
        if len(tpn_words) != 5:
            raise ValueError("expected: position TPN [moves M1 M2 ...] (a TPN has 5 fields)")
        tpn = " ".join(tpn_words)
        position: Game | Observation
        if "?" in tpn:
            observation = Observation.from_tpn(tpn)
            for move in moves:
                observation = observation.play(move)
            position = observation
        else:
            position = Game.from_tpn(tpn, moves)
            if position.is_over():
                self.position = None
                raise ValueError("the game is over: there is no move to choose")
        self.position = position

    def _go(self, args: list[str]) -> None:
        began = time.monotonic()
        if self.position is None:
            raise ValueError("no position: send 'position TPN' first")
        if args and (len(args) != 2 or args[0] != "movetime" or not args[1].isdigit()):
            raise ValueError("expected: go movetime MS")
        position = self.position
        budget = int(args[1]) / 1000 if args else level_budget(self.level, position.n_players)
        if isinstance(position, Observation):
            if position.seat != position.to_move:
                raise ValueError(f"the observation is seat {position.seat}'s but seat "
                                 f"{position.to_move} is to move")
            if len(position.out) >= position.n_players - 1:
                raise ValueError("the game is over: there is no move to choose")
        seconds = max(0.0, min(budget, budget - MARGIN - (time.monotonic() - began)))
        code = choose_code(position, self.level, movetime=seconds, rng=self.rng,
                           info=self.say)
        self.say(f"bestmove {format_move_code(code)}")


def run(stdin: TextIO, stdout: TextIO) -> None:
    engine = Engine(stdout)
    for line in stdin:
        if not engine.handle(line):
            break
