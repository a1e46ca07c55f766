"""Correspondence tables (`games.matchmaking.tables` with days per move): created with the
correspondence controls, listed with their marker, filled over days without a lobby socket
keeping the seats, played beside every other game, started when full."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounts.models import RatingMode
from games.matchmaking import errors, selectors, services, tables
from games.matchmaking.errors import MatchmakingError
from games.matchmaking.models import TableSeat
from games.play.models import Match, Seat, Status
from games.play.services import Player, match_create
from games.play.time_control import DAY, TimeControl
from tests.games.matchmaking.conftest import at

pytestmark = pytest.mark.django_db

DAYS = 24 * 3600


def test_a_table_of_days_per_move_is_listed_with_its_marker(make_player):
    anna = make_player("anna")
    table = tables.table_create(user=anna, players=4, time_control="3d", rated=False,
                                public=True, now=at(0))

    assert (table.correspondence, table.clock_initial, table.clock_increment) == (
        True, 3 * DAY, 0)
    assert TimeControl.of(table) == TimeControl.parse("3d")
    [row] = selectors.lobby_tables(now=at(1))
    assert (row["time_control"], row["correspondence"]) == ("3d", True)
    live = tables.table_create(user=make_player("boris"), players=3, time_control="3+2",
                               rated=False, public=True, now=at(2))
    assert not live.correspondence
    assert [r["correspondence"] for r in selectors.lobby_tables(now=at(3))] == [True, False]


def test_the_untimed_correspondence_game_is_not_a_table(make_player):
    with pytest.raises(MatchmakingError) as refused:
        tables.table_create(user=make_player(), players=3, time_control="corr", rated=False,
                            public=True)
    assert refused.value.code == errors.UNKNOWN_TIME_CONTROL


def test_its_seats_stay_without_a_lobby_socket_for_days_and_are_left_by_choice(make_player):
    anna, boris, vera = make_player("anna"), make_player("boris"), make_player("vera")
    table = tables.table_create(user=anna, players=4, time_control="1d", rated=False,
                                public=True, now=at(0))
    tables.table_join(user=boris, token=table.token, now=at(60))
    live = tables.table_create(user=vera, players=3, time_control="untimed", rated=False,
                               public=True, now=at(0))

    # Nobody's lobby socket renewed anything: the live table's seat lapses, these stay.
    assert tables.tables_expire(now=at(5 * DAYS)) == 1
    assert not TableSeat.objects.filter(table=live).exists()
    assert sorted(TableSeat.objects.filter(table=table).values_list("user__username", flat=True)
                  ) == ["anna", "boris"]
    lobby = selectors.user_lobby_state(user=boris, now=at(5 * DAYS))
    assert lobby["table"] is None
    assert [(own["table"]["token"], own["can_start"]) for own in lobby["correspondence_tables"]
            ] == [(table.token, False)]

    assert tables.table_leave(user=boris, token=table.token)
    assert list(TableSeat.objects.filter(table=table).values_list("user__username", flat=True)
                ) == ["anna"]
    tables.table_seats_renew(user=anna, now=at(6 * DAYS))  # a lobby socket opens: nothing lapses
    assert TableSeat.objects.get(table=table).alive_until is None


def test_a_player_in_a_live_game_may_sit_down_and_keeps_the_seat_when_paired(
    make_player, django_capture_on_commit_callbacks
):
    anna, boris, vera = make_player("anna"), make_player("boris"), make_player("vera")
    match_create(players=[Player(user=boris), Player(user=vera)],
                 time_control=TimeControl.parse("3+2"))  # boris plays a live duel
    table = tables.table_create(user=anna, players=3, time_control="2d", rated=False,
                                public=True)
    tables.table_join(user=boris, token=table.token)

    # Anna is paired for a live duel: her seat at the correspondence table is kept.
    carol = make_player("carol")
    with django_capture_on_commit_callbacks(execute=True):
        seek = services.seek_create(user=carol, time_control="3+2", rated=False)
        services.seek_accept(user=anna, seek_id=seek.pk)
    assert TableSeat.objects.filter(table=table, user=anna).exists()
    assert selectors.lobby_tables()[0]["seats"][0]["player"] == "anna"


def test_a_live_table_seat_still_goes_when_its_person_is_paired(
    make_player, django_capture_on_commit_callbacks
):
    anna, boris, carol = make_player("anna"), make_player("boris"), make_player("carol")
    table = tables.table_create(user=anna, players=3, time_control="untimed", rated=False,
                                public=True)
    tables.table_join(user=boris, token=table.token)
    with django_capture_on_commit_callbacks(execute=True):
        seek = services.seek_create(user=carol, time_control="3+2", rated=False)
        services.seek_accept(user=boris, seek_id=seek.pk)
    assert not TableSeat.objects.filter(user=boris).exists()


def test_it_starts_when_full_with_the_ai_on_the_days_per_move_clock(make_player):
    anna, boris = make_player("anna"), make_player("boris")
    table = tables.table_create(user=anna, players=4, time_control="2d", rated=False,
                                public=True, now=at(0))
    tables.table_join(user=boris, token=table.token, now=at(3 * DAYS))
    tables.table_fill_ai(user=anna, token=table.token, seat=2, level=2)
    tables.table_fill_ai(user=anna, token=table.token, seat=3, level=3)
    start = at(4 * DAYS)
    match = tables.table_start(user=anna, token=table.token, now=start)

    assert (match.n_players, match.correspondence, match.clock_initial, match.status) == (
        4, True, 2 * DAY, Status.TRUMPS)
    seats = list(Seat.objects.filter(match=match).order_by("index"))
    assert [(s.user_id, s.ai_level) for s in seats] == [
        (anna.pk, None), (boris.pk, None), (None, 2), (None, 3)]
    assert all(s.clock_ms == 2 * DAY * 1000 for s in seats)
    # The deadline is the chooser's days (less the reminder's quarter while it is unsent).
    assert match.due_at is not None
    assert start < match.due_at <= start + timedelta(days=2)
    assert selectors.lobby_tables() == []


def test_a_rated_table_of_people_starts_by_itself_on_the_table_rating(make_player):
    anna, boris, vera = make_player("anna"), make_player("boris"), make_player("vera")
    table = tables.table_create(user=anna, players=3, time_control="1d", rated=True,
                                public=False)
    tables.table_join(user=boris, token=table.token)
    match = tables.table_join(user=vera, token=table.token)

    assert isinstance(match, Match)
    assert match.rated
    assert match.correspondence
    assert match.rating_mode == RatingMode.TABLE


def test_a_person_sits_at_one_live_table_beside_correspondence_ones(
    make_player, django_capture_on_commit_callbacks
):
    anna, boris, vera = make_player("anna"), make_player("boris"), make_player("vera")
    days = tables.table_create(user=anna, players=3, time_control="5d", rated=False,
                               public=True)
    other_days = tables.table_create(user=boris, players=3, time_control="1d", rated=False,
                                     public=True)
    live = tables.table_create(user=vera, players=3, time_control="untimed", rated=False,
                               public=True)

    tables.table_join(user=anna, token=live.token)  # beside her correspondence table
    tables.table_join(user=anna, token=other_days.token)  # and a second one
    with pytest.raises(MatchmakingError) as refused:
        tables.table_join(user=anna, token=tables.table_create(
            user=make_player(), players=3, time_control="3+2", rated=False, public=True).token)
    assert refused.value.code == errors.ALREADY_SEATED
    with pytest.raises(MatchmakingError):
        tables.table_create(user=anna, players=4, time_control="3+2", rated=False, public=True)

    lobby = selectors.user_lobby_state(user=anna)
    assert lobby["table"]["token"] == live.token
    assert [own["table"]["token"] for own in lobby["correspondence_tables"]] == [
        days.token, other_days.token]
    # The live table starts (its creator fills the rest with the AI): her other seats stay.
    tables.table_fill_ai(user=vera, token=live.token, seat=2, level=1)
    with django_capture_on_commit_callbacks(execute=True):
        tables.table_start(user=vera, token=live.token)
    assert TableSeat.objects.filter(table=days, user=anna).exists()
    assert TableSeat.objects.filter(table=other_days, user=anna).exists()
    assert selectors.user_lobby_state(user=anna)["table"] is None
