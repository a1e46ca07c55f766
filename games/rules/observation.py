"""What one seat may know of a position, and its TPN form with ``?N`` (docs/rules.md).

Public names: ``Observation``, ``visible_hands``.

A seat knows its own hand, the pile, every hand's size and who is out, plus, of the other
hands, the cards everyone knows they hold (``State.known_mask``: cards taken from the pile
in view of all, and the trump sixes of the deal). Two more cases reveal whole hands:

- the duel (2 players) is a game of perfect information (docs/rules.md): both hands are open;
- when a full pack is in play and only one other seat holds cards the observer cannot
  place, those cards are exactly the ones the observer has not seen (e.g. 3 players, one
  out): the observer knows that hand by elimination.

In TPN each hand lists the known cards, then ``?`` and the count of unknown ones:
``9HQS?5``, ``?9``. ``Observation.from_tpn`` parses it back; the observer defaults to the
seat to move (the AI engine receives the position of the player it plays for).

``play(move)`` follows the game from the observer's seat: a card played from a hand comes
out of its known cards if it is one, else out of its hidden ones; cards taken become known.
So ``Observation.of_state(state, s).play(m) == Observation.of_state(after_m, s)``.
``sample_state`` deals the hidden cards at random from the unseen ones (a determinization
for search).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.rules.cards import (
    ALL_CARDS,
    BEATERS,
    CARD_NAMES,
    FULL_DECK,
    N_CARDS,
    SUITS,
    Card,
    Suit,
    mask_codes,
    mask_of,
)
from games.rules.errors import IllegalMoveError, InvalidNotationError
from games.rules.moves import BEAT_BASE, TAKE_BASE, Move, format_move_code, parse_move_code
from games.rules.state import State, take_count
from games.rules.tpn import format_position, parse_position


def _place_by_elimination(known: list[int], hidden: list[int],
                          pile: tuple[int, ...] | list[int]) -> None:
    """With a full pack in play, if one seat alone holds unknown cards, they are the unseen
    cards: move them to that seat's known cards (in place)."""
    unplaced = [s for s, count in enumerate(hidden) if count]
    if len(unplaced) != 1:
        return
    seen = mask_of(pile)
    for mask in known:
        seen |= mask
    unseen = FULL_DECK & ~seen
    seat = unplaced[0]
    if unseen.bit_count() == hidden[seat]:  # else some cards are not in play (a test position)
        known[seat] |= unseen
        hidden[seat] = 0


