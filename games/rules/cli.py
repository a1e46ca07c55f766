"""The command line of docs/interfaces.md: ``python -m games.rules COMMAND ...``.

Public names: ``main``, ``UsageError``.

    moves [--strict] TPN        the legal moves on one line (empty line when finished)
    moves [--strict] -          the same for each TPN line of standard input, flushed
    perft [--strict] TPN DEPTH  the perft count
    play [--strict] TPN MOVE... the canonical TPN after the moves
    result TPN                  ongoing, draw or loser SEAT
    bench [--seconds S]         random playouts from seeded duel deals, timed

A TPN is one argument (quoted), or its five fields as five arguments. Any fault, be it a
malformed TPN, an illegal move or bad arguments, exits with status 2 after one line on
standard error, and nothing on standard output (``moves -`` keeps the lines it printed
before the faulty input line, whose number it names).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from games.rules.bench import bench
from games.rules.errors import InvalidNotationError
from games.rules.moves import format_move_code
from games.rules.perft import perft
from games.rules.state import State

USAGE = ("usage: python -m games.rules {moves [--strict] TPN|-, perft [--strict] TPN DEPTH, "
         "play [--strict] TPN MOVE..., result TPN, bench [--seconds S]}")


class UsageError(Exception):
    """Bad command-line arguments; the message is the one line printed."""


def _take_tpn(args: list[str], command: str) -> str:
    """Remove the TPN from the front of ``args``: one argument, or five unquoted fields."""
    if not args:
        raise UsageError(f"{command}: missing the TPN (quote it, it has spaces)")
    if " " in args[0] or len(args) < 5:
        return args.pop(0)
    tpn = " ".join(args[:5])
    del args[:5]
    return tpn


def _flags(args: list[str], command: str, allowed: Sequence[str]) -> set[str]:
    """Remove leading ``--flags`` from ``args``; unknown ones are usage errors."""
    found: set[str] = set()
    while args and args[0].startswith("--"):
        flag = args.pop(0)
        if flag not in allowed:
            raise UsageError(f"{command}: unknown option {flag}")
        found.add(flag)
    return found


def _no_more(args: list[str], command: str) -> None:
    if args:
        raise UsageError(f"{command}: unexpected argument {args[0]!r}")


def _moves_line(state: State) -> str:
    return " ".join(format_move_code(code) for code in state.legal_move_codes())


def _cmd_moves(args: list[str], out: TextIO, stdin: TextIO) -> None:
    strict = "--strict" in _flags(args, "moves", ["--strict"])
    if args == ["-"]:
        for number, line in enumerate(stdin, 1):
            try:
                state = State.from_tpn(line.rstrip("\r\n"), strict)
            except InvalidNotationError as error:
                raise InvalidNotationError(f"line {number}: {error}") from None
            out.write(_moves_line(state) + "\n")
            out.flush()
        return
    tpn = _take_tpn(args, "moves")
    _no_more(args, "moves")
    out.write(_moves_line(State.from_tpn(tpn, strict)) + "\n")


def _cmd_perft(args: list[str], out: TextIO, stdin: TextIO) -> None:
    strict = "--strict" in _flags(args, "perft", ["--strict"])
    tpn = _take_tpn(args, "perft")
    if len(args) != 1:
        raise UsageError("perft: expected TPN DEPTH")
    depth_text = args.pop()
    if not depth_text.isascii() or not depth_text.isdigit():
        raise UsageError(f"perft: DEPTH must be a whole number 0 or more, not {depth_text!r}")
    out.write(f"{perft(State.from_tpn(tpn, strict), int(depth_text))}\n")


def _cmd_play(args: list[str], out: TextIO, stdin: TextIO) -> None:
    strict = "--strict" in _flags(args, "play", ["--strict"])
    state = State.from_tpn(_take_tpn(args, "play"), strict)
    for move in args:
        state.apply(move)
    out.write(state.tpn() + "\n")


def _cmd_result(args: list[str], out: TextIO, stdin: TextIO) -> None:
    _flags(args, "result", [])  # the result does not depend on the variant
    tpn = _take_tpn(args, "result")
    _no_more(args, "result")
    outcome = State.from_tpn(tpn).outcome()
    out.write(("ongoing" if outcome is None else outcome.result) + "\n")


def _cmd_bench(args: list[str], out: TextIO, stdin: TextIO) -> None:
    seconds = 5.0
    while args:
        flag = args.pop(0)
        if flag != "--seconds" or not args:
            raise UsageError(f"bench: expected [--seconds S], got {flag!r}")
        value = args.pop(0)
        try:
            seconds = float(value)
        except ValueError:
            raise UsageError(f"bench: --seconds needs a number, not {value!r}") from None
        if not 0 < seconds < 1e6:
            raise UsageError(f"bench: --seconds must be more than 0, not {value}")
    result = bench(seconds)
    out.write(f"{result.plies_per_second:.0f} plies/s\n{result.games_per_second:.1f} games/s\n"
              f"({result.plies} plies in {result.games} games, {result.seconds:.2f} s)\n")


COMMANDS: dict[str, Callable[[list[str], TextIO, TextIO], None]] = {
    "moves": _cmd_moves,
    "perft": _cmd_perft,
    "play": _cmd_play,
    "result": _cmd_result,
    "bench": _cmd_bench,
}


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None, stdin: TextIO | None = None) -> int:
    """Run one command; returns the exit status (0, or 2 after one line on stderr)."""
    args = list(sys.argv[1:] if argv is None else argv)
    out, err = stdout or sys.stdout, stderr or sys.stderr
    if not args or args[0] not in COMMANDS:
        err.write((f"unknown command {args[0]!r}; " if args else "") + USAGE + "\n")
        return 2
    command = COMMANDS[args.pop(0)]
    # Buffer the output so that a fault leaves nothing on standard output (moves - streams).
    streaming = args[-1:] == ["-"]
    buffer = io.StringIO()
    target = out if streaming else buffer
    try:
        command(args, target, stdin or sys.stdin)
    except (UsageError, ValueError) as error:
        err.write(f"{error}\n")
        return 2
    out.write(buffer.getvalue())
    out.flush()
    return 0

