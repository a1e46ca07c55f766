"""A puzzle's line as a player plays it: which of their moves are right, the defender's
replies, the end. Stateless: the position follows from the puzzle and the player's moves so
far, so a request sent twice gets the same answer and the browser holds nothing but them.

A step accepts every move the solver proved winning, interchangeable cards included
(``games.ai.puzzles.equivalence``); the stored line goes on from the move it shows. When the
player chose another of the accepted moves, the cards it swapped are swapped through the rest
of the line: the two lines differ only by cards no other card in play separates. The one case
where that cannot hold (one of those cards beating the other later in the line: the swapped
move is not legal) ends the puzzle as solved at the player's last move, proven winning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from games.rules import InvalidNotationError, State
from games.rules.cards import CARD_NAMES
from games.rules.moves import BEAT_BASE, TAKE_BASE, format_move_code, parse_move_code

Outcome = Literal["playing", "solved", "failed"]


class PuzzleMoveError(ValueError):
    """A move the puzzle cannot take (bad notation, not legal there, after the end)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code


@dataclass(frozen=True, slots=True)
class Ply:
    """One move on the board: who made it, the move, the cards a take took, and the
    position after it."""

    seat: int
    move: str
    taken: tuple[str, ...]
    state: State


@dataclass(frozen=True, slots=True)
class Progress:
    start: State
    player: int
    plies: tuple[Ply, ...]
    """Every move on the board, the player's and the defender's (after a wrong move: the
    right one instead of it)."""
    outcome: Outcome
    new_from: int
    """The first ply the last of the player's moves brought."""
    wrong: str | None = None
    """The player's wrong move (the puzzle is failed)."""
    correct: str | None = None
    """What was right instead of it."""


def _cards(code: int) -> tuple[int, ...]:
    if code < BEAT_BASE:
        return (code,)
    if code < TAKE_BASE:
        return divmod(code - BEAT_BASE, 36)
    return ()


def _mapped(code: int, cards: list[int]) -> int:
    """The move with every card replaced by its image."""
    if code < BEAT_BASE:
        return cards[code]
    if code < TAKE_BASE:
        beater, second = divmod(code - BEAT_BASE, 36)
        return BEAT_BASE + 36 * cards[beater] + cards[second]
    return code


def _swapped(cards: list[int], shown: int, played: int) -> list[int]:
    """The card images after the player played ``played`` where the line (as the images
    make it) has ``shown``: the cards of one move sent to those of the other, the rest of
    both moves' cards to each other, so that the images stay a permutation."""
    sources, targets = _cards(shown), _cards(played)
    swap = dict(zip(sources, targets, strict=True))
    for source, target in zip(sorted(set(targets) - set(sources)),
                              sorted(set(sources) - set(targets)), strict=True):
        swap[source] = target
    return [swap.get(card, card) for card in cards]


def _play(state: State, code: int, plies: list[Ply]) -> None:
    seat = state.to_move
    pile = state.pile_codes
    taken = pile[len(pile) - (code - TAKE_BASE):] if code >= TAKE_BASE else ()
    state.apply_code(code)
    plies.append(Ply(seat, format_move_code(code), tuple(CARD_NAMES[c] for c in taken),
                     state.clone()))


def _code(text: str, state: State) -> int:
    try:
        code = parse_move_code(text)
    except InvalidNotationError as error:
        raise PuzzleMoveError("bad_move", str(error)) from None
    reason = state.illegal_reason(code)
    if reason is not None:
        raise PuzzleMoveError("illegal_move", reason)
    return code


def puzzle_follow(*, tpn: str, solution: list[dict[str, Any]], moves: list[str]) -> Progress:
    """The puzzle after the player's ``moves`` (their own moves only, in order). Raises
    ``PuzzleMoveError`` for a move that is no move, not legal there, or after the end."""
    state = State.from_tpn(tpn)
    start = state.clone()
    player = state.to_move
    cards = list(range(36))
    plies: list[Ply] = []
    outcome: Outcome = "playing"
    new_from = 0
    step = 0
    for index, text in enumerate(moves):
        if outcome != "playing":
            raise PuzzleMoveError("puzzle_over", "the puzzle is over")
        code = _code(text, state)
        new_from = len(plies)
        wanted = solution[step]
        shown = _mapped(parse_move_code(str(wanted["move"])), cards)
        accepted = {_mapped(parse_move_code(str(move)), cards) for move in wanted["accepted"]}
        if code not in accepted:
            if index + 1 < len(moves):
                raise PuzzleMoveError("puzzle_over", "the puzzle is over")
            _play(state, shown, plies)
            return Progress(start, player, tuple(plies), "failed", new_from,
                            wrong=format_move_code(code), correct=format_move_code(shown))
        cards = _swapped(cards, shown, code)
        _play(state, code, plies)
        step += 1
        if step >= len(solution) or state.is_over():
            outcome = "solved"
            continue
        reply = _mapped(parse_move_code(str(solution[step]["move"])), cards)
        if state.illegal_reason(reply) is not None:
            outcome = "solved"
            continue
        _play(state, reply, plies)
        step += 1
        if step >= len(solution) or state.is_over() or not any(
                state.illegal_reason(_mapped(parse_move_code(str(move)), cards)) is None
                for move in solution[step]["accepted"]):
            outcome = "solved"
    return Progress(start, player, tuple(plies), outcome, new_from)


def puzzle_line(*, tpn: str, solution: list[dict[str, Any]]) -> Progress:
    """The whole solution as it is stored, played from the start."""
    return puzzle_follow(tpn=tpn, solution=solution,
                         moves=[str(step["move"]) for step in solution if step["player"]])
