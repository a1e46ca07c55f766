"""What the public moves of a game suggest about the hidden cards, and sampling by it.

Public names: ``TakeEvidence``, ``observe_game``, ``sample_world``.

Every move of Svoi Kozyri is played face up, so the moves are public: any seat may read
them. One kind says a good deal about a hand: a player who *takes* although they could
beat seldom does so (greedy players never do). So when seat ``s`` took with card ``t`` on
top, ``s`` probably held no card that beats ``t``. The cards ``s`` still holds that the
observer cannot place were all in its hand then (a card enters a hand only by the deal or
by a take in view of everyone, which makes it known), so the inference applies to every
hidden card ``s`` holds now: those that beat a card ``s`` took on are less likely.

``observe_game`` replays the moves on the *observer's* observation of the start (so it
reads nothing the observer may not know) and returns the observation now together with,
per seat, the mask of cards that beat a card the seat took on. ``sample_world`` deals the
hidden cards from the unseen ones like ``Observation.sample_state``, but a card is
``DOUBT`` times as likely to go to a seat whose takes speak against it (soft evidence: a
person may take on purpose).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.rules.cards import BEATERS, mask_codes
from games.rules.moves import TAKE_BASE, Move
from games.rules.observation import Observation
from games.rules.state import State

DOUBT = 0.2
"""How much less likely a hidden card is in a hand whose takes speak against it."""


@dataclass(frozen=True, slots=True)
class TakeEvidence:
    """Per seat, the mask of cards that beat a card the seat took on."""

    unlikely: tuple[int, ...]

    @classmethod
    def none(cls, n_players: int) -> TakeEvidence:
        return cls((0,) * n_players)


def observe_game(start: Observation, codes: Sequence[int]) -> tuple[Observation, TakeEvidence]:
    """The observer's observation after ``codes`` were played from ``start`` (its
    observation of the start), and the evidence of the takes among them."""
    unlikely = [0] * start.n_players
    observation = start
    for code in codes:
        if code >= TAKE_BASE and observation.pile_codes:
            mover = observation.to_move
            trump = observation.trump_codes[mover]
            unlikely[mover] |= BEATERS[trump][observation.pile_codes[-1]]
        observation = observation.play(Move.from_code(code, bool(observation.pile_codes)))
    return observation, TakeEvidence(tuple(unlikely))


def sample_world(observation: Observation, evidence: TakeEvidence | None,
                 rng: random.Random) -> State:
    """A full position consistent with ``observation``: its hidden cards dealt at random
    from the unseen ones, weighted by ``evidence`` (uniformly when it is None)."""
    if evidence is None or not any(evidence.unlikely[s] for s, count in
                                   enumerate(observation.hidden) if count):
        return observation.sample_state(rng)
    unseen = list(mask_codes(observation.unseen_mask()))
    rng.shuffle(unseen)
    room = list(observation.hidden)
    hands = list(observation.known)
    seats = [s for s, count in enumerate(room) if count]
    for card in unseen:
        if not seats:
            break
        bit = 1 << card
        weights = [room[s] * (DOUBT if evidence.unlikely[s] & bit else 1.0) for s in seats]
        # Once the cards left are exactly the places left, the weights no longer choose.
        pick = rng.random() * sum(weights)
        chosen = seats[-1]
        for seat, weight in zip(seats, weights, strict=True):
            pick -= weight
            if pick < 0:
                chosen = seat
                break
        hands[chosen] |= bit
        room[chosen] -= 1
        if not room[chosen]:
            seats.remove(chosen)
    return State(list(observation.trump_codes), hands, list(observation.pile_codes),
                 observation.to_move, list(observation.out), observation.strict,
                 list(observation.known))
