"""Tables of 3-4 in the replays: a table whose seat the AI took over is recorded so
(`TakenOver`), exported and imported back through the site's import page to the same game,
and replayed move by move with the places at the end."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from games.play import services, tasks
from games.play.models import Match, Seat
from games.play.services import Player
from games.replays.selectors import record_takeovers, replay_of_match
from games.replays.services import record_export
from games.rules import State
from tests.games.replays.test_records import assert_same_game_at_every_ply

pytestmark = pytest.mark.django_db


def _table_with_a_takeover(users, seed: int) -> Match:
    """A table of people (untimed) where the first mover leaves at once and the AI plays
    their seat; the others play their first legal move until the end."""
    # The AI's task plays at the real time: so does everything here.
    start = timezone.now() - timedelta(seconds=30)
    match = services.match_create(players=[Player(user=u) for u in users], seed=seed,
                                  dealer=len(users) - 1, trumps="SHDC"[: len(users)],
                                  now=start)
    services.match_deadline_enforce(match_id=match.pk, now=start + timedelta(seconds=30))
    for _ in range(2000):
        match = Match.objects.get(pk=match.pk)
        if match.is_over:
            return match
        seat = Seat.objects.get(match=match, index=match.to_move)
        if seat.is_ai:
            tasks.ai_move(match.pk, match.ply)
        else:
            move = str(State.from_tpn(match.position_tpn).legal_moves()[0])
            services.move_apply(match_id=match.pk, seat=seat.index, move=move,
                                expected_ply=match.ply)
    raise AssertionError("the table did not end")


@pytest.mark.parametrize("n", [3, 4])
def test_a_table_with_a_seat_taken_over_goes_out_and_back_in_through_the_site(
        client, make_user, n):
    users = [make_user() for _ in range(n)]
    match = _table_with_a_takeover(users, seed=40 + n)
    taken = Seat.objects.get(match=match, taken_over_ply__isnull=False)
    text = record_export(match=match)
    assert f'[TakenOver "{taken.index}:0"]' in text
    assert f'[Seat{taken.index} "{taken.user.username}"]' in text
    assert_same_game_at_every_ply(match)

    response = client.post(
        "/replay/import", {"file": SimpleUploadedFile("t.txt", text.encode(), "text/plain")})
    assert response.status_code == 200
    imported = response.context["replay"].data
    stored = replay_of_match(match=match).data
    assert imported["positions"] == stored["positions"]
    assert [s["name"] for s in imported["seats"]] == [s["name"] for s in stored["seats"]]
    assert stored["seats"][taken.index]["name"] == (
        f"{taken.user.username} (the AI from move 1)")
    # Every move is a step of the replay, and the places are there at the end.
    assert len(stored["positions"]) == match.ply + 1
    assert sorted(s["place"] for s in imported["seats"]) == sorted(
        s.place for s in Seat.objects.filter(match=match))
    assert all(s["place"] is not None for s in stored["seats"])


@pytest.mark.parametrize("header", ["", "x", "9:1", "1:", "1:999999", "0:1 nonsense", "-1:2"])
def test_a_takeover_header_of_another_form_shows_nothing(header):
    assert record_takeovers({"TakenOver": header}, 4, 100) == {}


def test_a_takeover_header_names_seats_and_plies():
    assert record_takeovers({"TakenOver": "2:17 0:40"}, 4, 100) == {2: 17, 0: 40}
