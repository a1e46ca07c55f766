"""Suits, ranks and cards as small immutable values, and the integer tables behind them.

Public names: ``Suit``, ``Rank``, ``Card``, ``SUITS``, ``RANKS``, ``ALL_CARDS``,
``parse_cards``, ``format_cards``, ``beats``.

Every card has an integer ``code`` 0..35, ``suit * 9 + rank`` with suits in the order
``C D H S`` and ranks ``6 7 8 9 T J Q K A``. Code order is therefore the canonical output
order of docs/rules.md (by suit, then rank), and a set of cards is an ``int`` bit mask in
which bit ``code`` stands for the card. The engine works on codes and masks; ``Card``
objects are for the API and notation only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from games.rules.errors import InvalidNotationError

SUIT_LETTERS: Final = "CDHS"
RANK_LETTERS: Final = "6789TJQKA"
N_CARDS: Final = 36
FULL_DECK: Final = (1 << N_CARDS) - 1


class Suit(IntEnum):
    """A suit; its value is its index in ``C D H S``."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        if len(text) != 1 or text not in SUIT_LETTERS:
            raise InvalidNotationError(f"{text!r} is not a suit (one of {SUIT_LETTERS})")
        return cls(SUIT_LETTERS.index(text))

    def __str__(self) -> str:
        return self.letter


class Rank(IntEnum):
    """A rank; its value is its index in ``6 7 8 9 T J Q K A`` (higher beats lower)."""

    SIX = 0
    SEVEN = 1
    EIGHT = 2
    NINE = 3
    TEN = 4
    JACK = 5
    QUEEN = 6
    KING = 7
    ACE = 8

    @property
    def letter(self) -> str:
        return RANK_LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        if len(text) != 1 or text not in RANK_LETTERS:
            raise InvalidNotationError(f"{text!r} is not a rank (one of {RANK_LETTERS})")
        return cls(RANK_LETTERS.index(text))

    def __str__(self) -> str:
        return self.letter


SUITS: Final = tuple(Suit)
RANKS: Final = tuple(Rank)


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One of the 36 cards. ``Card.parse("9H")``, ``str(card) == "9H"``, ``card.code``."""

    code: int

    def __post_init__(self) -> None:
        if not 0 <= self.code < N_CARDS:
            raise ValueError(f"card code must be 0..35, got {self.code}")

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        return ALL_CARDS[suit * 9 + rank]

    @classmethod
    def from_code(cls, code: int) -> Card:
        return ALL_CARDS[code]

    @classmethod
    def parse(cls, text: str) -> Card:
        return ALL_CARDS[parse_card_code(text)]

    @property
    def suit(self) -> Suit:
        return SUITS[self.code // 9]

    @property
    def rank(self) -> Rank:
        return RANKS[self.code % 9]

    @property
    def bit(self) -> int:
        return 1 << self.code

    def __str__(self) -> str:
        return CARD_NAMES[self.code]

    def __repr__(self) -> str:
        return f"Card.parse({CARD_NAMES[self.code]!r})"


CARD_NAMES: Final = tuple(r + s for s in SUIT_LETTERS for r in RANK_LETTERS)
ALL_CARDS: Final = tuple(Card(code) for code in range(N_CARDS))
_CODE_OF_NAME: Final = {name: code for code, name in enumerate(CARD_NAMES)}


def parse_card_code(text: str) -> int:
    """The code of a card written rank then suit, e.g. ``"TS"`` -> 31."""
    code = _CODE_OF_NAME.get(text)
    if code is None:
        raise InvalidNotationError(
            f"{text!r} is not a card (a rank of {RANK_LETTERS} then a suit of {SUIT_LETTERS})"
        )
    return code


def parse_card_codes(text: str) -> list[int]:
    """Codes of concatenated cards, in the order written (``"9HQS"`` -> two codes)."""
    if len(text) % 2:
        raise InvalidNotationError(f"{text!r} is not a run of two-letter cards (odd length)")
    try:
        codes = [_CODE_OF_NAME[text[i : i + 2]] for i in range(0, len(text), 2)]
    except KeyError:  # say which card is wrong
        codes = [parse_card_code(text[i : i + 2]) for i in range(0, len(text), 2)]
    if len(set(codes)) != len(codes):
        dup = next(CARD_NAMES[c] for c in codes if codes.count(c) > 1)
        raise InvalidNotationError(f"card {dup} appears twice in {text!r}")
    return codes


def parse_cards(text: str) -> list[Card]:
    """Cards of a concatenated run such as ``"9HQS"``, in the order written."""
    return [ALL_CARDS[c] for c in parse_card_codes(text)]


def format_cards(cards: Iterable[Card]) -> str:
    """Concatenated cards in the order given, ``-`` for none."""
    return "".join(CARD_NAMES[c.code] for c in cards) or "-"


def mask_codes(mask: int) -> Iterator[int]:
    """The card codes in a bit mask, lowest first (the canonical order)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(codes: Iterable[int]) -> int:
    mask = 0
    for code in codes:
        mask |= 1 << code
    return mask


def format_mask(mask: int) -> str:
    """A set of cards in canonical order, ``-`` for none."""
    return "".join(CARD_NAMES[c] for c in mask_codes(mask)) or "-"


SUIT_MASKS: Final = tuple(0x1FF << (9 * s) for s in range(4))


def _beater_mask(trump: int, top: int) -> int:
    """Cards ``b`` that beat ``top`` for a mover whose own trump suit is ``trump``."""
    suit = top // 9
    # Within a suit, a higher rank is a higher code: the suit's bits above ``top``.
    higher = SUIT_MASKS[suit] & ~((1 << (top + 1)) - 1)
    if suit == trump:
        return higher
    return higher | SUIT_MASKS[trump]


# BEATERS[trump][top]: the mask of all cards that beat ``top`` for that mover's trump.
BEATERS: Final = tuple(tuple(_beater_mask(t, top) for top in range(N_CARDS)) for t in range(4))


def beats(beater: Card, top: Card, trump: Suit) -> bool:
    """Whether ``beater`` beats ``top`` for a player whose own trump suit is ``trump``."""
    return bool(BEATERS[trump][top.code] >> beater.code & 1)


def six_of(suit: int) -> int:
    """The code of the six of a suit."""
    return suit * 9


def ace_of(suit: int) -> int:
    """The code of the ace of a suit."""
    return suit * 9 + 8
