"""The profile page /@/<name>: rating, record, streaks, chart, recent games, empty states."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games.play.models import Match
from games.profiles.selectors import profile_rating_history, profile_recent_games, profile_record

pytestmark = pytest.mark.django_db


def test_an_unknown_name_is_404(client: Client) -> None:
    assert client.get("/@/nobody").status_code == 404


def test_the_name_in_another_case_redirects_to_the_real_one(
    client: Client, make_user: Callable[..., User]
) -> None:
    make_user("Anna")
    response = client.get("/@/ANNA")
    assert response.status_code == 301
    assert response["Location"] == "/@/Anna"


def test_a_new_players_own_profile_is_friendly(
    client: Client, make_user: Callable[..., User]
) -> None:
    anna = make_user("anna")
    client.force_login(anna)
    page = client.get("/@/anna").content.decode()
    assert 'data-testid="no-games"' in page
    assert "No games yet" in page
    assert 'href="/play/ai/" data-testid="play-ai"' in page
    assert "1500" in page
    assert 'data-testid="provisional"' in page
    assert 'data-testid="recent-games"' not in page


def test_someone_elses_empty_profile_has_no_play_button(
    client: Client, make_user: Callable[..., User]
) -> None:
    make_user("anna")
    page = client.get("/@/anna").content.decode()
    assert "anna has not finished a game yet." in page
    assert 'data-testid="play-ai"' not in page


def test_record_and_streaks(make_user: Callable[..., User], game: Callable[..., Match]) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    start = timezone.now() - timedelta(days=30)
    sequence = ["win", "win", "loss", "win", "win", "win", "draw", "win", "win"]
    for day, result in enumerate(sequence):
        game(anna, boris, result, finished_at=start + timedelta(days=day))
    # Games not over, or aborted, count for nothing.
    game(anna, boris, "", status="playing")
    game(anna, boris, "", status="aborted")
    record = profile_record(user=anna)
    assert (record.played, record.won, record.drawn, record.lost) == (9, 7, 1, 1)
    assert (record.current_win_streak, record.best_win_streak) == (2, 3)
    boris_record = profile_record(user=boris)
    assert (boris_record.won, boris_record.lost, boris_record.best_win_streak) == (1, 7, 1)


def test_the_profile_shows_games_chart_and_links(
    client: Client, make_user: Callable[..., User], game: Callable[..., Match]
) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    start = timezone.now() - timedelta(days=3)
    rating = 1500.0
    for day, result in enumerate(["win", "win", "loss"]):
        after = rating + (60 if result == "win" else -50)
        game(anna, boris, result, finished_at=start + timedelta(days=day), rated=True,
             rating_before=rating, rating_after=after)
        rating = after
    game(anna, None, "loss", finished_at=start + timedelta(days=2, hours=1))  # vs the AI
    page = client.get("/@/anna").content.decode()
    assert 'data-testid="rating-chart"' in page
    assert page.count('class="dot"') == 3
    assert 'data-testid="played">4<' in page
    assert 'data-testid="won">2<' in page
    assert "AI level 3" in page
    assert "1570 <span class=\"delta\">(-50)</span>" in page
    recent = profile_recent_games(user=anna)
    assert [g.result for g in recent] == ["loss", "loss", "win", "win"]
    assert [(o.name, o.url) for o in recent[1].opponents] == [("boris", "/@/boris")]
    assert [(o.name, o.url) for o in recent[0].opponents] == [("AI level 3", None)]
    assert '<td data-testid="opponents"><a href="/@/boris">boris</a></td>' in page
    for entry in recent:
        assert entry.url == f"/game/{entry.match_id}/replay"
        assert f'href="{entry.url}"' in page
    history = profile_rating_history(user=anna)
    assert [round(p.rating) for p in history] == [1560, 1620, 1570]


def test_recent_games_are_few_and_cheap(
    make_user: Callable[..., User], game: Callable[..., Match]
) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    for _ in range(15):
        game(anna, boris, "win")
    with CaptureQueriesContext(connection) as queries:
        recent = profile_recent_games(user=anna)
    assert len(recent) == 10
    assert len(queries) <= 2


def test_a_long_record_links_to_all_games(
    client: Client, make_user: Callable[..., User], game: Callable[..., Match]
) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    for _ in range(12):
        game(anna, boris, "win")
    page = client.get("/@/anna").content.decode()
    assert 'data-testid="all-games"' in page
    assert 'href="/@/anna/games"' in page
    assert "All 12 games" in page


def test_a_deactivated_players_profile_says_the_account_is_closed(
    client: Client, make_user: Callable[..., User]
) -> None:
    anna = make_user("anna")
    User.objects.filter(pk=anna.pk).update(is_active=False)
    page = client.get("/@/anna").content.decode()
    assert 'data-testid="profile-closed"' in page
