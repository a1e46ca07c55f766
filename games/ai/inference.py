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
person may take on purpose). In the strict variant, where who can beat must beat, a take
is proof, and no such card goes to that seat unless the hands' sizes force it.
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
"""How much less likely a hidden card is in a hand whose takes speak against it. In the
strict variant a player who can beat must, so there a take is proof: the weight is 0 (a
card still goes to such a hand when no other hand has room left for it)."""


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


def _fits(cards: list[int], room: list[int], taker: int, unlikely: tuple[int, ...]) -> bool:
    """Whether ``cards`` can all be placed without doubt once seat ``taker`` has taken one
    more card: Hall's condition, for every set of seats, over the cards only they can
    take (at most 3 seats with room, so 7 sets)."""
    left = room[:]
    left[taker] -= 1
    seats = [s for s, r in enumerate(left) if r]
    allowed = [sum(1 << i for i, s in enumerate(seats) if not unlikely[s] >> card & 1)
               for card in cards]
    for subset in range(1, 1 << len(seats)):
        capacity = sum(left[s] for i, s in enumerate(seats) if subset >> i & 1)
        if sum(1 for a in allowed if a & ~subset == 0) > capacity:
            return False
    return True


def sample_world(observation: Observation, evidence: TakeEvidence | None,
                 rng: random.Random) -> State:
    """A full position consistent with ``observation``: its hidden cards dealt at random
    from the unseen ones, weighted by ``evidence`` (uniformly when it is None)."""
    if evidence is None or not any(evidence.unlikely[s] for s, count in
                                   enumerate(observation.hidden) if count):
        return observation.sample_state(rng)
    unseen = list(mask_codes(observation.unseen_mask()))
    rng.shuffle(unseen)
    doubt = 0.0 if observation.strict else DOUBT
    room = list(observation.hidden)
    hands = list(observation.known)
    unlikely = evidence.unlikely
    while unseen and any(room):
        if doubt:
            card = unseen.pop(0)
        else:
            # Proof, not doubt: the card the fewest hands may take goes first, and only to
            # a hand after which the other cards still fit (so, whenever the hands' sizes
            # allow it, no hand gets a card its takes rule out).
            def freedom(card: int) -> int:
                return sum(1 for s, r in enumerate(room) if r and not unlikely[s] >> card & 1)

            card = min(unseen, key=freedom)
            unseen.remove(card)
        weights = [r * (doubt if unlikely[s] >> card & 1 else 1.0) for s, r in enumerate(room)]
        if not doubt:
            weights = [w if w and _fits(unseen, room, s, unlikely) else 0.0
                       for s, w in enumerate(weights)]
        if not any(weights):
            weights = [float(r) for r in room]
        pick = rng.random() * sum(weights)
        chosen = max(s for s, r in enumerate(room) if r)
        for seat, weight in enumerate(weights):
            pick -= weight
            if weight and pick < 0:
                chosen = seat
                break
        hands[chosen] |= 1 << card
        room[chosen] -= 1
    return State(list(observation.trump_codes), hands, list(observation.pile_codes),
                 observation.to_move, list(observation.out), observation.strict,
                 list(observation.known))
