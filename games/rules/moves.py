"""Moves as small immutable values, their notation and their integer codes.

Public names: ``MoveKind``, ``Move``, ``Piled``.

Notation (docs/rules.md): a lead ``9H``; a beat then second card ``QH-7D``; a beat with one's
last card ``QH``; a take ``+3``. A lone card reads the same whether it is a lead or a beat
with the last card: only the pile tells them apart. So ``Move.parse("QH")`` gives a LEAD
unless a state is passed, and moves compare equal by their notation (``card``, ``second``
and ``count``), so ``Move.parse("QH") in state.legal_moves()`` holds either way and a
state accepts either kind for a lone card.

Search code uses integer move codes (``move.code``, ``State.legal_move_codes()``):
a lone card is its card code 0..35, a beat ``36 + 36 * beater + second``, a take
``TAKE_BASE + count``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Final, Protocol

from games.rules.cards import ALL_CARDS, CARD_NAMES, Card, parse_card_code
from games.rules.errors import InvalidNotationError
from games.rules.numerals import plain_decimal

BEAT_BASE: Final = 36
TAKE_BASE: Final = 1400


class Piled(Protocol):
    """What ``Move.parse`` reads of a position (a ``State`` or an ``Observation``): its pile.
    A protocol, so that this module depends on neither (they import it)."""

    @property
    def pile_codes(self) -> tuple[int, ...]: ...


class MoveKind(enum.Enum):
    LEAD = "lead"
    BEAT = "beat"
    TAKE = "take"


@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """A move. Build with ``Move.lead``, ``Move.beat``, ``Move.take`` or ``Move.parse``.

    ``card`` is the led card or the beater, ``second`` the card played on the beater (None
    when beating with the last card), ``count`` the number of cards taken (0 otherwise).
    """

    kind: MoveKind
    card: Card | None = None
    second: Card | None = None
    count: int = 0
    _code: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind is MoveKind.TAKE:
            if self.card is not None or self.second is not None or not 1 <= self.count <= 36:
                raise ValueError("a take has no cards and a count of 1..36")
            code = TAKE_BASE + self.count
        elif self.card is None or self.count:
            raise ValueError(f"a {self.kind.value} needs a card and no count")
        elif self.second is None:
            code = self.card.code
        elif self.kind is MoveKind.LEAD:
            raise ValueError("a lead is a single card")
        elif self.second == self.card:
            raise ValueError("the second card must differ from the beater")
        else:
            code = BEAT_BASE + 36 * self.card.code + self.second.code
        object.__setattr__(self, "_code", code)

    @classmethod
    def lead(cls, card: Card) -> Move:
        return cls(MoveKind.LEAD, card)

    @classmethod
    def beat(cls, card: Card, second: Card | None = None) -> Move:
        return cls(MoveKind.BEAT, card, second)

    @classmethod
    def take(cls, count: int) -> Move:
        return cls(MoveKind.TAKE, count=count)

    @classmethod
    def parse(cls, text: str, state: Piled | None = None) -> Move:
        """Parse move notation; with ``state``, a lone card is a LEAD only on an empty pile.

        Only syntax is checked here, not legality (see ``State.is_legal``).
        """
        return cls.from_code(parse_move_code(text), state is not None and bool(state.pile_codes))

    @classmethod
    def from_code(cls, code: int, pile_nonempty: bool = False) -> Move:
        """The move of an integer code; a lone card is a BEAT if the pile is not empty."""
        if 0 <= code < BEAT_BASE:
            return (_LAST_CARD_BEATS if pile_nonempty else _LEADS)[code]
        move = _BY_CODE.get(code)
        if move is None:
            raise ValueError(f"{code} is not a move code")
        return move

    @property
    def code(self) -> int:
        return self._code

    def __str__(self) -> str:
        return format_move_code(self.code)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (self.card, self.second, self.count) == (other.card, other.second, other.count)

    def __hash__(self) -> int:
        return hash((self.card, self.second, self.count))


# Moves are immutable, so each exists once: from_code (and so legal_moves) only looks up.
_LEADS: Final = tuple(Move(MoveKind.LEAD, card) for card in ALL_CARDS)
_LAST_CARD_BEATS: Final = tuple(Move(MoveKind.BEAT, card) for card in ALL_CARDS)
_BY_CODE: Final = {
    move.code: move
    for move in (
        *(Move(MoveKind.BEAT, b, x) for b in ALL_CARDS for x in ALL_CARDS if b != x),
        *(Move(MoveKind.TAKE, count=n) for n in range(1, 37)),
    )
}


def format_move_code(code: int) -> str:
    """Canonical notation of a move code."""
    if code < BEAT_BASE:
        return CARD_NAMES[code]
    if code < TAKE_BASE:
        beater, second = divmod(code - BEAT_BASE, 36)
        return f"{CARD_NAMES[beater]}-{CARD_NAMES[second]}"
    return f"+{code - TAKE_BASE}"


def parse_move_code(text: str) -> int:
    """The code of a move written in notation; raises InvalidNotationError naming the fault."""
    try:
        if text.startswith("+"):
            digits = text[1:]
            count = plain_decimal(digits, max_digits=2)
            if not count:
                raise InvalidNotationError("a take is '+' and a count 1..36 without leading 0")
            if not 1 <= count <= 36:
                raise InvalidNotationError(f"cannot take {count} cards (1..36)")
            return TAKE_BASE + count
        if len(text) == 2:
            return parse_card_code(text)
        if len(text) == 5 and text[2] == "-":
            beater, second = parse_card_code(text[:2]), parse_card_code(text[3:])
            if beater == second:
                raise InvalidNotationError("the second card must differ from the beater")
            return BEAT_BASE + 36 * beater + second
        raise InvalidNotationError("expected a card (9H), beater-second (QH-7D) or a take (+3)")
    except InvalidNotationError as error:
        raise InvalidNotationError(f"invalid move {text!r}: {error}") from None
