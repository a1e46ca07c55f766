"""An untimed game against the AI that its player leaves unplayed ends by itself after
`GAMES_AI_GAME_SILENCE_SECONDS` (the deadline column and the watch, no task), so that quick
pairing, which refuses a player in a live game (and links to it), is not barred forever."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings

from games.matchmaking import services as matchmaking
from games.matchmaking.errors import MatchmakingError
from games.play import checks, services
from games.play.models import Match, SeatResult, Status, TerminationReason
from games.play.services import Player
from games.play.time_control import TimeControl
from games.rules import State
from tests.games.conftest import T0, at

pytestmark = pytest.mark.django_db


def silent_game(user, **options) -> Match:  # type: ignore[no-untyped-def]
    match = services.match_create(players=[Player(user=user), Player(ai_level=1)],
                                  trumps="SH", seed=5, dealer=1, now=T0, **options)
    assert match.to_move == 0  # the person leads
    return match


def test_a_silent_untimed_game_against_the_ai_ends_after_the_silence(alice):
    match = silent_game(alice)
    silence = settings.GAMES_AI_GAME_SILENCE_SECONDS
    assert silence == 24 * 3600
    assert Match.objects.get(pk=match.pk).due_at == T0 + timedelta(seconds=silence)

    with pytest.raises(MatchmakingError) as refused:
        matchmaking.pool_join(user=alice, pool="3+2")
    assert refused.value.url == f"/game/{match.pk}/"

    assert services.deadlines_enforce(now=at(silence - 1)) == 0
    assert Match.objects.get(pk=match.pk).status == Status.PLAYING
    assert services.deadlines_enforce(now=at(silence)) == 1
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.termination) == (Status.FINISHED, TerminationReason.ABANDONMENT)
    assert match.due_at is None
    assert [seat.result for seat in match.seats.order_by("index")] == [SeatResult.LOSS,
                                                                        SeatResult.WIN]
    # Free again: quick pairing takes the player.
    matchmaking.pool_join(user=alice, pool="3+2")


def test_a_move_starts_the_silence_again(alice):
    match = silent_game(alice)
    silence = settings.GAMES_AI_GAME_SILENCE_SECONDS
    for seat, second in ((0, 3600), (1, 3601)):  # the person moves, then the AI
        match = Match.objects.get(pk=match.pk)
        move = str(State.from_tpn(match.position_tpn).legal_moves()[0])
        services.move_apply(match_id=match.pk, seat=seat, move=move, expected_ply=match.ply,
                            now=at(second))
    match = Match.objects.get(pk=match.pk)
    assert match.to_move == 0
    assert match.due_at == at(3601 + silence)
    assert services.deadlines_enforce(now=at(silence)) == 0
    assert Match.objects.get(pk=match.pk).status == Status.PLAYING


def test_only_an_untimed_game_of_one_person_against_the_ai_ends_so(alice, bob):
    timed = silent_game(alice, time_control=TimeControl(180, 2))
    people = services.match_create(players=[Player(user=alice), Player(user=bob)],
                                   trumps="SH", seed=5, dealer=1, now=T0)
    for match in (timed, people):
        match = Match.objects.get(pk=match.pk)
        assert checks.silence_end_at(match, list(match.seats.order_by("index"))) is None
    assert Match.objects.get(pk=people.pk).due_at is None
    assert Match.objects.get(pk=timed.pk).due_at == at(180)  # its flag
