"""Snapshots: the state a move's service hands to every socket equals the state read back from
the database, and each socket's view is in its own language with only what its seat may see."""

from __future__ import annotations

import random

from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.play import services, snapshots
from games.play.models import Match
from games.play.services import Player
from games.rules import State
from tests.games.conftest import T0, at


def _play_randomly(match: Match, rng: random.Random, plies: int, capture) -> None:
    for ply in range(plies):
        match = Match.objects.get(pk=match.pk)
        if match.is_over:
            return
        moves = State.from_tpn(match.position_tpn).legal_moves()
        with capture(execute=True):
            services.move_apply(match_id=match.pk, seat=match.to_move,
                                move=str(rng.choice(moves)), expected_ply=match.ply,
                                now=at(ply + 1))
        handed = snapshots.recent.get(match.pk, at_least=match.version + 1)
        assert handed is not None, "the move's service handed over no snapshot"
        assert handed == snapshots.match_snapshot(match_id=match.pk, now=at(ply + 1))


# Each example makes its own players (the fixture numbers them), so sharing it is safe.
@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]))
def test_the_snapshot_made_by_a_move_equals_the_one_read_back(
    seed, players, make_user, django_capture_on_commit_callbacks
):
    people = [Player(user=make_user()) for _ in range(players)]
    match = services.match_create(players=people, seed=seed, trumps="SHDC"[:players],
                                  clock_initial=300 if players == 2 else None,
                                  rated=players == 2, now=T0)
    _play_randomly(match, random.Random(seed), 60, django_capture_on_commit_callbacks)


def test_a_view_is_rendered_in_the_sockets_language(alice):
    match = services.match_create(players=[Player(user=alice), Player(ai_level=2)], seed=3,
                                  trumps="SH", now=T0)
    snapshot = snapshots.match_snapshot(match_id=match.pk, now=T0)
    assert snapshot is not None
    names = {}
    for language in ("en", "pl", "ru"):
        with translation.override(language):
            view = snapshots.snapshot_view(snapshot=snapshot, viewer_seat=0, now=at(1))
        names[language] = view["seats"][1]["name"]
    assert names["en"] == "AI level 2"
    assert len(set(names.values())) == 3, names


def test_a_three_player_view_shows_no_hidden_card_of_another_seat(make_user):
    people = [Player(user=make_user()) for _ in range(3)]
    match = services.match_create(players=people, seed=11, trumps="SHD", now=T0)
    snapshot = snapshots.match_snapshot(match_id=match.pk, now=T0)
    assert snapshot is not None
    state = State.from_tpn(snapshot["position"])
    for viewer in (0, 1, 2, None):
        view = snapshots.snapshot_view(snapshot=snapshot, viewer_seat=viewer, now=at(1))
        for seat in view["seats"]:
            if seat["index"] == viewer:
                assert seat["hand"] == [str(c) for c in state.hand(viewer)]
                continue
            # Only the cards every player knows a seat holds (docs/rules.md) are shown.
            known = state.known_mask(seat["index"])
            shown = [str(c) for c in state.hand(seat["index"]) if known >> c.code & 1]
            assert seat["hand"] == shown
            assert seat["hidden"] == state.hand_size(seat["index"]) - len(shown) > 0
