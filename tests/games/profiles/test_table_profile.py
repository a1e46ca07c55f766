"""The table rating on the profile (its number, record and chart beside the duel's), the
leaderboard's table tab, and the links to watch a player's live games."""

from __future__ import annotations

import pytest

from accounts.models import PlayerRating, RatingMode
from games.play.models import Seat
from games.play.services import Player
from games.play.time_control import TimeControl
from tests.games.replays.conftest import play_match

pytestmark = pytest.mark.django_db

NAMES = (f"player{i}" for i in range(1, 10**6))


def test_a_rated_table_shows_on_the_profile_beside_the_duel(client, make_user):
    users = [make_user(next(NAMES)) for _ in range(3)]
    match = play_match([Player(user=u) for u in users], seed=28, rated=True)
    assert match.is_over
    seat = Seat.objects.get(match=match, user=users[0])
    assert seat.rating_after is not None

    page = client.get(f"/@/{users[0].username}")
    html = page.content.decode()
    assert page.context["table_rating"].rating == round(seat.rating_after)
    assert 'data-testid="table-rating"' in html
    assert page.context["table_record"].played == 1
    assert 'data-testid="table-rating-chart"' in html
    # The duel's own chart has no point from the table.
    assert 'data-testid="no-rated-games"' in html
    assert page.context["rating"].games == 0


def test_a_duel_player_sees_no_table_section(client, make_user):
    alice, bob = make_user(next(NAMES)), make_user(next(NAMES))
    play_match([Player(user=alice), Player(user=bob)], rated=True,
               time_control=TimeControl(180, 2))
    html = client.get(f"/@/{alice.username}").content.decode()
    assert 'data-testid="rating-chart"' in html
    assert 'data-testid="tables"' not in html


def test_the_leaderboard_has_a_table_tab(client, make_user):
    duelist, table_player, newcomer = (make_user(next(NAMES)) for _ in range(3))
    PlayerRating.objects.update_or_create(user=duelist, mode=RatingMode.DUEL, defaults={
        "rating": 1700, "deviation": 60, "games": 30})
    PlayerRating.objects.create(user=table_player, mode=RatingMode.TABLE, rating=1650,
                                deviation=80, games=30)
    PlayerRating.objects.create(user=newcomer, mode=RatingMode.TABLE, rating=1900,
                                deviation=200, games=2)  # provisional: listed unranked

    duels = client.get("/leaderboard/")
    tables = client.get("/leaderboard/", {"mode": "table"})

    assert [r.username for r in duels.context["board"].established] == [duelist.username]
    assert table_player.username not in [r.username for r in duels.context["board"].provisional]
    assert [r.username for r in tables.context["board"].established] == [table_player.username]
    assert [r.username for r in tables.context["board"].provisional] == [newcomer.username]
    assert tables.context["mode"] == RatingMode.TABLE
    assert 'data-testid="tab-table"' in tables.content.decode()
    unknown = client.get("/leaderboard/", {"mode": "<x>"})
    assert unknown.status_code == 400
    assert unknown.context["mode"] == RatingMode.DUEL
    assert 'data-testid="leaderboard-unknown"' in unknown.content.decode()


def test_the_leaderboard_has_a_correspondence_tab_of_its_own(client, make_user):
    live, correspondent = (make_user(next(NAMES)) for _ in range(2))
    PlayerRating.objects.update_or_create(user=live, mode=RatingMode.DUEL, defaults={
        "rating": 1700, "deviation": 60, "games": 30})
    PlayerRating.objects.create(user=correspondent, mode=RatingMode.CORRESPONDENCE,
                                rating=1600, deviation=60, games=20)

    board = client.get("/leaderboard/", {"mode": "correspondence"})

    assert board.status_code == 200
    assert [r.username for r in board.context["board"].established] == [correspondent.username]
    assert 'data-testid="tab-correspondence"' in board.content.decode()


def test_a_player_s_profile_links_to_their_live_public_tables(client, make_user):
    users = [make_user(next(NAMES)) for _ in range(4)]
    live = play_match([Player(user=u) for u in users], seed=9, moves=6)
    private = play_match([Player(user=u) for u in users], seed=10, moves=6, public=False)
    assert not live.is_over
    html = client.get(f"/@/{users[2].username}").content.decode()
    assert f'href="/game/{live.pk}/"' in html
    assert f"/game/{private.pk}/" not in html
