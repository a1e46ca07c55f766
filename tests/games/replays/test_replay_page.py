"""The replay page and its data: positions by the rules engine, ply links, what each viewer
may see of the hands, clocks and times per move, and the record download."""

from __future__ import annotations

import json

import pytest

from games.play.models import Match
from games.play.schemas import state_adapter
from games.play.services import Player
from games.play.time_control import TimeControl
from games.replays.selectors import replay_of_match
from games.rules import Game
from tests.games.replays.conftest import play_match

pytestmark = pytest.mark.django_db


def page_data(response) -> dict:
    return response.context["replay_data"]


def test_the_replay_of_a_finished_duel(client, alice, bob):
    match = play_match([Player(user=alice), Player(user=bob)], time_control=TimeControl(180, 2))
    response = client.get(f"/game/{match.pk}/replay")
    assert response.status_code == 200
    data = page_data(response)
    assert response.context["initial_ply"] == 0
    positions = data["positions"]
    assert len(positions) == match.ply + 1
    game = Game.new(2, seed=7, dealer=1, trumps="SH")
    moves = list(match.moves.order_by("ply"))
    for ply, position in enumerate(positions):
        state = game.state
        assert position["pile"] == "".join(str(c) for c in state.pile)
        assert [h[0] for h in position["hands"]] == [
            "".join(str(c) for c in state.hand(s)) for s in range(2)]
        assert all(h[1] == 0 for h in position["hands"])  # the duel is open
        if ply:
            assert position["move"] == moves[ply - 1].text
            assert position["seat"] == moves[ply - 1].seat
            assert position["spent"] == moves[ply - 1].time_spent_ms
            assert position["clocks"] == moves[ply - 1].clocks_after
        else:
            assert position["clocks"] == [180_000, 180_000]
        # The board's state of the ply, made by the match socket's builder, is the same
        # position (the page puts in the moves before it).
        board = data["states"][ply]
        state_adapter.validate_python(board)
        assert board["pile"] == [str(c) for c in state.pile]
        assert [seat["hand"] for seat in board["seats"]] == [
            [str(c) for c in state.hand(s)] for s in range(2)]
        assert [seat["clock_ms"] for seat in board["seats"]] == position["clocks"]
        if ply and moves[ply - 1].text.startswith("+"):
            assert sorted(board["last_move"]["taken"]) == sorted(
                str(c) for c in state.hand(moves[ply - 1].seat)
                if str(c) not in positions[ply - 1]["hands"][moves[ply - 1].seat][0])
        if ply < len(moves):
            game.play(moves[ply].text)
    assert positions[-1]["to_move"] is None
    assert data["states"][-1]["status"] == "finished"
    assert data["states"][-1]["result"]["loser"] == match.loser_seat
    assert data["states"][-2]["result"] is None
    assert data["result"]["loser"] == match.loser_seat
    assert [s["trump"] for s in data["seats"]] == ["S", "H"]
    # The data is in the page for the script; ?ply= opens elsewhere (clamped to the game).
    assert 'id="replay-data"' in response.content.decode()
    assert client.get(f"/game/{match.pk}/replay?ply=12").context["initial_ply"] == 12
    assert client.get(f"/game/{match.pk}/replay?ply=99999").context["initial_ply"] == match.ply
    assert client.get(f"/game/{match.pk}/replay.json").json()["positions"] == positions
    record = client.get(f"/game/{match.pk}/record")
    assert record["Content-Disposition"].startswith("attachment")
    assert f'[Site "http://testserver/game/{match.pk}/replay"]' in record.content.decode()


def test_hands_of_a_game_of_four_are_hidden_until_it_is_over(client, alice, bob, carol,
                                                             make_user):
    dave = make_user("dave")
    match = play_match([Player(user=alice), Player(user=bob), Player(user=carol),
                        Player(user=dave)], seed=21, moves=12)
    assert not match.is_over
    spectator = page_data(client.get(f"/game/{match.pk}/replay"))
    assert spectator["live"] is True
    assert spectator["socket_path"] == f"/ws/match/{match.pk}/"
    assert spectator["record_url"] is None  # the record holds the deal
    assert client.get(f"/game/{match.pk}/record").status_code == 404
    deal = spectator["positions"][0]
    # At the deal everyone knows only the trump sixes each seat received.
    for seat, (cards, hidden) in enumerate(deal["hands"]):
        assert set(cards[i:i + 2] for i in range(0, len(cards), 2)) <= {"6S", "6H", "6D", "6C"}
        assert hidden > 0, seat
    # Trumps are always shown.
    assert [s["trump"] for s in spectator["seats"]] == ["S", "H", "D", "C"]
    # A live page opens at the latest position.
    assert client.get(f"/game/{match.pk}/replay").context["initial_ply"] == 12

    client.force_login(bob)
    own = page_data(client.get(f"/game/{match.pk}/replay"))
    assert all(p["hands"][1][1] == 0 for p in own["positions"])
    assert all(p["hands"][0][1] > 0 for p in own["positions"])

    from games.play import services
    services.match_resign(match_id=match.pk, seat=match.to_move)
    client.logout()
    over = page_data(client.get(f"/game/{match.pk}/replay"))
    assert over["live"] is False
    assert all(h[1] == 0 for p in over["positions"] for h in p["hands"])
    assert client.get(f"/game/{match.pk}/record").status_code == 200


def test_a_private_game_being_played_is_only_for_its_players(client, alice, bob):
    match = play_match([Player(user=alice), Player(user=bob)], moves=3, public=False)
    assert client.get(f"/game/{match.pk}/replay").status_code == 404
    assert client.get(f"/game/{match.pk}/replay.json").status_code == 404
    client.force_login(alice)
    assert client.get(f"/game/{match.pk}/replay").status_code == 200
    assert client.get("/game/999999/replay").status_code == 404


def test_a_game_whose_trumps_are_being_chosen(client, alice, bob):
    from games.play import services

    match = services.match_create(players=[Player(user=alice), Player(user=bob)])
    response = client.get(f"/game/{match.pk}/replay")
    assert response.status_code == 200
    assert page_data(response)["positions"] == []
    assert client.get(f"/game/{match.pk}/record").status_code == 404


def test_the_replay_of_a_match_is_built_in_a_few_queries(alice, bob,
                                                         django_assert_max_num_queries):
    match = play_match([Player(user=alice), Player(user=bob)])
    match = Match.objects.get(pk=match.pk)
    with django_assert_max_num_queries(3):
        data = replay_of_match(match=match).data
    # About 200 bytes a ply of positions and 1,400 of the board's states.
    assert len(json.dumps(data, separators=(",", ":"))) < 2_000 * (match.ply + 1)


def test_the_replay_page_query_count_does_not_grow_with_the_moves(client, alice, bob):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    short = play_match([Player(user=alice), Player(user=bob)], moves=5, end="resign")
    long = play_match([Player(user=alice), Player(user=bob)])
    assert long.ply > 40
    counts = []
    for match in (short, long):
        client.get(f"/game/{match.pk}/replay")  # the first view asks for the analysis
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/game/{match.pk}/replay").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 4
