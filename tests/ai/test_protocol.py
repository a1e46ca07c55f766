"""``python -m games.ai`` speaks the engine protocol of docs/interfaces.md (in a subprocess)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.ai.solver import solve
from games.rules.game import Game
from games.rules.observation import Observation
from games.rules.state import State

ROOT = Path(__file__).resolve().parents[2]
DEAL = "SH 7C8CTCJCAC6D9DTD8HTHJHKH6S7S8S9STSQS/6C9CQCKC7D8DJDQDKDAD6H7H9HQHAHJSKSAS - 0 -"


class EngineProcess:
    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "games.ai"], cwd=ROOT, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline().rstrip("\n")

    def ask(self, line: str) -> str:
        self.send(line)
        return self.read()

    def bestmove(self, movetime_ms: int) -> tuple[str, float, list[str]]:
        began = time.monotonic()
        self.send(f"go movetime {movetime_ms}")
        infos = []
        while True:
            line = self.read()
            if not line.startswith("info"):
                break
            infos.append(line)
        assert line.startswith("bestmove "), line
        return line.split()[1], time.monotonic() - began, infos


@pytest.fixture
def engine() -> Iterator[EngineProcess]:
    process = EngineProcess()
    assert process.ask("isready") == "readyok"
    yield process
    process.send("quit")
    assert process.process.wait(timeout=10) == 0


def test_bestmove_is_legal_and_in_time(engine: EngineProcess) -> None:
    engine.send(f"position {DEAL}")
    move, seconds, infos = engine.bestmove(500)
    assert State.from_tpn(DEAL).is_legal(move)
    assert seconds < 0.5 + 0.3
    assert all(i.startswith("info ") for i in infos)


def test_moves_after_the_position_are_played(engine: EngineProcess) -> None:
    engine.send(f"position {DEAL} moves 7C 9C-6C")
    move, _, _ = engine.bestmove(200)
    assert Game.from_tpn(DEAL, ["7C", "9C-6C"]).state.is_legal(move)


def test_every_level_answers(engine: EngineProcess) -> None:
    for level in range(1, 5):
        engine.send(f"setoption level {level}")
        engine.send("position SH 7C9HAS/KD6HTH 8S 1 -")
        move, _, _ = engine.bestmove(200)
        assert move in {"6H-KD", "6H-TH", "TH-KD", "TH-6H", "+1"}


def test_malformed_input_gets_one_error_line_and_the_engine_keeps_running(
        engine: EngineProcess) -> None:
    for bad in ("frobnicate", "setoption level 0", "setoption level x", "setoption colour red",
                "position SH 7C9HAS/KD6HTH", "position XX 7C9HAS/KD6HTH 8S 1 -",
                "position SH 7C9HAS/KD6HTH 8S 1 - moves QS-7D", "go movetime soon"):
        assert engine.ask(bad).startswith("error "), bad
    assert engine.ask("isready") == "readyok"


def test_go_without_a_position_is_an_error(engine: EngineProcess) -> None:
    assert engine.ask("go movetime 100").startswith("error ")


def test_observations_with_hidden_cards_are_accepted(engine: EngineProcess) -> None:
    tpn = "SHD 7C9HAS/?3/?4 - 0 -"
    engine.send(f"position {tpn}")
    move, _, _ = engine.bestmove(300)
    assert move in {"7C", "9H", "AS"}
    assert Observation.from_tpn(tpn).hidden == (0, 3, 4)


def test_a_won_endgame_is_converted(engine: EngineProcess) -> None:
    tpn = "SH 7C9HAS/KD6HTH 8S 1 -"
    engine.send(f"position {tpn}")
    move, _, infos = engine.bestmove(500)
    assert any("solved value 1" in i for i in infos)
    assert move in solve(State.from_tpn(tpn), all_moves=True).moves_text()
