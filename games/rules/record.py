"""The game record, our PGN: headers, then the numbered moves; lossless both ways.

Public names: ``GameRecord``, ``RecordError``, ``parse_record``, ``format_record``,
``GAME_HEADERS``.

    [Event "Club evening"]
    [Date "2025.03.14"]
    [Seat0 "alice"]
    [Seat1 "bob"]
    [Variant "standard"]
    [Trumps "SH"]
    [Dealer "1"]
    [Seed "42"]
    [Position "SH 7C8C.../6C9C... - 0 -"]
    [Result "loser 1"]
    [Termination "normal"]

    1. 9H 2. 6H-KD 3. +3 4. ...

Header values are quoted, with ``\\"`` and ``\\\\`` escaped. The game headers
(``GAME_HEADERS``) are written from the game: ``Variant`` (``standard`` or ``strict``),
``Trumps`` and ``Position`` (the start), ``Dealer`` and ``Seed`` when the game was dealt
from a seed (``Game.new``), ``Result`` (``ongoing``, ``draw``, ``loser SEAT``,
``aborted``) and ``Termination`` (a ``Termination`` value, once over). Any other header
(players as ``Seat0``.., ``Event``, ``Date``...) is kept as given, in order. Moves are
numbered by ply, several to a line.

On import the deal is redone from the seed and must match ``Position``; every move is
checked; a resignation, loss on time or abort is re-applied from the headers; and the
result the moves lead to must agree with ``Result`` and ``Termination``. Any fault raises
``RecordError`` (an ``InvalidNotationError``) whose message starts ``line N:`` and whose
``line`` attribute holds N, for the replay page to show.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from games.rules.deal import deal
from games.rules.errors import IllegalMoveError, InvalidNotationError
from games.rules.game import Game
from games.rules.numerals import plain_decimal
from games.rules.outcome import Termination
from games.rules.state import State

GAME_HEADERS: Final = ("Variant", "Trumps", "Dealer", "Seed", "Position", "Result",
                       "Termination")
_HEADER: Final = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]')
_WIDTH: Final = 79
SEED_DIGITS: Final = 30
"""A seed is any integer the deal accepts; more digits than this is not a record of ours."""


class RecordError(InvalidNotationError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


@dataclass
class GameRecord:
    game: Game
    headers: dict[str, str] = field(default_factory=dict)
    """The headers other than ``GAME_HEADERS``, in order (players, event, date...)."""

    @property
    def players(self) -> list[str | None]:
        """Player names by seat, from the ``Seat0``.. headers."""
        return [self.headers.get(f"Seat{seat}") for seat in range(self.game.n_players)]

    def format(self) -> str:
        return format_record(self.game, self.headers)


def _quote(value: str) -> str:
    if "\n" in value or "\r" in value:
        raise ValueError("a record header value must fit on one line")
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def format_record(game: Game, headers: Mapping[str, str] | None = None) -> str:
    """The record of a game, with ``headers`` (players, event...) before the game's own."""
    headers = dict(headers or {})
    clash = [name for name in headers if name in GAME_HEADERS]
    if clash:
        raise ValueError(f"headers {clash} are written from the game itself")
    for name in headers:
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
            raise ValueError(f"{name!r} is not a header name (letters, digits, _)")
    outcome = game.outcome()
    headers["Variant"] = "strict" if game.strict else "standard"
    headers["Trumps"] = "".join(str(s) for s in game.start.trumps)
    if game.dealer is not None:
        headers["Dealer"] = str(game.dealer)
    if game.seed is not None:
        headers["Seed"] = str(game.seed)
    headers["Position"] = game.start.tpn()
    headers["Result"] = "ongoing" if outcome is None else outcome.result
    if outcome is not None:
        headers["Termination"] = outcome.termination.value
    lines = [f"[{name} {_quote(value)}]" for name, value in headers.items()]
    lines.append("")
    line = ""
    for ply, move in enumerate(game.moves, 1):
        token = f"{ply}. {move}"
        if line and len(line) + 1 + len(token) > _WIDTH:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        lines.append(line)
    return "\n".join(lines) + "\n"


def _read_headers(lines: list[str]) -> tuple[dict[str, tuple[str, int]], int]:
    """Headers by name with their line numbers, and the index of the first move line."""
    headers: dict[str, tuple[str, int]] = {}
    index = 0
    while index < len(lines):
        text = lines[index].strip()
        if not text.startswith("["):
            break
        match = _HEADER.fullmatch(text)
        if match is None:
            raise RecordError(index + 1, f'a header must read [Name "value"], got {text!r}')
        name, value = match.group(1), _unquote(match.group(2))
        if name in headers:
            raise RecordError(index + 1, f"header {name} appears twice")
        headers[name] = (value, index + 1)
        index += 1
    return headers, index


