"""The pairing of a wave, alone: who may meet, and that the pairs found are the best ones."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.matchmaking import pairing
from games.matchmaking.pairing import Candidate


def brute_force(candidates: list[Candidate]) -> tuple[int, float]:
    """The best score over every matching (each player paired or left to wait)."""
    if not candidates:
        return 0, 0.0
    first, rest = candidates[0], candidates[1:]
    best = brute_force(rest)  # the first one waits
    for index, other in enumerate(rest):
        if pairing.may_pair(first, other):
            count, gap = brute_force(rest[:index] + rest[index + 1:])
            candidate = (count + 1, gap - abs(first.rating - other.rating))
            best = max(best, candidate)
    return best


def test_ratings_far_apart_are_not_paired_at_first():
    low, high = Candidate(1, 1200.0), Candidate(2, 1700.0)

    assert pairing.pair([low, high]) == []


def test_ratings_far_apart_are_paired_after_waiting_long_enough():
    # A gap of 500: the base 200 plus 12 per missed wave for each of the two players.
    waves_needed = 13  # 200 + 2 * 12 * 13 = 512 >= 500; after 12 waves only 488
    before = [Candidate(1, 1200.0, waves_needed - 1), Candidate(2, 1700.0, waves_needed - 1)]
    after = [Candidate(1, 1200.0, waves_needed), Candidate(2, 1700.0, waves_needed)]

    assert pairing.pair(before) == []
    assert [(a.key, b.key) for a, b in pairing.pair(after)] == [(1, 2)]


def test_one_player_who_waited_long_widens_the_range_alone():
    patient, newcomer = Candidate(1, 1500.0, waves=20), Candidate(2, 1900.0, waves=0)

    assert len(pairing.pair([patient, newcomer])) == 1


def test_the_widening_stops_at_the_cap():
    a, b = Candidate(1, 400.0, waves=10_000), Candidate(2, 2000.0, waves=10_000)

    assert pairing.allowed_gap(a, b) == pairing.BASE_GAP + 2 * pairing.MAX_BONUS
    assert pairing.pair([a, b]) == []


def test_the_closest_ratings_are_paired_together():
    players = [Candidate(k, r) for k, r in [(1, 1500), (2, 1900), (3, 1510), (4, 1890)]]

    pairs = {frozenset((a.key, b.key)) for a, b in pairing.pair(players)}

    assert pairs == {frozenset((1, 3)), frozenset((2, 4))}


def test_a_player_is_never_paired_with_themselves_nor_twice():
    same = [Candidate(7, 1500.0), Candidate(7, 1500.0), Candidate(7, 1501.0)]

    assert pairing.pair(same) == []


candidates_strategy = st.lists(
    st.builds(
        Candidate,
        key=st.integers(0, 10_000),
        rating=st.floats(800, 2400, allow_nan=False).map(round),
        waves=st.integers(0, 40),
    ),
    max_size=9,
    unique_by=lambda c: c.key,
)


@settings(max_examples=300, deadline=None)
@given(candidates_strategy)
def test_pairs_are_the_best_possible_as_brute_force_finds(candidates):
    pairs = pairing.pair(candidates)

    count, gap = pairing.score(pairs)
    best_count, best_gap = brute_force(candidates)
    assert count == best_count
    assert abs(gap - best_gap) < 1e-6
    keys = [c.key for pair in pairs for c in pair]
    assert len(keys) == len(set(keys))
    assert all(pairing.may_pair(a, b) for a, b in pairs)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(1400, 1600, allow_nan=False), min_size=30, max_size=120))
def test_large_waves_pair_everyone_in_a_narrow_band_and_never_twice(ratings):
    candidates = [Candidate(key, rating) for key, rating in enumerate(ratings)]

    pairs = pairing.pair(candidates)

    keys = [c.key for pair in pairs for c in pair]
    assert len(keys) == len(set(keys))
    assert all(pairing.may_pair(a, b) for a, b in pairs)
    # Every gap in a band of 200 is allowed: all meet but one of an odd number.
    assert len(pairs) == len(candidates) // 2
