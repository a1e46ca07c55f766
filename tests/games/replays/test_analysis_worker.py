"""The analysis end to end: the first view of a finished duel's replay enqueues the task, a
real Celery worker analyses the game and stores it, the replay's data then carries it; and
the task run again stores the same."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.core.cache import cache

from games.ai.analysis import analyse
from games.play.selectors import match_game
from games.play.services import Player
from games.replays.selectors import analysis_get, analysis_key
from games.replays.services import analysis_view
from games.replays.tasks import analyse_match
from tests.games.replays.conftest import play_match

pytestmark = pytest.mark.django_db(transaction=True)


def wait_for_analysis(match_id: int) -> dict:
    """The stored analysis once the worker has stored it (the worker shares the cache)."""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        stored = analysis_get(match_id=match_id)
        if stored is not None and stored["status"] != "pending":
            return stored
        time.sleep(0.25)
    raise AssertionError("the worker never stored the analysis")


def test_a_real_worker_analyses_the_duel_the_replay_asks_for(client, celery_worker, alice,
                                                             bob):
    match = play_match([Player(user=alice), Player(user=bob)], moves=16, end="resign")
    cache.delete(analysis_key(match.pk))

    page = client.get(f"/game/{match.pk}/replay")
    assert page.context["replay_data"]["analysis"] == {"status": "pending"}
    stored = wait_for_analysis(match.pk)

    assert stored["status"] == "done"
    game = match_game(match=match)
    assert stored == {"status": "done", **analysis_view(
        analyse(game, total_nodes=settings.REPLAYS_ANALYSIS_NODES))}
    data = client.get(f"/game/{match.pk}/replay.json").json()
    assert data["analysis"]["status"] == "done"
    assert len(data["analysis"]["values"]) == len(data["positions"]) == match.ply + 1
    assert data["marks"] == stored["marks"]

    # Sent again (a retried task): the worker stores the same result.
    cache.delete(analysis_key(match.pk))
    analyse_match.delay(match.pk)
    assert wait_for_analysis(match.pk) == stored
    assert celery_worker.alive
