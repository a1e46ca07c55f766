"""Matchmaking services on the real database: pools and waves, seeks, challenges, limits."""

from __future__ import annotations

import re

import pytest

from games.matchmaking import errors, services
from games.matchmaking.errors import MatchmakingError
from games.matchmaking.models import Challenge, ChallengeStatus, PoolEntry, Seek
from games.play.models import Match, Seat, Status
from games.play.services import Player, match_abort, match_create
from games.play.time_control import TimeControl
from tests.games.matchmaking.conftest import at

pytestmark = pytest.mark.django_db


def players_of(match: Match) -> set[str]:
    return {seat.user.username for seat in Seat.objects.filter(match=match)}


# --- quick pairing ----------------------------------------------------------------------------


def test_two_close_players_joining_one_pool_are_paired_at_once(make_player):
    anna, boris = make_player("anna", 1500), make_player("boris", 1550)

    assert services.pool_join(user=anna, pool="3+2", now=at(0)) == []
    [match] = services.pool_join(user=boris, pool="3+2", now=at(1))

    assert players_of(match) == {"anna", "boris"}
    assert match.rated
    assert (match.clock_initial, match.clock_increment) == (180, 2)
    assert not PoolEntry.objects.exists()


def test_pools_of_different_time_controls_do_not_meet(make_player):
    anna, boris = make_player("anna"), make_player("boris")

    services.pool_join(user=anna, pool="3+2", now=at(0))

    assert services.pool_join(user=boris, pool="5+3", now=at(0)) == []
    assert PoolEntry.objects.count() == 2


def test_far_apart_ratings_wait_then_meet_as_the_range_widens(make_player, settings):
    settings.MATCHMAKING_ALIVE_SECONDS = 600  # as if their sockets kept renewing them
    low, high = make_player("low", 1300), make_player("high", 1800)  # a gap of 500

    services.pool_join(user=low, pool="1+1", now=at(0))
    services.pool_join(user=high, pool="1+1", now=at(0))
    # 3 s waves: 12 more points per wave for each player; 200 + 24 * 13 >= 500.
    assert services.pool_wave(pool="1+1", now=at(3 * 12)) == []
    [match] = services.pool_wave(pool="1+1", now=at(3 * 13))

    assert players_of(match) == {"low", "high"}


def test_a_wave_asked_for_again_at_once_does_nothing(make_player, settings):
    settings.MATCHMAKING_ALIVE_SECONDS = 600
    low, high = make_player("low", 1300), make_player("high", 1800)
    services.pool_join(user=low, pool="1+1", now=at(0))
    services.pool_join(user=high, pool="1+1", now=at(0))
    assert services.pool_wave(pool="1+1", now=at(37.5)) == []  # 12 waves: not yet

    # 1.5 s later: less than a wave interval since the last wave: not run, though they fit.
    assert services.pool_wave(pool="1+1", now=at(39)) == []
    assert len(services.pool_wave(pool="1+1", now=at(40.5))) == 1


def test_joining_a_second_pool_leaves_the_first(make_player):
    anna = make_player("anna")

    services.pool_join(user=anna, pool="3+2", now=at(0))
    services.pool_join(user=anna, pool="10+5", now=at(1))

    assert list(PoolEntry.objects.values_list("pool_id", flat=True)) == ["10+5"]


def test_joining_the_same_pool_again_keeps_the_place(make_player):
    anna = make_player("anna")

    services.pool_join(user=anna, pool="3+2", now=at(0))
    services.pool_join(user=anna, pool="3+2", now=at(9))

    assert PoolEntry.objects.get().joined_at == at(0)


def test_a_player_in_a_live_game_cannot_join(make_player):
    anna, boris = make_player("anna"), make_player("boris")
    match_create(players=[Player(user=anna), Player(user=boris)], time_control=TimeControl(60))

    with pytest.raises(MatchmakingError) as refused:
        services.pool_join(user=anna, pool="3+2")

    assert refused.value.code == errors.IN_GAME
    assert not PoolEntry.objects.exists()


def test_after_an_aborted_game_the_player_may_join_again(make_player):
    anna, boris = make_player("anna"), make_player("boris")
    match = match_create(players=[Player(user=anna), Player(user=boris)],
                         time_control=TimeControl(60))
    match_abort(match_id=match.pk, seat=0)

    services.pool_join(user=anna, pool="3+2")

    assert PoolEntry.objects.filter(user=anna).exists()


def test_an_entry_whose_socket_stopped_renewing_it_is_not_paired(make_player):
    anna, boris = make_player("anna"), make_player("boris")
    services.pool_join(user=anna, pool="3+2", now=at(0))

    # 15 s without a heartbeat: anna's entry is dead when boris arrives.
    assert services.pool_join(user=boris, pool="3+2", now=at(16)) == []
    assert list(PoolEntry.objects.values_list("user__username", flat=True)) == ["boris"]


