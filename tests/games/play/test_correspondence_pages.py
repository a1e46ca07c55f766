"""The pages of correspondence play: "your turn", the next game, vacations, the home page's
list, and the board's words for a correspondence game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.play.models import Vacation
from games.play.your_turn import vacation_current
from tests.games.play.test_correspondence import corr_duel, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client, alice):
    client.force_login(alice)
    return client


def test_your_turn_lists_the_games_waiting_first_with_their_time(logged_in, alice, bob):
    now = timezone.now()
    theirs = corr_duel(bob, alice, "3d", now=now)  # bob to move
    mine = corr_duel(alice, bob, "1d", now=now)  # alice to move
    page = logged_in.get(reverse("games:your_turn"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "1 game is waiting for your move." in text
    assert text.index(f'data-match="{mine.pk}"') < text.index(f'data-match="{theirs.pk}"')
    assert "against bob" in text
    assert "23\xa0hours" in text or "1\xa0day" in text
    home = logged_in.get(reverse("home")).content.decode()
    assert 'data-testid="home-corr"' in home
    assert f'data-match="{mine.pk}"' in home


def test_next_goes_to_the_next_game_waiting_or_back_to_the_list(logged_in, alice, bob):
    now = timezone.now()
    first = corr_duel(alice, bob, "1d", now=now)
    second = corr_duel(alice, bob, "2d", now=now)
    url = reverse("games:next_game")
    assert logged_in.get(f"{url}?after={first.pk}").url == reverse("games:match",
                                                                   args=[second.pk])
    assert logged_in.get(f"{url}?after=nonsense").url == reverse("games:match", args=[first.pk])
    play(first, now=now)
    play(second, now=now)
    assert logged_in.get(f"{url}?after={second.pk}").url == reverse("games:your_turn")


def test_the_vacation_page_starts_and_ends_a_vacation(logged_in, alice, bob):
    url = reverse("games:vacation")
    assert logged_in.get(url).status_code == 200
    refused = logged_in.post(url, {"days": "40"})
    assert refused.status_code == 200
    assert not Vacation.objects.exists()
    assert logged_in.post(url, {"days": "x"}).status_code == 200
    assert logged_in.post(url, {"days": "3"}).status_code == 302
    assert vacation_current(user_id=alice.pk, now=timezone.now()) is not None
    assert 'data-testid="vacation-current"' in logged_in.get(url).content.decode()
    assert logged_in.post(reverse("games:vacation_end")).status_code == 302
    assert vacation_current(user_id=alice.pk, now=timezone.now() + timedelta(seconds=1)) is None


@pytest.mark.parametrize("language", ["en", "pl", "ru", "eu"])
def test_a_vacation_says_its_end_without_a_doubled_full_stop(logged_in, alice, language):
    """English writes a time of day "12:33 a.m.": a sentence that ended on it would end "..".
    """
    now = timezone.now()
    ends = now.replace(hour=0, minute=33) + timedelta(days=2)
    Vacation.objects.create(user=alice, starts_at=now - timedelta(hours=1), ends_at=ends)
    for name in ("games:vacation", "games:your_turn"):
        page = logged_in.get(reverse(name), HTTP_ACCEPT_LANGUAGE=language)
        assert page.status_code == 200
        text = page.content.decode()
        assert "0:33" in text or "12:33" in text, name
        assert ".." not in text.replace("...", ""), (name, language)


def test_the_pages_ask_for_a_log_in(client):
    for name in ("games:your_turn", "games:next_game", "games:vacation", "games:vacation_end"):
        assert reverse("accounts:login") in client.get(reverse(name)).url


def test_the_board_of_a_correspondence_game_has_its_plain_words(logged_in, alice, bob):
    match = corr_duel(alice, bob, "2d", now=timezone.now())
    text = logged_in.get(reverse("games:match", args=[match.pk])).content.decode()
    assert 'data-testid="corr-deadline"' in text
    assert f"?after={match.pk}" in text
    assert "2 days a move" in text
