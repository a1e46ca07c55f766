"""What the reference bot makes of a state of the game stream (`games.ai.bot.position_of`)
is exactly what the rules say its seat may know: the whole duel, and at a table of 3-4 the
seat's observation, for every seat at every ply of real games; and its command line refuses
bad arguments and an unreachable site with status 2."""

from __future__ import annotations

import pytest

from games.ai.bot import main, position_of
from games.play import selectors, services
from games.play.services import Player
from games.play.snapshots import match_snapshot
from games.play.state_message import state_message
from games.rules import Observation
from tests.support.matches import moves_played
from tests.support.processes import free_port

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("players", "trumps"), [(2, "SH"), (3, "CDH"), (4, "CDHS")])
def test_the_bot_sees_what_its_seat_may_see(make_user, players, trumps):
    match = services.match_create(players=[Player(user=make_user()) for _ in range(players)],
                                  trumps=trumps, seed=7, dealer=0)
    for _ply in range(12):
        game = selectors.match_game(match=match)
        assert game is not None
        snapshot = match_snapshot(match_id=match.pk)
        for seat in range(players):
            seen = position_of(state_message(snapshot=snapshot, viewer_seat=seat))
            expected = (game.state.tpn() if players == 2
                        else Observation.of_state(game.state, seat).tpn())
            assert seen.tpn() == expected
        match = moves_played(match, 1)


def test_bad_arguments_and_an_unreachable_site_exit_with_status_2(capsys):
    with pytest.raises(SystemExit) as bad_url:
        main(["--token", "yt_x", "--url", "ftp://example.org"])
    assert bad_url.value.code == 2
    with pytest.raises(SystemExit) as bad_level:
        main(["--token", "yt_x", "--url", "http://127.0.0.1:1", "--level", "9"])
    assert bad_level.value.code == 2
    assert main(["--token", "yt_x", "--url", f"http://127.0.0.1:{free_port()}"]) == 2
    assert "cannot reach the site" in capsys.readouterr().err