def test_the_heartbeat_keeps_an_entry_alive_and_closing_the_socket_removes_it(make_player):
    anna = make_player("anna")
    services.pool_join(user=anna, pool="3+2", channel_name="chan-a", now=at(0))

    assert services.lobby_heartbeat(user=anna, channel_name="chan-a", now=at(10)) == "3+2"
    assert services.lobby_heartbeat(user=anna, channel_name="chan-a", now=at(20)) == "3+2"
    services.lobby_socket_closed(channel_name="chan-a")

    assert not PoolEntry.objects.exists()


def test_many_waiting_players_are_paired_by_nearest_rating(make_player):
    ratings = {"a": 1500, "b": 1900, "c": 1510, "d": 1890, "e": 1200, "f": 1210}
    users = {name: make_player(name, rating) for name, rating in ratings.items()}
    for name, user in users.items():
        PoolEntry.objects.create(user=user, pool_id="3+2", rating=ratings[name],
                                 joined_at=at(0), alive_until=at(100))
    from games.matchmaking.models import Pool

    Pool.objects.create(key="3+2")

    matches = services.pool_wave(pool="3+2", now=at(1))

    assert sorted(sorted(players_of(m)) for m in matches) == [
        ["a", "c"], ["b", "d"], ["e", "f"],
    ]


def test_an_unknown_pool_is_refused(make_player):
    with pytest.raises(MatchmakingError) as refused:
        services.pool_join(user=make_player(), pool="2+0")

    assert refused.value.code == errors.UNKNOWN_TIME_CONTROL


# --- seeks ------------------------------------------------------------------------------------


def test_an_accepted_seek_starts_a_match_and_vanishes(make_player):
    anna, boris = make_player("anna", 1600), make_player("boris")
    seek = services.seek_create(user=anna, time_control="5+3", rated=False)

    match = services.seek_accept(user=boris, seek_id=seek.pk)

    assert players_of(match) == {"anna", "boris"}
    assert not match.rated
    assert (match.clock_initial, match.clock_increment) == (300, 3)
    assert not Seek.objects.exists()


def test_one_cannot_accept_ones_own_seek(make_player):
    anna = make_player("anna")
    seek = services.seek_create(user=anna, time_control="5+3", rated=True)

    with pytest.raises(MatchmakingError) as refused:
        services.seek_accept(user=anna, seek_id=seek.pk)

    assert refused.value.code == errors.OWN


def test_a_seek_accepted_twice_starts_one_match(make_player):
    anna, boris, carl = make_player("anna"), make_player("boris"), make_player("carl")
    seek = services.seek_create(user=anna, time_control="5+3", rated=True)
    services.seek_accept(user=boris, seek_id=seek.pk)

    with pytest.raises(MatchmakingError) as refused:
        services.seek_accept(user=carl, seek_id=seek.pk)

    assert refused.value.code == errors.GONE
    assert Match.objects.count() == 1


def test_the_seek_of_a_creator_who_left_is_gone(make_player):
    anna, boris = make_player("anna"), make_player("boris")
    seek = services.seek_create(user=anna, time_control="1+1", rated=True, channel_name="ch-a")

    services.lobby_socket_closed(channel_name="ch-a")

    with pytest.raises(MatchmakingError):
        services.seek_accept(user=boris, seek_id=seek.pk)


def test_being_paired_withdraws_the_players_seeks(make_player):
    anna, boris = make_player("anna"), make_player("boris")
    services.seek_create(user=anna, time_control="10+5", rated=True)
    services.pool_join(user=anna, pool="1+1")
    services.pool_join(user=boris, pool="1+1")

    assert not Seek.objects.exists()


def test_seeks_per_player_are_limited(make_player):
    anna = make_player("anna")
    for _ in range(services.MAX_OPEN_SEEKS):
        services.seek_create(user=anna, time_control="1+1", rated=True)

    with pytest.raises(MatchmakingError) as refused:
        services.seek_create(user=anna, time_control="1+1", rated=True)

    assert refused.value.code == errors.TOO_MANY_SEEKS


# --- challenges -------------------------------------------------------------------------------


def test_a_challenge_to_a_user_is_accepted_by_that_user_only(make_player):
    anna, boris, carl = make_player("anna"), make_player("boris"), make_player("carl")
    challenge = services.challenge_create(
        challenger=anna, challenged=boris, time_control="3+2", rated=True
    )

    with pytest.raises(MatchmakingError) as refused:
        services.challenge_accept(user=carl, token=challenge.token)
    match = services.challenge_accept(user=boris, token=challenge.token)

    assert refused.value.code == errors.NOT_FOR_YOU
    assert players_of(match) == {"anna", "boris"}
    challenge.refresh_from_db()
    assert challenge.status == ChallengeStatus.ACCEPTED
    assert challenge.match == match


