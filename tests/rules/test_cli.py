"""The command line of docs/interfaces.md: ``python -m games.rules``."""

from __future__ import annotations

import io
import select
import subprocess
import sys
from pathlib import Path

import pytest

from games.rules.cli import main

ROOT = Path(__file__).resolve().parents[2]
OPENING = "SH 7C8CTCJCAC6D9DTD8HTHJHKH6S7S8S9STSQS/6C9CQCKC7D8DJDQDKDAD6H7H9HQHAHJSKSAS - 0 -"
POSITION = "SH 7C9HAS/KD6HTH 8S 1 -"


def run(*args: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(args), stdout=out, stderr=err, stdin=io.StringIO(stdin))
    return status, out.getvalue(), err.getvalue()


def run_process(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "games.rules", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=60, check=False)


def test_moves_prints_the_legal_moves_on_one_line() -> None:
    status, out, err = run("moves", POSITION)
    assert (status, err) == (0, "")
    assert set(out.split()) == {"6H-KD", "6H-TH", "TH-KD", "TH-6H", "+1"}
    assert out.count("\n") == 1


def test_moves_strict() -> None:
    assert set(run("moves", "--strict", POSITION)[1].split()) == {"6H-KD", "6H-TH", "TH-KD",
                                                                  "TH-6H"}


def test_moves_prints_an_empty_line_at_a_finished_position() -> None:
    assert run("moves", "SH -/JC 9C 1 0") == (0, "\n", "")


def test_a_tpn_may_also_be_given_as_five_arguments() -> None:
    assert run("moves", *POSITION.split()) == run("moves", POSITION)


def test_moves_from_standard_input_one_line_per_line() -> None:
    status, out, _ = run("moves", "-", stdin=f"{POSITION}\nSH -/JC 9C 1 0\nSH 8S9C/6H - 0 -\n")
    assert status == 0
    assert out.split("\n") == ["6H-KD 6H-TH TH-KD TH-6H +1", "", "9C 8S", ""]


def test_moves_from_standard_input_is_flushed_line_by_line() -> None:
    process = subprocess.Popen([sys.executable, "-m", "games.rules", "moves", "-"], cwd=ROOT,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdin is not None
    assert process.stdout is not None
    try:
        process.stdin.write("SH 8S9C/6H - 0 -\n")
        process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], 30)
        assert ready, "no answer before the input was closed"
        assert process.stdout.readline() == "9C 8S\n"
    finally:
        process.stdin.close()
        process.wait(timeout=30)
    assert process.returncode == 0


def test_perft() -> None:
    assert run("perft", OPENING, "3") == (0, "199289\n", "")
    assert run("perft", "--strict", OPENING, "2") == (0, "2023\n", "")
    assert run("perft", POSITION, "0") == (0, "1\n", "")


def test_play_prints_the_canonical_tpn_after_the_moves() -> None:
    assert run("play", POSITION, "6H-KD", "AS-7C") == (0, "SH 9H/TH 8S6HKDAS7C 1 -\n", "")
    assert run("play", "SH AS9H7C/THKD6H 8S 1 -") == (0, POSITION + "\n", "")


def test_result() -> None:
    assert run("result", POSITION)[1] == "ongoing\n"
    assert run("result", "SH -/JC 9C 1 0")[1] == "draw\n"
    assert run("result", "SH -/7C 9C 1 0")[1] == "loser 1\n"


def test_an_illegal_move_exits_2_with_one_line_naming_it_and_prints_nothing() -> None:
    completed = run_process("play", "HS 7C9HQS/KD6HTH KH 0 -", "QS-7D")
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr == "illegal move QS-7D: QS does not beat KH\n"


def test_a_later_illegal_move_still_prints_nothing() -> None:
    assert run("play", POSITION, "6H-KD", "+1") == (
        2, "", "illegal move +1: the rules give +3 here\n")


@pytest.mark.parametrize(
    ("args", "fault"),
    [
        (("moves", "SH 7C9HAS/KD6HTH 8S 1"), "invalid TPN: expected 5 fields"),
        (("moves", "SH 7C9HAS/KD6HTH 8S 3 -"), "invalid TPN: to-move '3' is not a seat"),
        (("play", POSITION, "6H-"), "invalid move '6H-'"),
        (("result", "SH 7C/7C - 0 -"), "invalid TPN: 7C is both in"),
        (("perft", POSITION, "x"), "perft: DEPTH must be a whole number"),
        (("perft", POSITION), "perft: expected TPN DEPTH"),
        (("perft", POSITION, "-1"), "perft: DEPTH must be a whole number"),
        (("moves", "--fast", POSITION), "moves: unknown option --fast"),
        (("moves",), "moves: missing the TPN"),
        (("moves", POSITION, "extra"), "moves: unexpected argument 'extra'"),
        (("result", "--strict", POSITION), "result: unknown option --strict"),
        (("bench", "--seconds"), "bench: expected [--seconds S]"),
        (("bench", "--seconds", "abc"), "bench: --seconds needs a number"),
        (("bench", "--seconds", "0"), "bench: --seconds must be more than 0"),
        (("bench", "--games", "3"), "bench: expected [--seconds S]"),
        (("fly",), "unknown command 'fly'; usage: python -m games.rules"),
        ((), "usage: python -m games.rules"),
    ],
)
def test_bad_input_exits_2_with_one_line_on_stderr(args: tuple[str, ...], fault: str) -> None:
    status, out, err = run(*args)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    assert err.endswith("\n")
    assert fault in err


def test_a_bad_line_on_standard_input_names_its_line_number() -> None:
    status, out, err = run("moves", "-", stdin=f"{POSITION}\nnonsense\n{POSITION}\n")
    assert status == 2
    assert out == "6H-KD 6H-TH TH-KD TH-6H +1\n"  # the lines before it were answered
    assert err.startswith("line 2: invalid TPN")
    assert err.count("\n") == 1


def test_bench_prints_plies_and_games_per_second() -> None:
    completed = run_process("bench", "--seconds", "0.3")
    assert completed.returncode == 0
    lines = completed.stdout.splitlines()
    assert lines[0].endswith(" plies/s")
    assert lines[1].endswith(" games/s")
    assert float(lines[0].split()[0]) > 0
