"""The AI's analysis of a finished duel: asked for once by the first view, computed by the
Celery task (never in the request), stored, and shown as marks on the moves."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.core.cache import cache

from games.play.services import Player
from games.replays import services
from games.replays.selectors import analysis_key, replay_of_match
from games.replays.tasks import analyse_match
from tests.games.replays.conftest import play_match

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Mistake:
    """The shape of ``games.ai.analysis.Mistake``."""

    ply: int
    move: object
    value_before: int
    value_after: int
    best_moves: tuple


@pytest.fixture
def enqueued(monkeypatch):
    sent = []
    monkeypatch.setattr("yourtrumps_site.celery.enqueue_on_commit",
                        lambda task, *args: sent.append((task.name, args)))
    return sent


@pytest.fixture
def duel(alice, bob):
    match = play_match([Player(user=alice), Player(user=bob)], moves=30, end="resign")
    cache.delete(analysis_key(match.pk))
    return match


def test_the_first_view_asks_once_and_the_request_never_analyses(client, duel, enqueued,
                                                                 monkeypatch):
    def must_not_run(start, moves):
        raise AssertionError("the analysis ran in the web request")

    monkeypatch.setattr(services, "_analyse_function", lambda: must_not_run)
    for _ in range(3):
        response = client.get(f"/game/{duel.pk}/replay")
        assert response.context["replay_data"]["analysis"] == {"status": "pending",
                                                               "reached_from": None}
    assert enqueued == [("replays.analyse_match", (duel.pk,))]


def test_the_task_stores_the_marks_the_replay_shows(client, duel, enqueued, monkeypatch):
    seen = []

    def analyse(start, moves, *, seconds=0.5):
        seen.append((len(moves), seconds))
        # As games.ai.analysis.Mistake: ply counts from 0 (the 8th move has ply 7).
        return [Mistake(ply=7, move=moves[7], value_before=1, value_after=-1,
                        best_moves=(moves[7],))]

    monkeypatch.setattr(services, "_analyse_function", lambda: analyse)
    assert analyse_match(duel.pk) == "done"
    assert seen == [(30, 0.5)]  # a short game: the AI's own budget per position
    data = replay_of_match(match=duel).data
    eighth = str(replay_of_match(match=duel).data["positions"][8]["move"])
    assert data["marks"] == {"8": {"move": eighth, "before": 1, "after": -1,
                                   "best": [eighth]}}
    assert data["analysis"]["status"] == "done"
    client.get(f"/game/{duel.pk}/replay")
    assert enqueued == []  # done: never asked again
    assert client.get(f"/game/{duel.pk}/replay.json").json()["marks"]["8"]["after"] == -1


def test_a_failed_analysis_is_not_asked_for_again_at_once(duel, monkeypatch, enqueued):
    def analyse(start, moves, *, seconds):
        raise RuntimeError("out of time")

    monkeypatch.setattr(services, "_analyse_function", lambda: analyse)
    with pytest.raises(RuntimeError):
        analyse_match(duel.pk)
    assert services.analysis_request(match=duel) == "unavailable"
    assert enqueued == []


def test_the_real_analysis_marks_only_plies_of_the_game(duel):
    assert analyse_match(duel.pk) == "done"
    marks = replay_of_match(match=duel).data["marks"]
    assert all(0 < int(ply) <= duel.ply for ply in marks)


def test_only_finished_duels_are_analysed(alice, bob, carol, enqueued):
    three = play_match([Player(user=alice), Player(user=bob), Player(user=carol)], seed=28)
    assert services.analysis_request(match=three) == "none"
    live = play_match([Player(user=alice), Player(user=bob)], moves=4)
    assert services.analysis_request(match=live) == "none"
    assert enqueued == []
