"""Swiss: the pairing of a round alone (properties), the tie-breaks, and a Swiss of five
players over three rounds on real PostgreSQL (a bye each round, nobody met twice, the next
round when the last game ends, the standings with their tie-breaks)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from games.play import services as play
from games.play.models import Seat, Status
from games.play.time_control import TimeControl
from games.tournaments import selectors, services, swiss
from games.tournaments.models import Participant, TournamentGame, TournamentStatus
from games.tournaments.swiss import SwissPlayer


@st.composite
def fields(draw: st.DrawFn) -> list[SwissPlayer]:
    n = draw(st.integers(min_value=1, max_value=11))
    keys = list(range(1, n + 1))
    met = {k: set() for k in keys}
    for _ in range(draw(st.integers(0, 3 * n))):
        a, b = draw(st.sampled_from(keys)), draw(st.sampled_from(keys))
        if a != b:
            met[a].add(b)
            met[b].add(a)
    return [SwissPlayer(key=k, score=draw(st.integers(0, 10)), rating=draw(st.floats(800, 2400)),
                        opponents=frozenset(met[k]), had_bye=draw(st.booleans())) for k in keys]


def repeat_free_exists(players: list[SwissPlayer]) -> bool:
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(repeat_free_exists(rest[:i] + rest[i + 1:])
               for i, other in enumerate(rest) if other.key not in first.opponents)


@given(fields())
def test_a_round_pairs_everyone_once_with_one_bye_and_no_repeat_when_one_can_be_avoided(field):
    pairs, bye = swiss.pair_round(field)
    seen = [p.key for pair in pairs for p in pair] + ([bye.key] if bye else [])

    assert sorted(seen) == sorted(p.key for p in field)  # everyone, once
    assert (bye is not None) == (len(field) % 2 == 1)
    if bye is not None:
        without = [p for p in field if not p.had_bye]
        lowest = min(without or field, key=lambda p: (p.score, p.rating, -p.key))
        assert bye.key == lowest.key
        rest = [p for p in field if p.key != bye.key]
    else:
        rest = list(field)
    if repeat_free_exists(rest):
        assert not any(b.key in a.opponents for a, b in pairs)


def test_players_meet_within_their_score_group_first():
    field = [SwissPlayer(1, 4, 1500.0), SwissPlayer(2, 4, 1400.0), SwissPlayer(3, 2, 1900.0),
             SwissPlayer(4, 2, 1300.0)]

    pairs, _bye = swiss.pair_round(field)

    assert {frozenset((a.key, b.key)) for a, b in pairs} == {frozenset((1, 2)),
                                                              frozenset((3, 4))}


def test_buchholz_and_sonneborn_berger():
    # 1 beat 2 and drew 3; 2 beat 3; 3 had a bye then drew 1.
    sheets = {1: [(2, 2), (3, 1)], 2: [(1, 0), (3, 2)], 3: [(swiss.BYE, 2), (2, 0), (1, 1)]}

    breaks = swiss.tie_breaks(sheets)

    # Totals: 1: 1.5, 2: 1, 3: 1.5.
    assert breaks[1] == (2.5, 1 + 0.75)
    assert breaks[2] == (3.0, 1.5)
    assert breaks[3] == (2.5, 0.75)


@pytest.mark.django_db
def test_a_swiss_of_five_over_three_rounds(make_player):
    now = timezone.now()
    tournament = services.tournament_create(
        creator=None, name="Club Swiss", time_control=TimeControl(180, 2),
        starts_at=now + timedelta(minutes=5), rounds=3)
    players = [make_player(1500 + 50 * i) for i in range(5)]
    for user in players:
        services.tournament_join(user=user, token=tournament.token, now=now)

    services.tournaments_tick(now=now + timedelta(minutes=5))
    for round_ in (1, 2, 3):
        tournament.refresh_from_db()
        assert tournament.round == round_
        games = list(TournamentGame.objects.filter(tournament=tournament, round=round_))
        assert len(games) == 2  # and one bye
        for game in games:  # the lower seat resigns each game
            match = game.match
            while match.status == Status.TRUMPS:
                play.match_deadline_enforce(match_id=match.pk, now=match.due_at)
                match.refresh_from_db()
            play.match_resign(match_id=match.pk, seat=0, now=match.turn_started_at)
            services.tournament_game_score(match_id=match.pk)

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    rows = list(Participant.objects.filter(tournament=tournament))
    met = [sorted(g.user_ids()) for g in TournamentGame.objects.filter(tournament=tournament)]
    assert len(met) == len({tuple(m) for m in met}) == 6  # nobody met twice
    byes = [entry for row in rows for entry in row.sheet if entry[1] == swiss.BYE]
    assert len(byes) == 3
    assert len({row.user_id for row in rows if any(e[1] == swiss.BYE for e in row.sheet)}) == 3
    assert sum(row.score for row in rows) == 2 * (6 + 3)  # a win a game and a bye
    assert not Seat.objects.filter(match__status=Status.PLAYING).exists()

    table = selectors.standings(tournament=tournament)
    assert [row["rank"] for row in table] == [1, 2, 3, 4, 5]
    keys = [(row["points"], row["buchholz"], row["sonneborn_berger"]) for row in table]
    assert keys == sorted(keys, reverse=True)
