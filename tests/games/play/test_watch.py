"""The watch page's list and the TV's choice: public live games only, the best-rated player's
first, a viewer's own game never on their TV, and an empty TV that says so."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import PlayerRating
from games.play import services
from games.play.models import Match
from games.play.services import Player
from games.play.watch import live_games

pytestmark = pytest.mark.django_db


def duel(first, second, *, public: bool = True) -> Match:  # type: ignore[no-untyped-def]
    players = [Player(user=first), Player(user=second) if second else Player(ai_level=2)]
    return services.match_create(players=players, trumps="SH", seed=3, dealer=1,
                                 public=public)


def rate(user, rating: float) -> None:  # type: ignore[no-untyped-def]
    PlayerRating.objects.update_or_create(user=user, defaults={"rating": rating,
                                                               "deviation": 60, "games": 20})


def test_live_public_games_best_rated_first(make_user):
    ann, ben, cat, dan, eve = (make_user(name) for name in ("ann", "ben", "cat", "dan", "eve"))
    rate(ann, 1600)
    rate(cat, 2000)
    rate(eve, 2500)
    low = duel(ann, ben)
    high = duel(cat, dan)
    against_ai = duel(dan, None)
    duel(eve, ann, public=False)  # private: never listed
    finished = duel(ben, None)
    services.match_resign(match_id=finished.pk, seat=0)

    games = live_games()
    assert [game.match_id for game in games] == [high.pk, low.pk, against_ai.pk]
    assert games[0].top_rating == 2000
    assert [(p.name, p.url, p.rating) for p in games[0].players] == [
        ("cat", "/@/cat", 2000), ("dan", "/@/dan", 1500)]
    assert games[2].players[1].url is None  # the AI
    assert [g.match_id for g in live_games(exclude_user_id=cat.pk)] == [low.pk, against_ai.pk]


def test_the_tv_shows_the_top_game_but_never_ones_own(client: Client, make_user):
    ann, ben, cat = make_user("ann"), make_user("ben"), make_user("cat")
    rate(ann, 2200)
    top = duel(ann, ben)
    other = duel(cat, None)
    page = client.get("/tv/").content.decode()
    assert f'"matchId": {top.pk},' in page
    assert 'src="/static/js/tv.js"' in page
    client.force_login(ann)
    assert f'"matchId": {other.pk},' in client.get("/tv/").content.decode()


def test_with_nothing_live_the_watch_page_and_the_tv_say_so(client: Client):
    for path in ("/watch/", "/tv/"):
        page = client.get(path).content.decode()
        assert 'data-testid="watch-empty"' in page
        assert '<meta http-equiv="refresh" content="15">' in page
