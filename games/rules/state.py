"""The position of a game and its rules: legal moves, apply, outcome.

Public names: ``State``.

A ``State`` is a position in the manner of OpenSpiel's state: ``legal_moves()``,
``apply(move)`` (validated, mutates in place), ``apply_unchecked(move)`` and
``apply_code(code)`` (the fast paths for search), ``clone()``, ``outcome()``. It carries
no history: repetition and the move limit belong to ``Game``.

Undo, for search (python-chess's ``push``/``pop``, without a stack inside the state):
every ``apply*`` returns an ``Undo`` token, and ``undo(token)`` takes that move back,
leaving the state exactly as before it (position, TPN and ``known_mask`` alike). Tokens
are opaque and must be undone last applied first; one is cheaper than a ``clone()``.

Representation (for speed): hands are ``int`` bit masks of card codes, the pile a list of
codes bottom to top, trumps a list of suit indices. Beside the position the state carries,
per seat, the mask of its cards that everyone knows it holds (``known_mask``): cards it
took from the pile in view of everyone, and the six of any seat's trump suit, whose place
everyone can follow from the deal on (given to that seat at the deal, then only ever
played and taken in view). A TPN cannot carry more than that, so ``from_tpn`` starts from
the sixes alone. Knowledge is not part of the position: ``key()`` and ``==`` ignore it.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.rules.cards import (
    ALL_CARDS,
    BEATERS,
    CARD_NAMES,
    SUITS,
    Card,
    Suit,
    ace_of,
    mask_codes,
    parse_card_codes,
    six_of,
)
from games.rules.errors import IllegalMoveError, InvalidNotationError
from games.rules.moves import BEAT_BASE, TAKE_BASE, Move, format_move_code, parse_move_code
from games.rules.outcome import Outcome
from games.rules.tpn import format_position, parse_position

PositionKey = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]
Undo = tuple[int, int, int, int, Sequence[int]]
"""What ``State.undo`` needs to take a move back: the move's code, the mover, its hand and
known cards before the move, and the cards a take took, in pile order (empty otherwise)."""
_NOTHING_TAKEN: tuple[int, ...] = ()


def _parse_known(text: str, hands: list[int]) -> list[int]:
    parts = text.split("/")
    if len(parts) != len(hands):
        raise InvalidNotationError(
            f"invalid known cards {text!r}: {len(parts)} seats, not {len(hands)}")
    masks = []
    for seat, (part, hand) in enumerate(zip(parts, hands, strict=True)):
        mask = 0
        for code in parse_card_codes("" if part == "-" else part):
            mask |= 1 << code
        if mask & ~hand:
            raise InvalidNotationError(
                f"invalid known cards {text!r}: seat {seat} does not hold them all")
        masks.append(mask)
    return masks


def take_count(pile: list[int] | tuple[int, ...], trump: int) -> int:
    """Cards a take takes from ``pile`` for a mover of trump suit ``trump`` (0 if empty)."""
    if not pile:
        return 0
    top = pile[-1]
    if top // 9 != trump:
        return min(3, len(pile))
    if top == ace_of(trump):
        return len(pile)
    return min(5, len(pile))


def legal_codes(
    hand: int, pile: list[int] | tuple[int, ...], trump: int, strict: bool
) -> list[int]:
    """The legal move codes of a mover holding ``hand`` (a mask), of trump suit ``trump``,
    before ``pile``: the one move generator, shared by ``State`` and the AI's table views."""
    if not pile:
        return list(mask_codes(hand))
    beaters = hand & BEATERS[trump][pile[-1]]
    codes: list[int] = []
    if hand & (hand - 1) == 0:
        if beaters:
            codes.append(beaters.bit_length() - 1)
    else:
        for beater in mask_codes(beaters):
            base = BEAT_BASE + 36 * beater
            codes.extend(base + second for second in mask_codes(hand ^ (1 << beater)))
    if not (strict and beaters):
        codes.append(TAKE_BASE + take_count(pile, trump))
    return codes


