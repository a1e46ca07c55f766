"""The game histories: a player's and the site's, their filters and pages, and a number of
queries that does not grow with the number of rows."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.play.models import Match, Seat, SeatResult, Status, TerminationReason
from games.replays.history import HistoryFilters, history_page
from tests.games.replays.conftest import T0

pytestmark = pytest.mark.django_db


def finished(*seats, rated=False, clock=(180, 2), days=0, loser=1, n=None) -> Match:
    """A finished match stored as the services leave one (the history needs no moves).
    `seats`: users, or an int for an AI of that level."""
    at = T0 + timedelta(days=days)
    match = Match.objects.create(
        rated=rated, clock_initial=clock[0] if clock else None,
        clock_increment=clock[1] if clock else 0, n_players=n or len(seats), status=Status.FINISHED,
        seed=1, dealer=0, deal_tpn="x", ply=40, result="decided" if loser is not None else "draw",
        loser_seat=loser, termination=TerminationReason.NORMAL, started_at=at, finished_at=at,
    )
    for index, who in enumerate(seats):
        if loser is None:
            result = SeatResult.DRAW
        else:
            result = SeatResult.LOSS if index == loser else SeatResult.WIN
        Seat.objects.create(
            match=match, index=index, trump="SHDC"[index], result=result,
            user=None if isinstance(who, int) else who,
            ai_level=who if isinstance(who, int) else None,
        )
    return match


def ids(response) -> list[int]:
    return [row.match_id for row in response.context["rows"]]


def test_a_players_history_is_filtered(client, alice, bob, carol):
    won_rated = finished(alice, bob, rated=True, days=1)              # alice wins
    lost_casual = finished(alice, bob, loser=0, days=2)                # alice loses
    ai_draw = finished(alice, 3, loser=None, clock=None, days=3)       # vs the AI, untimed
    three = finished(carol, alice, bob, loser=2, clock=(60, 1), days=4)
    finished(bob, carol, days=5)                                       # not alice's
    base = "/@/alice/games"

    assert ids(client.get(base)) == [three.pk, ai_draw.pk, lost_casual.pk, won_rated.pk]
    # The player's seats alone are counted when only their result narrows the list.
    for query, count in (({}, 4), ({"result": "win"}, 2), ({"rated": "rated"}, 1)):
        assert client.get(base, query).context["page"].paginator.count == count
    assert ids(client.get(base, {"opponent": "carol"})) == [three.pk]
    assert ids(client.get(base, {"opponent": "BOB"})) == [three.pk, lost_casual.pk,
                                                          won_rated.pk]
    assert ids(client.get(base, {"result": "win"})) == [three.pk, won_rated.pk]
    assert ids(client.get(base, {"result": "loss"})) == [lost_casual.pk]
    assert ids(client.get(base, {"result": "draw"})) == [ai_draw.pk]
    assert ids(client.get(base, {"rated": "rated"})) == [won_rated.pk]
    assert ids(client.get(base, {"rated": "casual"})) == [three.pk, ai_draw.pk, lost_casual.pk]
    assert ids(client.get(base, {"against": "ai"})) == [ai_draw.pk]
    assert ids(client.get(base, {"against": "people"})) == [three.pk, lost_casual.pk,
                                                            won_rated.pk]
    assert ids(client.get(base, {"time_control": "untimed"})) == [ai_draw.pk]
    assert ids(client.get(base, {"time_control": "1+1"})) == [three.pk]
    assert ids(client.get(base, {"players": "3"})) == [three.pk]
    assert ids(client.get(base, {"date_from": "2026-03-03", "date_to": "2026-03-04"})) == [
        ai_draw.pk, lost_casual.pk]
    assert ids(client.get(base, {"date_from": "2026-03-04", "date_to": "2026-03-04"})) == [
        ai_draw.pk]
    # Several at once; a value that makes no sense is ignored, not an error.
    assert ids(client.get(base, {"opponent": "bob", "result": "win", "rated": "rated"})) == [
        won_rated.pk]
    assert ids(client.get(base, {"result": "nonsense", "date_from": "soon"})) == ids(
        client.get(base))
    response = client.get(base, {"opponent": "nobody"})
    assert ids(response) == []
    assert response.context["unknown_opponent"] == "nobody"
    assert client.get("/@/nobody/games").status_code == 404
    assert client.get("/@/ALICE/games").status_code == 301


def test_the_site_history_and_its_filters(client, alice, bob):
    draw = finished(alice, bob, loser=None, days=1)
    decided = finished(bob, 2, days=2, rated=False)
    assert ids(client.get("/games/")) == [decided.pk, draw.pk]
    assert ids(client.get("/games/", {"result": "draw"})) == [draw.pk]
    assert ids(client.get("/games/", {"result": "decided"})) == [decided.pk]
    assert ids(client.get("/games/", {"opponent": "alice"})) == [draw.pk]
    assert ids(client.get("/games/", {"against": "ai"})) == [decided.pk]
    page = client.get("/games/").content.decode()
    assert f'href="/game/{draw.pk}/replay"' in page
    assert "bob won" in page  # decided: the winner's name


def test_pages_of_history(alice, bob):
    made = [finished(alice, bob, days=i) for i in range(7)]
    page, rows = history_page(filters=HistoryFilters(), page_number=2, per_page=3)
    assert [r.match_id for r in rows] == [m.pk for m in reversed(made)][3:6]
    assert page.paginator.count == 7
    page, rows = history_page(filters=HistoryFilters(), page_number="999", per_page=3)
    assert page.number == 3
    assert len(rows) == 1


@pytest.mark.parametrize("path", ["/games/", "/@/alice/games"])
def test_the_history_is_ordered_by_the_finishing_time_it_shows(client, alice, bob, path):
    """A game that started first but finished last is listed first, as its time says."""
    long_game = finished(alice, bob, days=0)
    short_game = finished(alice, bob, days=1)
    Match.objects.filter(pk=long_game.pk).update(finished_at=T0 + timedelta(days=2))
    response = client.get(path)
    assert ids(response) == [long_game.pk, short_game.pk]
    shown = [row.finished_at for row in response.context["rows"]]
    assert shown == sorted(shown, reverse=True)


def test_unfinished_and_aborted_games_are_not_in_the_history(alice, bob):
    finished(alice, bob)
    Match.objects.filter().update(status=Status.ABORTED)
    _, rows = history_page(filters=HistoryFilters())
    assert rows == []


@pytest.mark.parametrize("path", ["/games/", "/@/alice/games"])
def test_the_history_page_query_count_does_not_grow_with_the_rows(
        client, alice, bob, carol, django_assert_max_num_queries, path):
    def count_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path, {"opponent": "bob", "against": "people",
                                     "date_from": date(2026, 1, 1)}).status_code == 200
        return len(queries)

    finished(alice, bob, rated=True)
    one_row = count_queries()
    for day in range(12):
        finished(alice, bob, carol, loser=day % 3, days=day)
        finished(bob, alice, rated=True, loser=day % 2, days=day)
    assert len(client.get(path, {"opponent": "bob"}).context["rows"]) == 25
    many_rows = count_queries()
    assert many_rows == one_row
    with django_assert_max_num_queries(8):
        client.get(path, {"opponent": "bob", "against": "people"})


def test_a_long_history_is_counted_only_up_to_a_cap(client, alice, bob, monkeypatch):
    monkeypatch.setattr("games.replays.history.HISTORY_COUNT_CAP", 4)
    for day in range(7):
        finished(alice, bob, days=day)
    response = client.get("/games/")
    assert response.context["page"].paginator.capped
    assert "More than" in response.content.decode()
    # Only the first cap + 1 games can be paged through; older ones are reached by date.
    assert len(ids(response)) == 5
    assert not client.get("/@/alice/games", {"result": "loss"}).context[
        "page"].paginator.capped


def test_the_history_links_to_ones_own_games(client, alice, bob):
    finished(alice, bob)
    assert "my-games-link" not in client.get("/games/").content.decode()
    client.force_login(bob)
    page = client.get("/@/alice/games").content.decode()
    assert 'href="/@/bob/games"' in page
    assert 'data-testid="site-history-link"' in page
    assert "my-games-link" not in client.get("/@/bob/games").content.decode()