def _start_of(headers: dict[str, tuple[str, int]], last_line: int) -> Game:
    variant, variant_line = headers.get("Variant", ("standard", 0))
    if variant not in ("standard", "strict"):
        raise RecordError(variant_line, f"Variant must be standard or strict, not {variant!r}")
    strict = variant == "strict"
    position = headers.get("Position")
    dealer = None
    if "Dealer" in headers:
        text, line = headers["Dealer"]
        dealer = plain_decimal(text, max_digits=1)
        if dealer is None:
            raise RecordError(line, f"Dealer must be a seat number, not {text!r}")
    if "Seed" not in headers:
        if position is None:
            raise RecordError(last_line, "the record needs a Position or a Seed header")
        try:
            start = State.from_tpn(position[0], strict)
        except InvalidNotationError as error:
            raise RecordError(position[1], f"Position: {error}") from None
        game = Game(start, dealer=dealer)
    else:
        seed_text, seed_line = headers["Seed"]
        seed = plain_decimal(seed_text, max_digits=SEED_DIGITS, signed=True)
        if seed is None:
            raise RecordError(seed_line, f"Seed must be an integer of at most {SEED_DIGITS} "
                              f"digits, not {seed_text[:40]!r}")
        if "Trumps" not in headers or dealer is None:
            raise RecordError(seed_line, "a Seed needs the Trumps and Dealer headers too")
        trumps, trumps_line = headers["Trumps"]
        try:
            start = deal(len(trumps), seed, dealer, trumps, strict)
        except ValueError as error:
            raise RecordError(trumps_line, f"cannot deal: {error}") from None
        if position is not None and position[0] != start.tpn():
            raise RecordError(position[1], f"Position does not match the deal of seed "
                              f"{seed_text}, which is {start.tpn()!r}")
        game = Game(start, seed=seed, dealer=dealer)
    if dealer is not None and dealer >= game.n_players:
        raise RecordError(headers["Dealer"][1], f"Dealer {dealer} is not a seat of this table")
    if "Trumps" in headers:
        trumps, line = headers["Trumps"]
        if trumps != "".join(str(s) for s in game.start.trumps):
            raise RecordError(line, f"Trumps {trumps!r} do not match the Position")
    return game


def _play_moves(game: Game, lines: list[str], first: int) -> None:
    expected_number = True
    for index in range(first, len(lines)):
        for token in lines[index].split():
            line = index + 1
            if expected_number:
                wanted = f"{game.ply + 1}."
                if token != wanted:
                    raise RecordError(line, f"expected the move number {wanted}, found {token!r}")
                expected_number = False
                continue
            try:
                game.play(token)
            except (IllegalMoveError, InvalidNotationError) as error:
                raise RecordError(line, f"move {game.ply + 1}: {error}") from None
            expected_number = True
    if not expected_number:
        raise RecordError(len(lines), f"move number {game.ply + 1}. has no move after it")


def _apply_result(game: Game, headers: dict[str, tuple[str, int]], last_line: int) -> None:
    result, result_line = headers.get("Result", ("", last_line))
    termination_text, term_line = headers.get("Termination", ("", result_line))
    termination = None
    if termination_text:
        try:
            termination = Termination(termination_text)
        except ValueError:
            names = ", ".join(t.value for t in Termination)
            raise RecordError(term_line, f"Termination {termination_text!r} is not one of "
                              f"{names}") from None
    if termination in (Termination.RESIGNATION, Termination.TIMEOUT):
        word, _, seat_text = result.partition(" ")
        loser = plain_decimal(seat_text, max_digits=1) if word == "loser" else None
        if loser is None:
            raise RecordError(result_line, f"a {termination_text} needs Result 'loser SEAT'")
        try:
            if termination is Termination.RESIGNATION:
                game.resign(loser)
            else:
                game.timeout(loser)
        except ValueError as error:
            raise RecordError(term_line, str(error)) from None
    elif termination is Termination.ABORTED:
        try:
            game.abort()
        except ValueError as error:
            raise RecordError(term_line, str(error)) from None
    elif termination is Termination.AGREEMENT:
        try:
            game.agree_draw()
        except ValueError as error:
            raise RecordError(term_line, str(error)) from None
    outcome = game.outcome()
    actual = "ongoing" if outcome is None else outcome.result
    if result and result != actual:
        raise RecordError(result_line, f"Result says {result!r} but the moves give {actual!r}")
    actual_termination = "" if outcome is None else outcome.termination.value
    if termination_text and termination_text != actual_termination:
        raise RecordError(term_line, f"Termination says {termination_text!r} but the moves "
                          f"give {actual_termination or 'an unfinished game'!r}")


def parse_record(text: str) -> GameRecord:
    """Read a record back into a game; raises RecordError naming the line and the fault."""
    lines = text.splitlines()
    headers, first_move_line = _read_headers(lines)
    game = _start_of(headers, max(first_move_line, 1))
    _play_moves(game, lines, first_move_line)
    _apply_result(game, headers, max(len(lines), 1))
    extra = {name: value for name, (value, _) in headers.items() if name not in GAME_HEADERS}
    return GameRecord(game, extra)

