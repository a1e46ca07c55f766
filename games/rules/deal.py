"""Before the first move: the choice of trumps and the seeded deal with the sixes rule.

Public names: ``TrumpChoice``, ``deal``, ``dealt_hands``, ``parse_trumps``,
``first_dealer``, ``next_dealer``.

Trumps are chosen in turn order starting with the player who will lead (seat
``dealer + 1``) and going clockwise; a player who does not choose in time gets a random
free suit (``TrumpChoice.choose_random`` with the caller's ``random.Random``).

The deal is a pure function of its seed: the pack in canonical order (clubs 6..A,
diamonds, hearts, spades) is shuffled by ``random.Random(seed).shuffle``, then dealt one
card at a time clockwise from seat ``dealer + 1``. Then every six of a seat's trump suit
that another seat holds is given to that seat. The player to the dealer's left leads.
The first dealer is random (``first_dealer``); in rematches the loser of the previous
game deals, and after a draw the deal passes to the left (``next_dealer``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.rules.cards import N_CARDS, SUITS, Suit, six_of
from games.rules.errors import InvalidNotationError
from games.rules.state import State


def parse_trumps(trumps: str | Sequence[Suit], n_players: int) -> tuple[Suit, ...]:
    """Trump suits by seat from ``"SH"`` or a sequence of suits; checks count and clashes."""
    suits = tuple(Suit.parse(s) for s in trumps) if isinstance(trumps, str) else tuple(trumps)
    if len(suits) != n_players:
        raise InvalidNotationError(f"{len(suits)} trump suits for {n_players} players")
    if len(set(suits)) != len(suits):
        raise InvalidNotationError("two players cannot share a trump suit")
    return suits


def _check_table(n_players: int, dealer: int) -> None:
    if n_players not in (2, 3, 4):
        raise ValueError(f"Svoi Kozyri is played by 2, 3 or 4 players, not {n_players}")
    if not 0 <= dealer < n_players:
        raise ValueError(f"dealer must be a seat 0..{n_players - 1}, got {dealer}")


@dataclass(frozen=True, slots=True)
class TrumpChoice:
    """The choice of trumps in progress: ``chosen`` holds the suits picked so far, in the
    order they were picked (the first by seat ``dealer + 1``)."""

    n_players: int
    dealer: int
    chosen: tuple[Suit, ...] = ()

    def __post_init__(self) -> None:
        _check_table(self.n_players, self.dealer)
        if len(self.chosen) > self.n_players or len(set(self.chosen)) != len(self.chosen):
            raise ValueError("each player chooses one suit and no two choose the same")

    @property
    def done(self) -> bool:
        return len(self.chosen) == self.n_players

    @property
    def chooser(self) -> int | None:
        """The seat whose turn it is to choose, None once everyone has chosen."""
        if self.done:
            return None
        return (self.dealer + 1 + len(self.chosen)) % self.n_players

    @property
    def free_suits(self) -> tuple[Suit, ...]:
        return tuple(s for s in SUITS if s not in self.chosen)

    def choose(self, suit: Suit | str) -> TrumpChoice:
        """The choice after the current chooser picks ``suit``."""
        suit = Suit.parse(suit) if isinstance(suit, str) else suit
        if self.done:
            raise ValueError("every player has already chosen a trump suit")
        if suit in self.chosen:
            raise ValueError(f"{suit} is already another player's trump")
        return TrumpChoice(self.n_players, self.dealer, (*self.chosen, suit))

    def random_free_suit(self, rng: random.Random) -> Suit:
        """The suit given to a chooser who did not choose in time."""
        return rng.choice(self.free_suits)

    def choose_random(self, rng: random.Random) -> TrumpChoice:
        return self.choose(self.random_free_suit(rng))

    def trumps(self) -> tuple[Suit, ...]:
        """The trump suit of each seat, seat 0 first (once everyone has chosen)."""
        if not self.done:
            raise ValueError(f"seat {self.chooser} has not chosen a trump suit yet")
        by_seat = [Suit.CLUBS] * self.n_players
        for i, suit in enumerate(self.chosen):
            by_seat[(self.dealer + 1 + i) % self.n_players] = suit
        return tuple(by_seat)


def first_dealer(n_players: int, seed: int) -> int:
    """The random first dealer of a seeded game, when the caller does not pick one.

    Drawn from its own stream (a string seed), not the shuffle's, so that the dealer is
    not correlated with the deal.
    """
    _check_table(n_players, 0)
    return random.Random(f"dealer {seed}").randrange(n_players)


def next_dealer(previous_dealer: int, *, loser: int | None, n_players: int) -> int:
    """The dealer of a rematch: the loser of the previous game deals; after a draw (or an
    aborted game: no loser) the deal passes to the left."""
    _check_table(n_players, previous_dealer)
    if loser is not None:
        return loser
    return (previous_dealer + 1) % n_players


def dealt_hands(n_players: int, seed: int, dealer: int) -> list[int]:
    """Hand masks straight from the shuffle, before the sixes rule."""
    _check_table(n_players, dealer)
    deck = list(range(N_CARDS))
    random.Random(seed).shuffle(deck)
    hands = [0] * n_players
    for i, card in enumerate(deck):
        hands[(dealer + 1 + i) % n_players] |= 1 << card
    return hands


def deal(
    n_players: int = 2,
    seed: int = 0,
    dealer: int | None = None,
    trumps: str | Sequence[Suit] | None = None,
    strict: bool = False,
) -> State:
    """The starting position of a seeded deal, after the sixes rule.

    ``trumps`` defaults to the first suits of ``S H D C`` by seat; ``dealer`` to
    ``first_dealer(n_players, seed)``. The seed must be an int: ``random.Random`` shuffles
    an int and its string differently, and a record must reproduce the deal from its text.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"the seed of a deal must be an int, got {seed!r}")
    _check_table(n_players, 0 if dealer is None else dealer)
    dealer = first_dealer(n_players, seed) if dealer is None else dealer
    suits = parse_trumps("SHDC"[:n_players] if trumps is None else trumps, n_players)
    hands = dealt_hands(n_players, seed, dealer)
    for owner, suit in enumerate(suits):
        six = 1 << six_of(suit)
        for seat in range(n_players):
            if seat != owner and hands[seat] & six:
                hands[seat] ^= six
                hands[owner] |= six
    return State([int(s) for s in suits], hands, [], (dealer + 1) % n_players, [], strict)
