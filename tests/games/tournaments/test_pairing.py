"""The pairing and the scoring of an arena, alone: properties over many waves and sheets."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.tournaments import pairing
from games.tournaments.pairing import Candidate
from games.tournaments.scoring import Outcome, game_score, sheet_total


@st.composite
def waves(draw: st.DrawFn) -> list[Candidate]:
    """Free players of a wave, some of them fresh from a game with another of the wave (the
    last opponent of each is one person, as in an arena)."""
    n = draw(st.integers(min_value=0, max_value=12))
    keys = list(range(1, n + 1))
    order = draw(st.permutations(keys))
    last: dict[int, int | None] = dict.fromkeys(keys)
    # Pairs of the wave who just played each other; the others' last opponent is nobody,
    # someone not free now (key 99), or one of the wave who has played again since (even one
    # of a pair who just met).
    for a, b in zip(order[0::2], order[1::2], strict=False):
        if draw(st.booleans()):
            last[a], last[b] = b, a
    for k in keys:
        if last[k] is None:
            last[k] = draw(st.sampled_from([None, 99, *(o for o in keys if o != k)]))
    return [Candidate(key=k, score=draw(st.integers(0, 30)),
                      rating=draw(st.floats(800, 2400)), last_opponent=last[k]) for k in keys]


def fewest_rematches(candidates: list[Candidate]) -> int:
    """Over every matching that pairs as many as possible, the fewest rematches."""
    def best(rest: list[Candidate]) -> tuple[int, int]:
        if len(rest) < 2:
            return 0, 0
        first, others = rest[0], rest[1:]
        options = [best(others)] if len(rest) % 2 else []  # an odd count: someone waits
        for i, other in enumerate(others):
            count, rematches = best(others[:i] + others[i + 1:])
            options.append((count + 1, rematches - pairing.is_rematch(first, other)))
        return max(options)

    return -best(candidates)[1]


@given(waves())
def test_one_wave_pairs_everyone_it_can_and_avoids_rematches_while_it_can(candidates):
    pairs = pairing.pair(candidates)
    seen = [c.key for pair in pairs for c in pair]

    assert len(seen) == len(set(seen))  # nobody twice
    assert all(a.key != b.key for a, b in pairs)
    assert len(pairs) == len(candidates) // 2  # everyone, or all but one
    rematches = sum(pairing.is_rematch(a, b) for a, b in pairs)
    assert rematches == fewest_rematches(candidates)


@given(waves())
def test_players_meet_neighbours_in_rank_when_nobody_just_met(candidates):
    fresh = [Candidate(c.key, c.score, c.rating) for c in candidates]
    ranked = [c.key for c in pairing.ranked(fresh)]

    pairs = pairing.pair(fresh)

    assert [(a.key, b.key) for a, b in pairs] == list(zip(ranked[0::2], ranked[1::2],
                                                          strict=False))


def test_two_players_who_just_met_meet_again_when_nobody_else_is_free():
    a, b = Candidate(1, 2, 1500.0, last_opponent=2), Candidate(2, 0, 1500.0, last_opponent=1)

    assert [(x.key, y.key) for x, y in pairing.pair([a, b])] == [(1, 2)]


def test_a_third_free_player_breaks_the_rematch():
    a = Candidate(1, 4, 1500.0, last_opponent=2)
    b = Candidate(2, 3, 1500.0, last_opponent=1)
    c = Candidate(3, 0, 1500.0)

    assert {frozenset((x.key, y.key)) for x, y in pairing.pair([a, b, c])} in (
        {frozenset((1, 3))}, {frozenset((2, 3))})


def test_the_odd_player_out_is_one_who_would_meet_their_last_opponent_again():
    # 1 and 3 just met; 2 lost to 1 before that. Either 1 meets someone they (or who) just
    # met, or 1 waits and 2 meets 3: the wave leaves 1 out.
    one = Candidate(1, 5, 1500.0, last_opponent=3)
    three = Candidate(3, 2, 1500.0, last_opponent=1)
    two = Candidate(2, 0, 1500.0, last_opponent=1)

    assert [(x.key, y.key) for x, y in pairing.pair([one, three, two])] == [(3, 2)]


outcomes = st.lists(st.tuples(st.sampled_from(list(Outcome)), st.booleans()), max_size=40)


@given(outcomes)
def test_the_score_of_a_sheet_follows_the_documented_rules(games):
    """2/1/0, doubled from the third win in a row until a game is not won, +1 for a
    berserk win: computed here by a second, plain reading of the rules."""
    expected, wins_in_a_row = 0, 0
    for outcome, berserk in games:
        base = {Outcome.WIN: 2, Outcome.DRAW: 1, Outcome.LOSS: 0}[outcome]
        expected += base * (2 if wins_in_a_row >= 2 else 1)
        expected += 1 if berserk and outcome == Outcome.WIN else 0
        wins_in_a_row = wins_in_a_row + 1 if outcome == Outcome.WIN else 0

    assert sheet_total(games) == (expected, wins_in_a_row)


def test_a_streak_scores_double_and_ends_with_a_draw():
    sheet = [Outcome.WIN, Outcome.WIN, Outcome.WIN, Outcome.DRAW, Outcome.WIN]
    points, streak = [], 0
    for outcome in sheet:
        scored = game_score(outcome=outcome, streak=streak, berserk=False)
        points.append((scored.points, scored.doubled))
        streak = scored.streak

    assert points == [(2, False), (2, False), (4, True), (2, True), (2, False)]


def test_berserk_adds_one_point_to_a_win_only():
    assert game_score(outcome=Outcome.WIN, streak=0, berserk=True).points == 3
    assert game_score(outcome=Outcome.WIN, streak=2, berserk=True).points == 5
    assert game_score(outcome=Outcome.DRAW, streak=0, berserk=True).points == 1
    assert game_score(outcome=Outcome.LOSS, streak=2, berserk=True).points == 0