class State:
    __slots__ = ("_hands", "_known", "_out", "_pile", "_trumps", "n_players", "strict",
                 "to_move")

    n_players: int
    strict: bool
    to_move: int
    _trumps: list[int]
    _hands: list[int]
    _pile: list[int]
    _out: list[int]
    _known: list[int]

    def __init__(
        self,
        trumps: list[int],
        hands: list[int],
        pile: list[int],
        to_move: int,
        out: list[int],
        strict: bool = False,
        known: list[int] | None = None,
    ) -> None:
        """Build from parts already checked (use ``from_tpn`` or ``deal`` otherwise)."""
        self.n_players = len(trumps)
        self.strict = strict
        self.to_move = to_move
        self._trumps = list(trumps)
        self._hands = list(hands)
        self._pile = list(pile)
        self._out = list(out)
        self._known = list(known) if known is not None else self._sixes_known()

    def _sixes_known(self) -> list[int]:
        known = [0] * self.n_players
        for suit in self._trumps:
            bit = 1 << six_of(suit)
            for seat, hand in enumerate(self._hands):
                if hand & bit:
                    known[seat] |= bit
        return known

    # --- notation -------------------------------------------------------------------

    @classmethod
    def from_tpn(cls, text: str, strict: bool = False, known: str | None = None) -> State:
        """Parse a TPN (hands in any order); raises InvalidNotationError naming the fault.
        ``known`` (as ``known_text`` writes it) gives the cards everyone knows each seat
        holds, which a TPN cannot carry; without it they are the trump sixes alone."""
        p = parse_position(text)
        state = cls(p.trumps, p.hands, p.pile, p.to_move, p.out, strict)
        if known is not None:
            state._known = _parse_known(known, p.hands)
        return state

    def known_text(self) -> str:
        """The cards everyone knows each seat holds (``known_mask``), a run of cards per
        seat, seats separated by ``/``, ``-`` for none: ``from_tpn(tpn, known=...)``
        reads it back."""
        return "/".join("".join(CARD_NAMES[c] for c in mask_codes(mask)) or "-"
                        for mask in self._known)

    def tpn(self) -> str:
        """The canonical TPN of the position."""
        return format_position(self._trumps, self._hands, None, self._pile, self.to_move,
                               self._out)

    def __str__(self) -> str:
        return self.tpn()

    def __repr__(self) -> str:
        flag = ", strict=True" if self.strict else ""
        return f"State.from_tpn({self.tpn()!r}{flag})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (self.key(), self._trumps, self.strict) == (other.key(), other._trumps,
                                                            other.strict)

    __hash__ = None  # type: ignore[assignment]  # mutable: use key() in tables

    # --- reading the position -------------------------------------------------------

    @property
    def trumps(self) -> tuple[Suit, ...]:
        return tuple(SUITS[t] for t in self._trumps)

    def trump(self, seat: int) -> Suit:
        return SUITS[self._trumps[seat]]

    def hand(self, seat: int) -> list[Card]:
        """The seat's cards in canonical order."""
        return [ALL_CARDS[c] for c in mask_codes(self._hands[seat])]

    def hand_mask(self, seat: int) -> int:
        return self._hands[seat]

    @property
    def hand_masks(self) -> tuple[int, ...]:
        return tuple(self._hands)

    def hand_size(self, seat: int) -> int:
        return self._hands[seat].bit_count()

    def known_mask(self, seat: int) -> int:
        """Cards everyone knows ``seat`` holds (see the module docstring)."""
        return self._known[seat]

    @property
    def pile(self) -> tuple[Card, ...]:
        """The pile, bottom first."""
        return tuple(ALL_CARDS[c] for c in self._pile)

    @property
    def pile_codes(self) -> tuple[int, ...]:
        return tuple(self._pile)

    @property
    def top(self) -> Card | None:
        return ALL_CARDS[self._pile[-1]] if self._pile else None

    @property
    def out(self) -> tuple[int, ...]:
        """Seats that have gone out, first out first."""
        return tuple(self._out)

    def key(self) -> PositionKey:
        """Hashable position (hands, pile in order, out, to move) for repetition tables."""
        return (tuple(self._hands), tuple(self._pile), tuple(self._out), self.to_move)

    def clone(self) -> State:
        new = State.__new__(State)
        new.n_players = self.n_players
        new.strict = self.strict
        new.to_move = self.to_move
        new._trumps = self._trumps
        new._hands = self._hands[:]
        new._pile = self._pile[:]
        new._out = self._out[:]
        new._known = self._known[:]
        return new

    # --- the end --------------------------------------------------------------------

    def is_over(self) -> bool:
        """True when at most one seat still holds cards."""
        return len(self._out) >= self.n_players - 1

    def outcome(self) -> Outcome | None:
        """None while the game goes on; else the loser and places (NORMAL or DRAW_RULE)."""
        if len(self._out) < self.n_players - 1:
            return None
        # The seat to move is never out, so once one seat is left it is the one to move.
        last = self.to_move
        hand = self._hands[last]
        if (hand & (hand - 1) == 0 and self._pile
                and hand & BEATERS[self._trumps[last]][self._pile[-1]]):
            return Outcome.draw_rule(self._out, last)
        return Outcome.normal(self._out, last)

    # --- move generation --------------------------------------------------------------

    def take_count(self) -> int:
        """How many cards a take would take now (0 on an empty pile)."""
        return take_count(self._pile, self._trumps[self.to_move])

    def legal_move_codes(self) -> list[int]:
        """Integer codes of the legal moves (``Move.from_code`` turns one into a Move)."""
        if len(self._out) >= self.n_players - 1:
            return []
        mover = self.to_move
        return legal_codes(self._hands[mover], self._pile, self._trumps[mover], self.strict)

    def count_legal_moves(self) -> int:
        """``len(legal_move_codes())`` without building the list."""
        if len(self._out) >= self.n_players - 1:
            return 0
        mover = self.to_move
        hand = self._hands[mover]
        if not self._pile:
            return hand.bit_count()
        n_beaters = (hand & BEATERS[self._trumps[mover]][self._pile[-1]]).bit_count()
        size = hand.bit_count()
        count = n_beaters * (size - 1) if size > 1 else n_beaters
        if not (self.strict and n_beaters):
            count += 1
        return count

    def legal_moves(self) -> list[Move]:
        nonempty = bool(self._pile)
        return [Move.from_code(code, nonempty) for code in self.legal_move_codes()]

    # --- validation -------------------------------------------------------------------

    def illegal_reason(self, code: int) -> str | None:
        """Why the move of this code is illegal here, or None if it is legal."""
        if self.is_over():
            return "the game is over"
        mover = self.to_move
        hand = self._hands[mover]
        pile = self._pile
        whose = f"seat {mover}'s hand"
        if code >= TAKE_BASE:
            if not pile:
                return "the pile is empty: there is nothing to take, lead a card"
            if self.strict and hand & BEATERS[self._trumps[mover]][pile[-1]]:
                return (f"in the strict variant seat {mover} must beat "
                        f"{CARD_NAMES[pile[-1]]}, holding a card that beats it")
            if code - TAKE_BASE != self.take_count():
                return f"the rules give +{self.take_count()} here"
            return None
        if code < BEAT_BASE:
            beater, second = code, -1
        else:
            beater, second = divmod(code - BEAT_BASE, 36)
        if not hand >> beater & 1:
            return f"{CARD_NAMES[beater]} is not in {whose}"
        if not pile:
            if second >= 0:
                return "the pile is empty: lead a single card"
            return None
        top = pile[-1]
        if not BEATERS[self._trumps[mover]][top] >> beater & 1:
            return f"{CARD_NAMES[beater]} does not beat {CARD_NAMES[top]}"
        if second < 0:
            if hand != 1 << beater:
                return (f"{CARD_NAMES[beater]} is not seat {mover}'s last card: "
                        "a second card must follow it")
            return None
        if not hand >> second & 1:
            return f"{CARD_NAMES[second]} is not in {whose}"
        return None

    def is_legal(self, move: Move | str) -> bool:
        code = parse_move_code(move) if isinstance(move, str) else move.code
        return self.illegal_reason(code) is None

    # --- applying moves ---------------------------------------------------------------

    def apply(self, move: Move | str) -> Undo:
        """Play a move after checking it; raises IllegalMoveError (or InvalidNotationError
        for bad text) and leaves the state unchanged if it is not legal."""
        code = parse_move_code(move) if isinstance(move, str) else move.code
        reason = self.illegal_reason(code)
        if reason is not None:
            raise IllegalMoveError(format_move_code(code), reason)
        return self.apply_code(code)

    def apply_unchecked(self, move: Move) -> Undo:
        """Play a move known to be legal (from ``legal_moves``), without checks."""
        return self.apply_code(move.code)

    def apply_code(self, code: int) -> Undo:
        """Play the move of a code known to be legal: the fast path for search. Returns the
        token that ``undo`` takes it back with."""
        mover = self.to_move
        hands = self._hands
        pile = self._pile
        known = self._known
        hand = hands[mover]
        knew = known[mover]
        cards: Sequence[int] = _NOTHING_TAKEN
        if code < BEAT_BASE:
            bit = 1 << code
            hands[mover] = hand ^ bit
            known[mover] = knew & ~bit
            pile.append(code)
        elif code < TAKE_BASE:
            beater, second = divmod(code - BEAT_BASE, 36)
            bits = 1 << beater | 1 << second
            hands[mover] = hand ^ bits
            known[mover] = knew & ~bits
            pile.append(beater)
            pile.append(second)
        else:
            count = code - TAKE_BASE
            cards = pile[-count:]
            taken = 0
            for card in cards:
                taken |= 1 << card
            del pile[-count:]
            hands[mover] = hand | taken
            # Taken in view of everyone: from now on all know this seat holds them.
            known[mover] = knew | taken
        if not hands[mover]:
            self._out.append(mover)
        n = self.n_players
        seat = mover + 1 if mover + 1 < n else 0
        while not hands[seat]:
            seat = seat + 1 if seat + 1 < n else 0
        self.to_move = seat
        return code, mover, hand, knew, cards

    def undo(self, token: Undo) -> None:
        """Take back the move ``token`` was returned for, which must be the last move
        applied and not yet undone: the state is then exactly as before that move."""
        code, mover, hand, knew, cards = token
        hands = self._hands
        if not hands[mover]:
            self._out.pop()  # the mover went out with that move
        hands[mover] = hand
        self._known[mover] = knew
        pile = self._pile
        if code < BEAT_BASE:
            pile.pop()
        elif code < TAKE_BASE:
            del pile[-2:]
        else:
            pile.extend(cards)
        self.to_move = mover
