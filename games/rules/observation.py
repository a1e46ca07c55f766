"""What one seat may know of a position, and its TPN form with ``?N`` (INTERFACES.md).

Public names: ``Observation``.

A seat knows its own hand, the pile, every hand's size and who is out, plus, of the other
hands, the cards everyone knows they hold (``State.known_mask``: cards taken from the pile
in view of all, and the trump sixes of the deal). Two more cases reveal whole hands:

- the duel (2 players) is a game of perfect information (RULES.md): both hands are open;
- when a full pack is in play and only one other seat holds cards the observer cannot
  place, those cards are exactly the ones the observer has not seen (e.g. 3 players, one
  out): the observer knows that hand by elimination.

In TPN each hand lists the known cards, then ``?`` and the count of unknown ones:
``9HQS?5``, ``?9``. ``Observation.from_tpn`` parses it back; the observer defaults to the
seat to move (the AI engine receives the position of the player it plays for).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.rules.cards import ALL_CARDS, FULL_DECK, N_CARDS, SUITS, Card, Suit, mask_codes, mask_of
from games.rules.errors import InvalidNotationError
from games.rules.moves import Move
from games.rules.state import State
from games.rules.tpn import format_position, parse_position


@dataclass(frozen=True, slots=True)
class Observation:
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
        hands = state.hand_masks
        if n == 2:
            known = list(hands)
        else:
            known = [hand if s == seat else state.known_mask(s) & hand
                     for s, hand in enumerate(hands)]
            unplaced = [s for s in range(n) if known[s] != hands[s]]
            in_play = mask_of(state.pile_codes)
            for hand in hands:
                in_play |= hand
            if len(unplaced) == 1 and in_play == FULL_DECK:
                known[unplaced[0]] = hands[unplaced[0]]
        hidden = tuple((hands[s] & ~known[s]).bit_count() for s in range(n))
        return cls(seat, tuple(int(t) for t in state.trumps), tuple(known), hidden,
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