def test_an_open_challenge_link_is_accepted_by_the_first_comer(make_player):
    anna, boris, carl = make_player("anna"), make_player("boris"), make_player("carl")
    challenge = services.challenge_create(
        challenger=anna, challenged=None, time_control="1+1", rated=False
    )

    services.challenge_accept(user=carl, token=challenge.token)

    with pytest.raises(MatchmakingError) as refused:
        services.challenge_accept(user=boris, token=challenge.token)
    assert refused.value.code == errors.GONE
    assert Challenge.objects.get().challenged == carl


def test_a_declined_challenge_cannot_be_accepted(make_player):
    anna, boris = make_player("anna"), make_player("boris")
    challenge = services.challenge_create(
        challenger=anna, challenged=boris, time_control="1+1", rated=True
    )

    services.challenge_decline(user=boris, token=challenge.token)

    with pytest.raises(MatchmakingError) as refused:
        services.challenge_accept(user=boris, token=challenge.token)
    assert refused.value.code == errors.GONE
    assert Challenge.objects.get().status == ChallengeStatus.DECLINED


def test_a_challenge_expires(make_player, settings):
    anna, boris = make_player("anna"), make_player("boris")
    challenge = services.challenge_create(
        challenger=anna, challenged=boris, time_control="1+1", rated=True, now=at(0)
    )

    with pytest.raises(MatchmakingError) as refused:
        services.challenge_accept(user=boris, token=challenge.token, now=at(10 * 60 + 1))

    assert refused.value.code == errors.EXPIRED
    assert not Match.objects.exists()


def test_one_cannot_challenge_oneself(make_player):
    anna = make_player("anna")

    with pytest.raises(MatchmakingError) as refused:
        services.challenge_create(challenger=anna, challenged=anna, time_control="1+1",
                                  rated=True)

    assert refused.value.code == errors.OWN


def test_accepting_while_the_challenger_plays_elsewhere_is_refused(make_player):
    anna, boris, carl = make_player("anna"), make_player("boris"), make_player("carl")
    challenge = services.challenge_create(
        challenger=anna, challenged=boris, time_control="1+1", rated=True
    )
    match_create(players=[Player(user=anna), Player(user=carl)], time_control=TimeControl(60))

    with pytest.raises(MatchmakingError) as refused:
        services.challenge_accept(user=boris, token=challenge.token)

    assert refused.value.code == errors.OPPONENT_IN_GAME
    assert Match.objects.filter(status=Status.TRUMPS).count() == 1


# --- rate limits ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "call"),
    [
        ("pool_join", lambda user, i: services.pool_join(user=user, pool="3+2")),
        ("seek_create", lambda user, i: (services.seek_create(user=user, time_control="1+1",
                                                              rated=True), Seek.objects.all()
                                         .delete())),
        ("challenge_create", lambda user, i: services.challenge_create(
            challenger=user, challenged=None, time_control="1+1", rated=True)),
    ],
)
def test_rate_limits_refuse_with_a_clear_message(make_player, settings, action, call):
    settings.MATCHMAKING_RATE_LIMITS = {**settings.MATCHMAKING_RATE_LIMITS, action: (3, 60)}
    user = make_player()
    for i in range(3):
        call(user, i)

    with pytest.raises(MatchmakingError) as refused:
        call(user, 3)

    assert refused.value.code == errors.RATE_LIMITED
    assert "too often" in refused.value.message
    assert re.search(r"wait \d+ seconds?\.", refused.value.message)


def test_a_seek_whose_socket_stopped_renewing_it_leaves_the_lobby(make_player):
    from games.matchmaking import selectors

    anna = make_player("anna")
    services.seek_create(user=anna, time_control="1+1", rated=True, channel_name="c", now=at(0))

    assert [s["player"] for s in selectors.lobby_seeks(now=at(10))] == ["anna"]
    services.lobby_heartbeat(user=anna, channel_name="c", now=at(10))
    assert [s["player"] for s in selectors.lobby_seeks(now=at(20))] == ["anna"]
    assert selectors.lobby_seeks(now=at(26)) == []  # its process died: nobody renewed it


def test_a_fresh_game_against_the_ai_is_not_taken_for_a_pairing(make_player):
    from games.matchmaking import selectors

    anna, boris = make_player("anna"), make_player("boris")
    match_create(players=[Player(user=anna), Player(ai_level=1)], time_control=TimeControl(60))
    human = match_create(players=[Player(user=boris), Player(user=make_player())],
                         time_control=TimeControl(60))

    assert selectors.fresh_match_id(user=anna) is None
    assert selectors.fresh_match_id(user=boris) == human.pk
