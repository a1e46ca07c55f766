"""Correspondence games in matchmaking: days per move in seeks and challenges, the untimed
game between friends, and many games at once beside a live one."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.matchmaking import errors, services
from games.matchmaking.errors import MatchmakingError
from games.matchmaking.models import Seek
from games.play.models import Match, Status
from games.play.services import Player, match_create
from games.play.time_control import DAY, TimeControl
from tests.games.matchmaking.conftest import at

pytestmark = pytest.mark.django_db


def _refused(code: str, call, **kwargs) -> None:
    with pytest.raises(MatchmakingError) as refused:
        call(**kwargs)
    assert refused.value.code == code


def test_a_player_in_a_live_game_takes_on_many_correspondence_challenges(make_player):
    anna, boris, vera = make_player("anna"), make_player("boris"), make_player("vera")
    match_create(players=[Player(user=anna), Player(user=vera)],
                 time_control=TimeControl(180, 2))
    matches = []
    for _ in range(3):
        challenge = services.challenge_create(challenger=boris, challenged=anna,
                                              time_control="3d", rated=True, now=at(0))
        assert challenge.expires_at == at(0) + timedelta(days=7)
        matches.append(services.challenge_accept(user=anna, token=challenge.token, now=at(1)))
    assert all(m.correspondence and m.rated and m.clock_initial == 3 * DAY for m in matches)
    assert Match.objects.filter(correspondence=True, status=Status.TRUMPS).count() == 3
    # A live game is still refused while the live one runs; correspondence ones never block.
    _refused(errors.IN_GAME, services.pool_join, user=anna, pool="3+2", now=at(2))
    services.pool_join(user=boris, pool="3+2", now=at(2))


def test_the_untimed_correspondence_game_is_offered_by_challenge_and_casual(make_player):
    anna, boris = make_player("anna"), make_player("boris")
    _refused(errors.UNRATED_CONTROL, services.challenge_create, challenger=anna,
             challenged=boris, time_control="corr", rated=True, now=at(0))
    challenge = services.challenge_create(challenger=anna, challenged=boris,
                                          time_control="corr", rated=False, now=at(0))
    match = services.challenge_accept(user=boris, token=challenge.token, now=at(1))
    assert match.correspondence
    assert match.clock_initial is None
    assert TimeControl.of(match).key == "corr"
    # Not in a seek, nor in a pool.
    _refused(errors.UNKNOWN_TIME_CONTROL, services.seek_create, user=anna,
             time_control="corr", rated=False, now=at(2))
    _refused(errors.UNKNOWN_TIME_CONTROL, services.pool_join, user=anna, pool="1d", now=at(2))


def test_a_correspondence_seek_is_taken_once_and_the_others_stand(make_player):
    anna, boris = make_player("anna"), make_player("boris")
    corr = services.seek_create(user=anna, time_control="1d", rated=True, now=at(0))
    live = services.seek_create(user=anna, time_control="5+3", rated=True, now=at(0))
    assert corr.correspondence
    match = services.seek_accept(user=boris, seek_id=corr.pk, now=at(1))
    assert (match.correspondence, match.clock_initial) == (True, DAY)
    assert list(Seek.objects.values_list("pk", flat=True)) == [live.pk]