def visible_hands(state: State, viewer: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What ``viewer`` may know of every hand: per seat, the mask of the cards it may know
    that seat holds, and how many of that seat's cards stay hidden from it. ``viewer`` None
    is a spectator, who knows only what every player knows (in the duel, both hands; with
    3-4 players, the cards known to all and what follows from them by elimination).
    This is the one rule of who sees which cards: the AI's observation, the site's views of
    a match and its replays all ask it."""
    n = state.n_players
    hands = state.hand_masks
    if n == 2:
        known = list(hands)
    else:
        known = [hand if s == viewer else state.known_mask(s) & hand
                 for s, hand in enumerate(hands)]
    hidden = [(hands[s] & ~known[s]).bit_count() for s in range(n)]
    _place_by_elimination(known, hidden, state.pile_codes)
    return tuple(known), tuple(hidden)


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of a position; immutable (``play`` returns a new one)."""

    seat: int
    """The observer."""
    trump_codes: tuple[int, ...]
    known: tuple[int, ...]
    """Per seat, the mask of cards the observer knows that seat holds (all of its own)."""
    hidden: tuple[int, ...]
    """Per seat, how many of its cards the observer cannot know."""
    pile_codes: tuple[int, ...]
    to_move: int
    out: tuple[int, ...]
    strict: bool = False

    @classmethod
    def of_state(cls, state: State, seat: int) -> Observation:
        n = state.n_players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not at this table of {n}")
        known, hidden = visible_hands(state, seat)
        return cls(seat, tuple(int(t) for t in state.trumps), known, hidden,
                   state.pile_codes, state.to_move, state.out, state.strict)

    @classmethod
    def from_tpn(cls, text: str, seat: int | None = None, strict: bool = False) -> Observation:
        """Parse an observation TPN; ``seat`` (the observer) defaults to the seat to move."""
        p = parse_position(text, allow_hidden=True)
        observer = p.to_move if seat is None else seat
        if not 0 <= observer < len(p.trumps):
            raise InvalidNotationError(f"invalid observation: seat {observer} is not at the table")
        if p.hidden[observer]:
            raise InvalidNotationError(
                f"invalid observation: the observer, seat {observer}, must see its own hand "
                f"(no '?' in it)"
            )
        return cls(observer, tuple(p.trumps), tuple(p.hands), tuple(p.hidden), tuple(p.pile),
                   p.to_move, tuple(p.out), strict)

    def tpn(self) -> str:
        """Canonical observation TPN (a plain TPN when nothing is hidden)."""
        return format_position(list(self.trump_codes), list(self.known), list(self.hidden),
                               list(self.pile_codes), self.to_move, list(self.out))

    def __str__(self) -> str:
        return self.tpn()

    @property
    def n_players(self) -> int:
        return len(self.trump_codes)

    @property
    def trumps(self) -> tuple[Suit, ...]:
        return tuple(SUITS[t] for t in self.trump_codes)

    @property
    def pile(self) -> tuple[Card, ...]:
        return tuple(ALL_CARDS[c] for c in self.pile_codes)

    def known_cards(self, seat: int) -> list[Card]:
        return [ALL_CARDS[c] for c in mask_codes(self.known[seat])]

    def hand_size(self, seat: int) -> int:
        return self.known[seat].bit_count() + self.hidden[seat]

    @property
    def is_complete(self) -> bool:
        """Whether every card of every hand is known (always so in the duel)."""
        return not any(self.hidden)

    def unseen_mask(self) -> int:
        """Cards the observer has not placed: neither in a known hand nor in the pile."""
        seen = mask_of(self.pile_codes)
        for mask in self.known:
            seen |= mask
        return FULL_DECK & ~seen

    def to_state(self) -> State:
        """The full position, when nothing is hidden."""
        if not self.is_complete:
            raise ValueError("the observation hides cards: use sample_state to fill them in")
        return State(list(self.trump_codes), list(self.known), list(self.pile_codes),
                     self.to_move, list(self.out), self.strict, list(self.known))

    def sample_state(self, rng: random.Random) -> State:
        """A full position consistent with the observation: the hidden cards of each hand
        drawn at random from the unseen ones (a determinization, for search)."""
        unseen = list(mask_codes(self.unseen_mask()))
        if sum(self.hidden) > len(unseen):
            raise ValueError(f"{sum(self.hidden)} hidden cards but only {len(unseen)} unseen")
        rng.shuffle(unseen)
        hands = list(self.known)
        start = 0
        for seat, count in enumerate(self.hidden):
            hands[seat] |= mask_of(unseen[start : start + count])
            start += count
        return State(list(self.trump_codes), hands, list(self.pile_codes), self.to_move,
                     list(self.out), self.strict, list(self.known))

    def is_over(self) -> bool:
        """True when at most one seat still holds cards."""
        return len(self.out) >= self.n_players - 1

    def play(self, move: Move | str) -> Observation:
        """The observation after a move seen by the observer (anyone's move): played
        cards leave the known part of the mover's hand if there, else its hidden part;
        taken cards become known. Checked as far as the observer can tell; raises
        IllegalMoveError (InvalidNotationError for bad text) if it cannot be legal."""
        code = parse_move_code(move) if isinstance(move, str) else move.code
        mover = self.to_move
        known, hidden = list(self.known), list(self.hidden)
        pile, out = list(self.pile_codes), list(self.out)
        reason = self._illegal_reason(code)
        if reason is not None:
            raise IllegalMoveError(format_move_code(code), reason)
        if code >= TAKE_BASE:
            count = code - TAKE_BASE
            known[mover] |= mask_of(pile[-count:])
            del pile[-count:]
        else:
            cards = [code] if code < BEAT_BASE else list(divmod(code - BEAT_BASE, 36))
            for card in cards:
                if known[mover] >> card & 1:
                    known[mover] ^= 1 << card
                else:
                    hidden[mover] -= 1
            pile.extend(cards)
            if not known[mover] and not hidden[mover]:
                out.append(mover)
        n = self.n_players
        seat = (mover + 1) % n
        while not known[seat] and not hidden[seat]:
            seat = (seat + 1) % n
        _place_by_elimination(known, hidden, pile)
        return Observation(self.seat, self.trump_codes, tuple(known), tuple(hidden),
                           tuple(pile), seat, tuple(out), self.strict)

    def _illegal_reason(self, code: int) -> str | None:
        if self.is_over():
            return "the game is over"
        mover = self.to_move
        trump = self.trump_codes[mover]
        pile = self.pile_codes
        own = self.known[mover]
        if code >= TAKE_BASE:
            if not pile:
                return "the pile is empty: there is nothing to take, lead a card"
            if self.strict and not self.hidden[mover] and own & BEATERS[trump][pile[-1]]:
                return (f"in the strict variant seat {mover} must beat "
                        f"{CARD_NAMES[pile[-1]]}, holding a card that beats it")
            if code - TAKE_BASE != take_count(pile, trump):
                return f"the rules give +{take_count(pile, trump)} here"
            return None
        cards = [code] if code < BEAT_BASE else list(divmod(code - BEAT_BASE, 36))
        unseen = self.unseen_mask()
        from_hidden = 0
        for card in cards:
            if not own >> card & 1:
                if not unseen >> card & 1:
                    return f"{CARD_NAMES[card]} cannot be in seat {mover}'s hand"
                from_hidden += 1
        if from_hidden > self.hidden[mover]:
            return f"seat {mover} has not that many unknown cards"
        if not pile:
            return "the pile is empty: lead a single card" if len(cards) > 1 else None
        if not BEATERS[trump][pile[-1]] >> cards[0] & 1:
            return f"{CARD_NAMES[cards[0]]} does not beat {CARD_NAMES[pile[-1]]}"
        if len(cards) == 1 and self.hand_size(mover) != 1:
            return (f"{CARD_NAMES[cards[0]]} is not seat {mover}'s last card: "
                    "a second card must follow it")
        return None

    def legal_moves(self) -> list[Move]:
        """The observer's legal moves (they depend only on its own hand and the pile)."""
        if self.seat != self.to_move:
            raise ValueError(f"seat {self.seat} is not to move")
        hands = [m if s == self.seat else 0 for s, m in enumerate(self.known)]
        # Other hands only matter for who is out; stand-ins of the right emptiness do.
        for s in range(self.n_players):
            if s != self.seat and s not in self.out:
                hands[s] = 1 << N_CARDS
        return State(list(self.trump_codes), hands, list(self.pile_codes), self.to_move,
                     list(self.out), self.strict).legal_moves()
