"""The arena's pages: the list, the form with its errors, an arena's page and its buttons,
the strip of an arena game's page, and a player's history on their profile."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.tournaments.models import Participant, Tournament, TournamentGame

pytestmark = pytest.mark.django_db


def test_a_player_creates_an_arena_and_the_form_says_what_is_wrong(client, make_player):
    client.force_login(make_player())
    url = reverse("tournaments:new")

    bad = client.post(url, {"name": "  x ", "time_control": "7+7", "starts_in": "3",
                            "minutes": "45"})
    assert bad.status_code == 200
    errors = bad.context["form"].errors
    assert set(errors) == {"name", "kind", "time_control", "starts_in"}

    made = client.post(url, {"name": "Friday  night", "kind": "arena", "time_control": "1+1",
                             "starts_in": "5", "minutes": "30", "public": ""})
    tournament = Tournament.objects.get()
    assert made.url == reverse("tournaments:detail", args=[tournament.token])
    assert (tournament.name, tournament.public, tournament.rated) == ("Friday night", False,
                                                                      False)
    assert tournament.minutes == 30
    # Private: not listed, but its link works.
    assert tournament.name not in client.get(reverse("tournaments:list")).content.decode()
    assert client.get(made.url).status_code == 200

    swiss = {"name": "Club", "kind": "swiss", "time_control": "3+2", "starts_in": "10",
             "minutes": "45", "rated": "on", "public": "on"}
    assert set(client.post(url, {**swiss, "rounds": ""}).context["form"].errors) == {"rounds"}
    client.post(url, {**swiss, "rounds": "5"})
    club = Tournament.objects.get(name="Club")
    assert (club.kind, club.rounds, club.rated) == ("swiss", 5, True)
    page = client.get(reverse("tournaments:detail", args=[club.token])).content.decode()
    assert "Buchholz" in page


def test_the_buttons_join_pause_and_withdraw(client, make_player, arena):
    user = make_player()
    client.force_login(user)
    page = reverse("tournaments:detail", args=[arena.token])
    assert b'data-testid="tournament-join"' in client.get(page).content

    client.post(reverse("tournaments:join", args=[arena.token]))
    assert b'data-testid="tournament-pause"' in client.get(page).content
    client.post(reverse("tournaments:ai_opt_in", args=[arena.token]), {"on": "on"})
    assert Participant.objects.get(user=user).ai_opt_in
    client.post(reverse("tournaments:pause", args=[arena.token]))
    assert Participant.objects.get(user=user).paused
    client.post(reverse("tournaments:withdraw", args=[arena.token]))
    assert not Participant.objects.exists()  # no game played: gone from the standings

    refused = client.post(reverse("tournaments:pause", args=[arena.token]), follow=True)
    assert "You have not joined this tournament." in refused.content.decode()
    assert client.get(reverse("tournaments:detail", args=["nope"])).status_code == 404
    assert client.get(reverse("tournaments:list")).status_code == 200


def test_an_arena_game_page_has_the_strip_and_the_profile_the_history(client, make_player,
                                                                       arena):
    from games.tournaments import services

    anna, boris = make_player(), make_player()
    for user in (anna, boris):
        services.tournament_join(user=user, token=arena.token)
    game = TournamentGame.objects.get()
    client.force_login(anna)

    page = client.get(reverse("games:match", args=[game.match_id])).content.decode()
    assert 'data-testid="arena-strip"' in page
    assert 'data-testid="berserk"' in page
    client.post(reverse("tournaments:berserk", args=[game.match_id]))
    page = client.get(reverse("games:match", args=[game.match_id])).content.decode()
    assert 'data-testid="berserk"' not in page

    profile = client.get(reverse("profile", args=[anna.username])).content.decode()
    assert 'data-testid="tournament-entry"' in profile


def test_a_player_paired_as_they_join_goes_straight_to_the_game(client, make_player, arena):
    # Their tournament page opened after the pairing shows the game as a link and leaves them
    # there (they may come to it from their game to pause): joining itself takes them to it.
    anna, boris = make_player(), make_player()
    page = reverse("tournaments:detail", args=[arena.token])
    client.force_login(anna)
    assert client.post(reverse("tournaments:join", args=[arena.token])).url == page  # alone

    client.force_login(boris)
    joined = client.post(reverse("tournaments:join", args=[arena.token]))

    game = TournamentGame.objects.get()
    assert joined.url == reverse("games:match", args=[game.match_id])
    client.post(reverse("tournaments:pause", args=[arena.token]))
    assert client.post(reverse("tournaments:join", args=[arena.token])).url == joined.url
