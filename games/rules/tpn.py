"""Position notation (TPN) of docs/rules.md: parsing with checks, and canonical formatting.

Public names: ``parse_position``, ``format_position``, ``ParsedPosition``.

``<trumps> <hands> <pile> <to-move> <out>``, e.g.
``SH 7C9HAS/KD6HTH 8S 1 -``. The same grammar, with ``?N`` allowed at the end of a hand
for N cards the observer cannot know (``9HQS?5``, ``?9``), is the observation form of
docs/rules.md (which the AI engine takes, docs/interfaces.md); ``State`` and ``Observation``
both build on this module.

A position is accepted only if it could stand in a game: 2..4 distinct trump suits, no
card twice, a seat is listed as out exactly when its hand is empty, someone holds cards,
and the seat to move is not out. Cards missing from the position are allowed (test
positions such as ``SH 8S9C/6H - 0 -`` use a few cards only).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.rules.cards import SUIT_LETTERS, format_mask, mask_of, parse_card_codes
from games.rules.errors import InvalidNotationError
from games.rules.numerals import plain_decimal


@dataclass(slots=True)
class ParsedPosition:
    trumps: list[int]
    hands: list[int]
    """Per seat, the mask of the cards written out (all of them in a full TPN)."""
    hidden: list[int]
    """Per seat, the ``?N`` count of cards not written out (0 in a full TPN)."""
    pile: list[int]
    to_move: int
    out: list[int]


def _fail(kind: str, message: str) -> InvalidNotationError:
    return InvalidNotationError(f"invalid {kind}: {message}")


def _parse_trumps(field: str, kind: str) -> list[int]:
    if not 2 <= len(field) <= 4:
        raise _fail(kind, f"trumps {field!r} must be 2 to 4 suit letters, one per seat")
    trumps = []
    for letter in field:
        if letter not in SUIT_LETTERS:
            raise _fail(kind, f"trumps {field!r}: {letter!r} is not a suit ({SUIT_LETTERS})")
        trumps.append(SUIT_LETTERS.index(letter))
    if len(set(trumps)) != len(trumps):
        raise _fail(kind, f"trumps {field!r}: two seats share a trump suit")
    return trumps


def _parse_hand(text: str, seat: int, allow_hidden: bool, kind: str) -> tuple[list[int], int]:
    if text == "-":
        return [], 0
    hidden = 0
    if "?" in text:
        if not allow_hidden:
            raise _fail(kind, f"seat {seat}'s hand {text!r}: '?' is only for observations")
        text, _, digits = text.partition("?")
        count = plain_decimal(digits, max_digits=2)
        if not count:
            raise _fail(kind, f"seat {seat}'s hand: '?' must end the hand with a count 1..36")
        hidden = count
        if hidden > 36:
            raise _fail(kind, f"seat {seat}'s hand: ?{hidden} is more than 36 cards")
    if not text and not hidden:
        raise _fail(kind, f"seat {seat}'s hand is blank: write '-' for an empty hand")
    try:
        return parse_card_codes(text), hidden
    except InvalidNotationError as error:
        raise _fail(kind, f"seat {seat}'s hand: {error}") from None


def _parse_seat(text: str, n: int, what: str, kind: str) -> int:
    seat = plain_decimal(text, max_digits=1)
    if seat is None or seat >= n:
        raise _fail(kind, f"{what} {text!r} is not a seat 0..{n - 1}")
    return seat


def _lowest_code(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _holder(hands: list[int], code: int) -> str:
    """Which of the hands read holds the card `code` (for an error's words)."""
    seat = next(seat for seat, mask in enumerate(hands) if mask >> code & 1)
    return f"seat {seat}'s hand"


def parse_position(text: str, allow_hidden: bool = False) -> ParsedPosition:
    """Parse and check a TPN (or, with ``allow_hidden``, an observation TPN)."""
    kind = "observation" if allow_hidden else "TPN"
    fields = text.strip().split(" ")
    if len(fields) != 5:
        raise _fail(
            kind,
            f"expected 5 fields separated by single spaces (trumps hands pile to-move out), "
            f"got {len(fields)} in {text.strip()!r}",
        )
    trumps_f, hands_f, pile_f, to_move_f, out_f = fields
    trumps = _parse_trumps(trumps_f, kind)
    n = len(trumps)
    hand_texts = hands_f.split("/")
    if len(hand_texts) != n:
        raise _fail(kind, f"{len(hand_texts)} hands for {n} trump suits (one hand per seat)")
    hands: list[int] = []
    hidden: list[int] = []
    held = 0  # every card of the hands read so far
    for seat, hand_text in enumerate(hand_texts):
        codes, count = _parse_hand(hand_text, seat, allow_hidden, kind)
        mask = mask_of(codes)
        if mask & held:
            code = _lowest_code(mask & held)
            raise _fail(kind, f"{format_mask(1 << code)} is both in {_holder(hands, code)} and "
                        f"in seat {seat}'s hand")
        held |= mask
        hands.append(mask)
        hidden.append(count)
    if pile_f == "-":
        pile: list[int] = []
    else:
        try:
            pile = parse_card_codes(pile_f)
        except InvalidNotationError as error:
            raise _fail(kind, f"pile: {error}") from None
        for code in pile:
            if held >> code & 1:
                raise _fail(kind, f"{format_mask(1 << code)} is both in {_holder(hands, code)} "
                            "and in the pile")
    to_move = _parse_seat(to_move_f, n, "to-move", kind)
    out: list[int] = []
    if out_f != "-":
        for char in out_f:
            seat = _parse_seat(char, n, "out seat", kind)
            if seat in out:
                raise _fail(kind, f"seat {seat} is listed as out twice")
            out.append(seat)
    if sum(hidden) + sum(h.bit_count() for h in hands) + len(pile) > 36:
        raise _fail(kind, "more than 36 cards in the position")
    for seat in range(n):
        empty = hands[seat] == 0 and hidden[seat] == 0
        if empty and seat not in out:
            raise _fail(kind, f"seat {seat} has no cards but is not listed as out")
        if not empty and seat in out:
            raise _fail(kind, f"seat {seat} is listed as out but holds cards")
    if len(out) == n:
        raise _fail(kind, "every seat is out: somebody must hold cards")
    if to_move in out:
        raise _fail(kind, f"seat {to_move} is to move but has gone out")
    return ParsedPosition(trumps, hands, hidden, pile, to_move, out)


def format_position(
    trumps: list[int],
    hands: list[int],
    hidden: list[int] | None,
    pile: list[int],
    to_move: int,
    out: list[int],
) -> str:
    """The canonical TPN: hands sorted by suit then rank, ``?N`` last, ``-`` for empty."""
    hand_texts = []
    for seat, mask in enumerate(hands):
        count = hidden[seat] if hidden else 0
        if count:
            hand_texts.append((format_mask(mask) if mask else "") + f"?{count}")
        else:
            hand_texts.append(format_mask(mask))
    pile_text = "".join(format_mask(1 << c) for c in pile) or "-"
    return " ".join(
        (
            "".join(SUIT_LETTERS[t] for t in trumps),
            "/".join(hand_texts),
            pile_text,
            str(to_move),
            "".join(str(s) for s in out) or "-",
        )
    )
