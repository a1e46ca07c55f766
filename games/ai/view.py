"""What a bot may look at: the mover's view of the table, built from a State or an Observation.

Public names: ``TableView``, ``view_of``, ``legal_codes``, ``next_seat``.

With 3-4 players a bot must play from the observation only. ``view_of`` turns a full
``State`` of such a game into the mover's observation first, so no bot can read hidden
cards by accident; the duel is a game of perfect information, so its view is the state.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.rules.cards import BEATERS, FULL_DECK
from games.rules.observation import Observation
from games.rules.state import State
from games.rules.state import legal_codes as rules_legal_codes


@dataclass(frozen=True, slots=True)
class TableView:
    """The table as the seat to move sees it.

    ``known[s]`` is the mask of cards the mover knows seat ``s`` holds, ``hidden[s]`` how
    many more cards seat ``s`` holds that the mover cannot place; ``unseen`` is the mask of
    cards the mover cannot place (the hidden cards are drawn from it).
    """

    trumps: tuple[int, ...]
    known: tuple[int, ...]
    hidden: tuple[int, ...]
    pile: tuple[int, ...]
    to_move: int
    out: tuple[int, ...]
    strict: bool
    unseen: int

    @property
    def n_players(self) -> int:
        return len(self.trumps)

    @property
    def hand(self) -> int:
        """The mover's own hand (always fully known)."""
        return self.known[self.to_move]

    @property
    def is_complete(self) -> bool:
        return not any(self.hidden)

    def hand_size(self, seat: int) -> int:
        return self.known[seat].bit_count() + self.hidden[seat]

    def expected_beaters(self, seat: int, card: int) -> float:
        """How many cards of ``seat`` are expected to beat ``card`` (hidden cards count by
        the share of unseen cards that beat it)."""
        row = BEATERS[self.trumps[seat]][card]
        count = float((self.known[seat] & row).bit_count())
        if self.hidden[seat] and self.unseen:
            count += self.hidden[seat] * (self.unseen & row).bit_count() / self.unseen.bit_count()
        return count


def view_of(position: State | Observation) -> TableView:
    if isinstance(position, State):
        if position.n_players == 2:
            hands = position.hand_masks
            return TableView(tuple(int(t) for t in position.trumps), hands, (0, 0),
                             position.pile_codes, position.to_move, position.out,
                             position.strict, 0)
        position = Observation.of_state(position, position.to_move)
    if position.seat != position.to_move:
        raise ValueError(f"the observation is seat {position.seat}'s, but seat "
                         f"{position.to_move} is to move")
    unseen = position.unseen_mask() if not position.is_complete else 0
    return TableView(position.trump_codes, position.known, position.hidden,
                     position.pile_codes, position.to_move, position.out, position.strict,
                     unseen & FULL_DECK)


def legal_codes(view: TableView) -> list[int]:
    """The mover's legal move codes (the same set as ``State.legal_move_codes``)."""
    return rules_legal_codes(view.hand, view.pile, view.trumps[view.to_move], view.strict)


def next_seat(view: TableView, after: int, mover_out: bool) -> int:
    """The seat that moves after ``after`` (skipping seats out, and the mover if it went out)."""
    n = view.n_players
    seat = (after + 1) % n
    for _ in range(n):
        if seat != view.to_move and view.hand_size(seat) > 0:
            return seat
        if seat == view.to_move and not mover_out:
            return seat
        seat = (seat + 1) % n
    return after
