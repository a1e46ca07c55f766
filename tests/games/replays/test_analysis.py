"""The AI's analysis of a finished duel: asked for once by the first view, computed by the
Celery task (never in the request), stored, and shown as the evaluation of every position and
marks on the moves."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import cache

from games.ai.analysis import Analysis, Evaluation, Judgement, Mistake, nodes_per_position
from games.play.services import Player
from games.replays import services
from games.replays.selectors import analysis_get, analysis_key, replay_of_match
from games.replays.tasks import analyse_match
from games.rules import Game
from games.rules.moves import Move
from tests.games.replays.conftest import play_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(alice, bob):
    match = play_match([Player(user=alice), Player(user=bob)], moves=30, end="resign")
    cache.delete(analysis_key(match.pk))
    return match


def test_the_first_view_asks_once_and_the_request_never_analyses(
        client, duel, sent_tasks, django_capture_on_commit_callbacks):
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.get(f"/game/{duel.pk}/replay")
        assert response.context["replay_data"]["analysis"] == {"status": "pending"}
    # Had a request analysed, the stored analysis would be done, not still asked for.
    assert cache.get(analysis_key(duel.pk)) == {"status": "pending"}
    assert sent_tasks() == [("replays.analyse_match", (duel.pk,))]


def test_the_analysis_stores_what_the_replay_shows(client, duel, sent_tasks,
                                                   django_capture_on_commit_callbacks):
    seen: list[Game] = []

    def analyse(game: Game) -> Analysis:
        seen.append(game)
        eighth = game.moves[7]
        values = tuple(Evaluation(round(0.5 - ply / 40, 3), ply > 28)
                       for ply in range(game.ply + 1))
        # Mistake.ply counts from 0: the 8th move has ply 7.
        return Analysis(values, (Mistake(7, eighth, Judgement.MISTAKE, False, 0.31, 0.08,
                                          (Move.parse("+1"),)),), 1234)

    assert services.analysis_run(match_id=duel.pk, analyse=analyse)["status"] == "done"
    assert [game.moves for game in seen] == [
        Game.from_tpn(duel.deal_tpn, [m.text for m in duel.moves.order_by("ply")]).moves]
    data = replay_of_match(match=duel).data
    eighth = str(data["positions"][8]["move"])
    assert data["marks"] == {"8": {"move": eighth, "kind": "mistake", "exact": False,
                                   "before": 0.31, "after": 0.08, "best": ["+1"]}}
    assert data["analysis"]["status"] == "done"
    assert data["analysis"]["values"][:2] == [0.5, 0.475]
    assert len(data["analysis"]["values"]) == len(data["positions"]) == duel.ply + 1
    assert data["analysis"]["exact"][-1] is True
    assert data["analysis"]["exact"][0] is False
    with django_capture_on_commit_callbacks(execute=True):
        client.get(f"/game/{duel.pk}/replay")
    assert sent_tasks() == []  # done: never asked again
    shown = client.get(f"/game/{duel.pk}/replay.json").json()
    assert shown["marks"]["8"]["kind"] == "mistake"
    assert shown["analysis"]["values"] == data["analysis"]["values"]


def test_a_failed_analysis_is_not_asked_for_again_at_once(
        duel, sent_tasks, django_capture_on_commit_callbacks):
    def analyse(game):
        raise RuntimeError("out of time")

    with pytest.raises(RuntimeError):
        services.analysis_run(match_id=duel.pk, analyse=analyse)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.analysis_request(match=duel) == "unavailable"
    assert sent_tasks() == []


def test_the_real_analysis_evaluates_every_position_and_stores_the_same_twice(duel):
    assert analyse_match(duel.pk) == "done"
    first = analysis_get(match_id=duel.pk)
    assert first is not None
    assert first["nodes"] == nodes_per_position(duel.ply, settings.REPLAYS_ANALYSIS_NODES)
    assert len(first["values"]) == len(first["exact"]) == duel.ply + 1
    assert all(-1 <= value <= 1 for value in first["values"])
    assert all(0 < int(ply) <= duel.ply for ply in first["marks"])
    assert {mark["kind"] for mark in first["marks"].values()} <= {
        "inaccuracy", "mistake", "blunder"}
    cache.delete(analysis_key(duel.pk))
    assert analyse_match(duel.pk) == "done"
    assert analysis_get(match_id=duel.pk) == first


def test_an_analysis_of_an_older_version_is_made_again(duel, sent_tasks,
                                                      django_capture_on_commit_callbacks):
    cache.set(f"replays:analysis:{duel.pk}", {"status": "done", "marks": {}}, None)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.analysis_request(match=duel) == "pending"
    assert sent_tasks() == [("replays.analyse_match", (duel.pk,))]


def test_an_analysis_at_another_budget_is_made_again(duel, settings, sent_tasks,
                                                     django_capture_on_commit_callbacks):
    cache.set(analysis_key(duel.pk), {"status": "done", "marks": {}}, None)
    settings.REPLAYS_ANALYSIS_NODES *= 2
    with django_capture_on_commit_callbacks(execute=True):
        assert services.analysis_request(match=duel) == "pending"
    assert sent_tasks() == [("replays.analyse_match", (duel.pk,))]


def test_only_finished_duels_are_analysed(alice, bob, carol, sent_tasks,
                                          django_capture_on_commit_callbacks):
    three = play_match([Player(user=alice), Player(user=bob), Player(user=carol)], seed=28)
    live = play_match([Player(user=alice), Player(user=bob)], moves=4)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.analysis_request(match=three) == "none"
        assert services.analysis_request(match=live) == "none"
    assert analyse_match(three.pk) == "none"
    assert sent_tasks() == []
