"""Tables for 3 and 4 (`games.matchmaking.tables`): creating, sitting down, the AI in empty
seats, starting, leaving, lapsing; and the quick pairing of tables."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings

from accounts.models import PlayerRating, RatingMode
from games.matchmaking import errors, selectors, services, tables
from games.matchmaking.errors import MatchmakingError
from games.matchmaking.models import Pool, PoolEntry, Table, TableSeat
from games.play.models import Match, Seat
from tests.games.matchmaking.conftest import at

pytestmark = pytest.mark.django_db


def seated(match: Match) -> list[tuple[str | None, int | None]]:
    return [(seat.user.username if seat.user else None, seat.ai_level)
            for seat in Seat.objects.filter(match=match).select_related("user").order_by("index")]


def test_a_table_of_four_people_starts_by_itself_seated_as_they_sat(make_player):
    anna, boris, vera, gleb = (make_player(n) for n in ("anna", "boris", "vera", "gleb"))
    table = tables.table_create(user=anna, players=4, time_control="3+2", rated=True,
                                public=True, now=at(0))

    assert tables.table_join(user=boris, token=table.token, seat=3, now=at(1)) is None
    assert tables.table_join(user=vera, token=table.token, now=at(2)) is None
    match = tables.table_join(user=gleb, token=table.token, now=at(3))

    assert match is not None
    assert seated(match) == [("anna", None), ("vera", None), ("gleb", None), ("boris", None)]
    assert (match.n_players, match.rated, match.clock_initial, match.clock_increment) == (
        4, True, 180, 2)
    table.refresh_from_db()
    assert table.match_id == match.pk
    assert not TableSeat.objects.exists()
    assert selectors.lobby_tables() == []


def test_the_lobby_lists_a_public_table_with_its_seats_and_the_seated_player_sees_it(
    make_player
):
    anna, boris = make_player("anna", 1900), make_player("boris")
    PlayerRating.objects.create(user=anna, mode=RatingMode.TABLE, rating=1620, deviation=60)
    table = tables.table_create(user=anna, players=3, time_control="untimed", rated=False,
                                public=True)
    tables.table_fill_ai(user=anna, token=table.token, seat=2, level=3)

    [row] = selectors.lobby_tables()
    assert [(s["kind"], s["player"], s["rating"], s["ai_level"]) for s in row["seats"]] == [
        ("person", "anna", 1620, None), ("empty", None, None, None), ("ai", None, None, 3)]
    assert row["time_control"] == "untimed"
    assert selectors.user_lobby_state(user=anna)["table"] == row
    assert selectors.user_lobby_state(user=anna)["can_start"] is False
    assert selectors.user_lobby_state(user=boris)["table"] is None


def test_a_private_table_is_not_listed_but_its_link_seats_people(make_player):
    anna, boris = make_player("anna"), make_player("boris")
    table = tables.table_create(user=anna, players=3, time_control="5+3", rated=False,
                                public=False)

    assert selectors.lobby_tables() == []
    tables.table_join(user=boris, token=table.token)
    assert selectors.user_lobby_state(user=boris)["table"]["token"] == table.token


def test_the_creator_fills_the_empty_seats_with_the_ai_and_starts(make_player):
    anna = make_player("anna")
    table = tables.table_create(user=anna, players=4, time_control="untimed", rated=False,
                                public=True)
    for seat, level in ((1, 1), (2, 4), (3, 2)):
        tables.table_fill_ai(user=anna, token=table.token, seat=seat, level=level)
    assert selectors.user_lobby_state(user=anna)["can_start"] is True

    match = tables.table_start(user=anna, token=table.token)

    assert seated(match) == [("anna", None), (None, 1), (None, 4), (None, 2)]
    assert match.clock_initial is None
    assert not match.rated
    # A start asked for again (a retried request) is the same match, not a second one.
    assert tables.table_start(user=anna, token=table.token) == match
    assert Match.objects.count() == 1


def test_the_ai_can_be_taken_out_of_a_seat_again(make_player):
    anna, boris = make_player("anna"), make_player("boris")
    table = tables.table_create(user=anna, players=3, time_control="untimed", rated=False,
                                public=True)
    tables.table_fill_ai(user=anna, token=table.token, seat=1, level=2)

    assert tables.table_seat_clear(user=anna, token=table.token, seat=1) is True
    assert tables.table_seat_clear(user=anna, token=table.token, seat=1) is False
    tables.table_join(user=boris, token=table.token, seat=1)
    assert TableSeat.objects.get(table=table, index=1).user == boris


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"players": 5, "time_control": "3+2", "rated": False}, errors.BAD_TABLE),
        ({"players": 2, "time_control": "3+2", "rated": False}, errors.BAD_TABLE),
        ({"players": 4, "time_control": "7+7", "rated": False}, errors.UNKNOWN_TIME_CONTROL),
        ({"players": 4, "time_control": "4/3+2", "rated": False},
         errors.UNKNOWN_TIME_CONTROL),
    ],
)
def test_a_table_that_cannot_be_is_refused(make_player, kwargs, code):
    with pytest.raises(MatchmakingError) as refused:
        tables.table_create(user=make_player(), public=True, **kwargs)
    assert refused.value.code == code
    assert not Table.objects.exists()


def test_what_only_the_creator_may_do_and_what_a_rated_table_refuses(make_player):
    anna, boris = make_player("anna"), make_player("boris")
    table = tables.table_create(user=anna, players=3, time_control="3+2", rated=True,
                                public=True)
    tables.table_join(user=boris, token=table.token)

    for call in (
        lambda: tables.table_fill_ai(user=boris, token=table.token, seat=2, level=3),
        lambda: tables.table_start(user=boris, token=table.token),
    ):
        with pytest.raises(MatchmakingError) as refused:
            call()
        assert refused.value.code == errors.NOT_CREATOR
    with pytest.raises(MatchmakingError) as refused:
        tables.table_fill_ai(user=anna, token=table.token, seat=2, level=3)
    assert refused.value.code == errors.BAD_TABLE  # people only at a rated table
    with pytest.raises(MatchmakingError) as refused:
        tables.table_start(user=anna, token=table.token)
    assert refused.value.code == errors.NOT_FULL


def test_seats_taken_twice_or_out_of_range_are_refused(make_player):
    anna, boris, vera = make_player("anna"), make_player("boris"), make_player("vera")
    table = tables.table_create(user=anna, players=3, time_control="untimed", rated=False,
                                public=True)
    tables.table_join(user=boris, token=table.token, seat=1)

    for seat, code in ((1, errors.SEAT_TAKEN), (0, errors.SEAT_TAKEN), (3, errors.BAD_TABLE)):
        with pytest.raises(MatchmakingError) as refused:
            tables.table_join(user=vera, token=table.token, seat=seat)
        assert refused.value.code == code
    with pytest.raises(MatchmakingError) as refused:
        tables.table_fill_ai(user=anna, token=table.token, seat=1, level=3)
    assert refused.value.code == errors.SEAT_TAKEN
    with pytest.raises(MatchmakingError) as refused:
        tables.table_fill_ai(user=anna, token=table.token, seat=2, level=99)
    assert refused.value.code == errors.BAD_TABLE
    # Sitting down again where one sits is a retried request: nothing changes.
    assert tables.table_join(user=boris, token=table.token) is None
    assert tables.table_join(user=boris, token=table.token, seat=1) is None
    assert TableSeat.objects.filter(table=table).count() == 2


def test_a_person_sits_at_one_table_at_a_time(make_player):
    anna, boris = make_player("anna"), make_player("boris")
    first = tables.table_create(user=anna, players=3, time_control="untimed", rated=False,
                                public=True)
    second = tables.table_create(user=boris, players=3, time_control="untimed", rated=False,
                                 public=True)

    with pytest.raises(MatchmakingError) as refused:
        tables.table_join(user=anna, token=second.token)
    assert refused.value.code == errors.ALREADY_SEATED
    with pytest.raises(MatchmakingError) as refused:
        tables.table_create(user=anna, players=4, time_control="untimed", rated=False,
                            public=True)
    assert refused.value.code == errors.ALREADY_SEATED
    assert tables.table_leave(user=boris, token=second.token) is True
    tables.table_join(user=boris, token=first.token)


def test_leaving_frees_the_seat_and_the_creator_leaving_closes_the_table(make_player):
    anna, boris = make_player("anna"), make_player("boris")
    table = tables.table_create(user=anna, players=3, time_control="untimed", rated=False,
                                public=True)
    tables.table_join(user=boris, token=table.token)

    assert tables.table_leave(user=boris, token=table.token) is True
    assert tables.table_leave(user=boris, token=table.token) is False
    tables.table_join(user=boris, token=table.token)
    assert tables.table_leave(user=anna, token=table.token) is True
    assert not Table.objects.exists()
    assert not TableSeat.objects.exists()
    with pytest.raises(MatchmakingError) as refused:
        tables.table_join(user=boris, token=table.token)
    assert refused.value.code == errors.GONE


def test_seats_whose_lobby_is_gone_lapse(make_player):
    anna, boris = make_player("anna"), make_player("boris")
    table = tables.table_create(user=anna, players=3, time_control="untimed", rated=False,
                                public=True, now=at(0))
    tables.table_join(user=boris, token=table.token, now=at(0))
    tables.table_seats_renew(user=anna, now=at(10))

    assert tables.tables_expire(now=at(20)) == 1  # boris's lapsed at 15 s, anna's at 25 s
    assert list(TableSeat.objects.values_list("user__username", flat=True)) == ["anna"]
    assert tables.tables_expire(now=at(20)) == 0
    assert tables.tables_expire(now=at(30)) == 1
    assert not Table.objects.exists()


def test_a_player_paired_elsewhere_leaves_the_table(
    make_player, django_capture_on_commit_callbacks
):
    anna, boris, vera = make_player("anna", 1500), make_player("boris", 1500), make_player("vera")
    table = tables.table_create(user=vera, players=3, time_control="untimed", rated=False,
                                public=True)
    tables.table_join(user=anna, token=table.token)
    services.pool_join(user=boris, pool="3+2")
    with django_capture_on_commit_callbacks(execute=True):
        services.pool_join(user=anna, pool="3+2")  # a duel: anna gets up from the table

    assert list(TableSeat.objects.values_list("user__username", flat=True)) == ["vera"]
    with pytest.raises(MatchmakingError) as refused:
        tables.table_join(user=anna, token=table.token)
    assert refused.value.code == errors.IN_GAME


def test_four_players_of_similar_ratings_in_a_table_pool_sit_at_one_rated_table(make_player):
    players = [make_player(f"p{i}", 2400) for i in range(4)]  # their duel ratings: not used
    for i, user in enumerate(players):
        PlayerRating.objects.create(user=user, mode=RatingMode.TABLE, rating=1500 + 30 * i)
    far = make_player("far", 1500)
    PlayerRating.objects.create(user=far, mode=RatingMode.TABLE, rating=2400)
    services.pool_join(user=far, pool="4/3+2")
    matches = []
    for user in players:
        matches += services.pool_join(user=user, pool="4/3+2")

    [match] = matches
    assert match.n_players == 4
    assert match.rated
    assert {name for name, _level in seated(match)} == {f"p{i}" for i in range(4)}
    assert list(PoolEntry.objects.values_list("user__username", flat=True)) == ["far"]
    assert {p["key"]: p["waiting"] for p in selectors.pools()}["4/3+2"] == 1


@override_settings(MATCHMAKING_TABLE_FILL_AI_SECONDS=30)
def test_after_a_wait_the_player_of_a_table_pool_may_take_the_ai_in_the_other_seats(
    make_player
):
    anna = make_player("anna")
    PlayerRating.objects.create(user=anna, mode=RatingMode.TABLE, rating=1800)
    duelist = make_player("duelist")
    services.pool_join(user=duelist, pool="3+2")
    entry_time = PoolEntry.objects.get(user=duelist).joined_at
    services.pool_join(user=anna, pool="3/5+3", now=entry_time)

    state = selectors.user_lobby_state(user=anna, now=entry_time)["searching"]
    assert state["fill_ai_at_ms"] == state["since_ms"] + 30_000
    assert selectors.user_lobby_state(user=duelist, now=entry_time)["searching"][
        "fill_ai_at_ms"] is None
    for user in (anna, duelist):  # their lobby sockets keep them waiting
        for seconds in (10, 20):
            services.lobby_heartbeat(user=user, channel_name="",
                                     now=entry_time + timedelta(seconds=seconds))
    with pytest.raises(MatchmakingError) as refused:
        tables.pool_fill_ai(user=anna, now=entry_time + timedelta(seconds=29))
    assert refused.value.code == errors.NOT_WAITING
    with pytest.raises(MatchmakingError) as refused:
        tables.pool_fill_ai(user=duelist, now=entry_time + timedelta(seconds=31))
    assert refused.value.code == errors.NOT_WAITING

    match = tables.pool_fill_ai(user=anna, now=entry_time + timedelta(seconds=31))

    assert match.n_players == 3
    assert not match.rated
    kinds = seated(match)
    assert sorted(kinds, key=str) == sorted([("anna", None), (None, 4), (None, 4)], key=str)
    assert not PoolEntry.objects.filter(user=anna).exists()
    assert Pool.objects.filter(key="3/5+3").exists()


def test_a_private_tables_link_seats_the_visitor_and_leads_to_the_match_once_started(
    make_player, client
):
    anna, boris = make_player("anna"), make_player("boris")
    table = tables.table_create(user=anna, players=3, time_control="untimed", rated=False,
                                public=False)
    tables.table_fill_ai(user=anna, token=table.token, seat=2, level=1)
    page = f"/table/{table.token}/"

    assert client.get(page).status_code == 200  # a guest sees the table, and a log-in link
    client.force_login(boris)
    shown = client.get(page)
    assert b'data-testid="table-page-join"' in shown.content
    joined = client.post(f"{page}join/", {"seat": "1"})
    assert joined.status_code == 302
    assert joined["Location"] == "/lobby/"
    assert TableSeat.objects.get(table=table, index=1).user == boris
    refused = client.post(f"{page}join/", {"seat": "2"})  # already seated, at another seat
    assert refused["Location"] == page

    match = tables.table_start(user=anna, token=table.token)
    assert client.get(page)["Location"] == f"/game/{match.pk}/"
    assert client.get("/table/no-such-table/").status_code == 404
