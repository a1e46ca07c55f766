"""The pages of matchmaking: lobby, challenges, leaderboard (Django's test client)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import PlayerRating
from games.matchmaking import services
from games.matchmaking.models import Challenge, PoolEntry
from games.play.models import Seat
from games.play.time_control import LIVE

pytestmark = pytest.mark.django_db


def test_the_lobby_needs_an_account(client):
    response = client.get(reverse("matchmaking:lobby"))

    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


def test_the_lobby_shows_the_four_pools(client, make_player):
    client.force_login(make_player())

    page = client.get(reverse("matchmaking:lobby")).content.decode()

    for pool in ("1+1", "3+2", "5+3", "10+5"):
        assert f'data-pool="{pool}"' in page


def test_the_home_buttons_join_a_pool_without_script(client, make_player):
    anna = make_player("anna")
    client.force_login(anna)

    response = client.post(reverse("matchmaking:pool_join"), {"pool": "5+3"})

    assert response["Location"] == reverse("matchmaking:lobby")
    assert PoolEntry.objects.get(user=anna).pool_id == "5+3"


def test_a_rate_limited_join_says_why(client, make_player, settings):
    settings.MATCHMAKING_RATE_LIMITS = {**settings.MATCHMAKING_RATE_LIMITS, "pool_join": (1, 60)}
    client.force_login(make_player())
    client.post(reverse("matchmaking:pool_join"), {"pool": "5+3"})

    page = client.post(reverse("matchmaking:pool_join"), {"pool": "5+3"}, follow=True)

    assert "too often" in page.content.decode()


def test_a_challenge_from_the_form_to_a_named_player(client, make_player):
    anna, boris = make_player("anna"), make_player("boris")
    client.force_login(anna)

    form = client.get(reverse("matchmaking:challenge_new") + "?to=boris").content.decode()
    response = client.post(reverse("matchmaking:challenge_new"),
                           {"opponent": "Boris", "time_control": "3+2", "rated": "on"})

    assert 'value="boris"' in form
    challenge = Challenge.objects.get()
    assert challenge.challenged == boris
    assert response["Location"] == reverse("matchmaking:challenge", args=[challenge.token])


def test_a_challenge_to_nobody_by_that_name_is_refused_at_its_field(client, make_player):
    client.force_login(make_player())

    page = client.post(reverse("matchmaking:challenge_new"),
                       {"opponent": "ghost", "time_control": "3+2"}).content.decode()

    assert "No player has that name." in page
    assert not Challenge.objects.exists()


def test_a_challenge_link_accepted_leads_both_to_the_match(client, make_player):
    anna, boris = make_player("anna"), make_player("boris")
    challenge = services.challenge_create(challenger=anna, challenged=None,
                                          time_control="1+1", rated=False)
    client.force_login(boris)

    page = client.get(reverse("matchmaking:challenge", args=[challenge.token])).content.decode()
    response = client.post(reverse("matchmaking:challenge_accept", args=[challenge.token]))
    client.force_login(anna)
    again = client.get(reverse("matchmaking:challenge", args=[challenge.token]))

    assert 'data-testid="challenge-accept"' in page
    match_id = Seat.objects.get(user=boris).match_id
    assert response["Location"].endswith(f"/{match_id}/")
    assert again["Location"] == response["Location"]


def test_the_leaderboard_ranks_established_players_then_lists_provisional_ones(
        client, make_player):
    established, newcomer = make_player("established"), make_player("newcomer")
    PlayerRating.objects.create(user=newcomer, rating=2500, deviation=300, games=3)
    PlayerRating.objects.create(user=make_player("unrated"), rating=1500, deviation=500)
    PlayerRating.objects.create(user=make_player("strong"), rating=2100, deviation=50,
                                games=40)
    PlayerRating.objects.create(user=make_player("keen"), rating=1600, deviation=200, games=5)
    PlayerRating.objects.update_or_create(user=established, defaults={
        "rating": 1700, "deviation": 70, "games": 20})

    page = client.get(reverse("matchmaking:leaderboard")).content.decode()

    # Ranked by rating among the established, the provisional below by rating too, marked.
    order = [page.index(f"/@/{name}\"") for name in ("strong", "established", "newcomer",
                                                        "keen")]
    assert order == sorted(order)
    assert "unrated" not in page
    provisional = page[page.index('data-testid="leaderboard-provisional"'):]
    assert provisional.count('class="provisional"') == 2
    assert "strong" not in provisional
    assert "becomes established after 11 to 16 rated games" in page
    assert "is 110 or more" in page


def test_an_empty_leaderboard_says_so(client):
    page = client.get(reverse("matchmaking:leaderboard")).content.decode()
    assert "Nobody has played a rated game yet." in page


def test_the_home_page_offers_every_pool_and_nothing_else(client, make_player):
    import re

    client.force_login(make_player())

    page = client.get(reverse("home")).content.decode()

    offered = re.findall(r'name="pool" value="([^"]+)"', page)
    assert offered == [control.key for control in LIVE]


def test_a_profile_offers_a_challenge_to_others_only(client, make_player):
    anna = make_player("anna")
    make_player("boris")
    client.force_login(anna)

    other = client.get(reverse("profile", args=["boris"])).content.decode()
    own = client.get(reverse("profile", args=["anna"])).content.decode()

    assert reverse("matchmaking:challenge_new") + "?to=boris" in other
    assert 'data-testid="challenge-player"' not in own


def test_a_home_button_that_completes_a_pair_goes_straight_to_the_match(client, make_player):
    anna, boris = make_player("anna"), make_player("boris")
    services.pool_join(user=anna, pool="1+1")
    client.force_login(boris)

    response = client.post(reverse("matchmaking:pool_join"), {"pool": "1+1"})

    match_id = Seat.objects.get(user=boris).match_id
    assert response["Location"].endswith(f"/{match_id}/")


def test_an_idle_player_leaves_the_leaderboard_as_their_deviation_grows(client, make_player):
    from datetime import timedelta

    from django.utils import timezone

    from games.matchmaking import selectors

    now = timezone.now()
    PlayerRating.objects.create(user=make_player("active"), rating=1800, deviation=60,
                                last_rated_at=now - timedelta(days=1), games=30)
    PlayerRating.objects.create(user=make_player("idle"), rating=1900, deviation=60,
                                last_rated_at=now - timedelta(days=400), games=30)

    board = selectors.leaderboard(now=now)

    assert [row.username for row in board.established] == ["active"]
    assert board.established[0].rank == 1
    assert [(row.username, row.rank, row.provisional) for row in board.provisional] == [
        ("idle", None, True)]
