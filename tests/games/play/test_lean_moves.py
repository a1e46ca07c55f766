"""The common move: read in one query, written in one statement on the version read, played on
the game this process keeps (`games.play.game_cache`) instead of the whole game from the deal.
Whatever the caches of the process hold, or lose, the stored game is the one the rules make."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.play import selectors, services
from games.play.game_cache import GameCache, recent_games
from games.play.models import Match, Move, Seat
from games.play.services import Player
from games.play.services.play import _move_write, _Played
from games.play.snapshot_cache import recent
from games.play.time_control import TimeControl
from games.rules import Game, State, deal
from tests.games.conftest import T0, at


def _replayed(match: Match) -> Game:
    """The match's game played again from its deal, from the stored rows alone."""
    game = Game(State.from_tpn(match.deal_tpn), seed=match.seed, dealer=match.dealer)
    for text in Move.objects.filter(match=match).order_by("ply").values_list("text", flat=True):
        game.play(text)
    return game


# Each example makes its own players (the fixture numbers them), so sharing it is safe.
@settings(max_examples=3, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), forget=st.lists(st.sampled_from(["game", "snapshot", "both",
                                                                     "presence", "none"]),
                                                   min_size=40, max_size=40))
def test_moves_keep_the_game_the_rules_make_whatever_this_process_holds(
    seed, forget, make_user, django_capture_on_commit_callbacks
):
    """A duel played through `move_apply` while this process loses its held games and
    snapshots (as when the other player's socket is in another process) and presence
    changes bump the version between moves: every move is stored once, in order, the
    stored position and clocks are those of the game played from the deal, and the game
    kept for the next move is that game."""
    people = [Player(user=make_user()), Player(user=make_user())]
    match = services.match_create(players=people, seed=seed, trumps="SH", rated=True,
                                  time_control=TimeControl(600, 5), now=T0)
    rng = random.Random(seed)
    for ply, what in enumerate(forget):
        if match.is_over:
            break
        if what in ("game", "both"):
            recent_games.clear()
        if what in ("snapshot", "both"):
            recent.clear()
        if what == "presence":
            services.seat_presence_change(match_id=match.pk, seat=1 - match.to_move,
                                          connected=True, now=at(ply))
        move = rng.choice(State.from_tpn(match.position_tpn).legal_moves())
        with django_capture_on_commit_callbacks(execute=True):
            change = services.move_apply(match_id=match.pk, seat=match.to_move, move=str(move),
                                         expected_ply=ply, now=at(ply + 1))
        match = Match.objects.get(pk=match.pk)
        assert match.ply == ply + 1 == change.snapshot["ply"]
        assert list(Move.objects.filter(match=match).order_by("ply")
                    .values_list("ply", flat=True)) == list(range(1, ply + 2))
        game = _replayed(match)
        assert match.position_tpn == game.state.tpn()
        assert match.position_known == game.state.known_text()
        last = Move.objects.get(match=match, ply=match.ply)
        clocks = list(Seat.objects.filter(match=match).order_by("index")
                      .values_list("clock_ms", flat=True))
        assert last.clocks_after == clocks
        if not match.is_over:
            assert match.to_move == game.state.to_move
            moves = [text for _seat, text in selectors.match_moves(match=match)[0]]
            held = recent_games.game_of(match.pk, deal_tpn=match.deal_tpn, seed=match.seed,
                                        moves=moves)
            assert held is not None
            assert held.position_keys() == game.position_keys()


def test_a_move_written_on_a_version_that_moved_on_writes_nothing(alice, bob):
    """The one statement writes the move only on the version it read: after a change between
    the read and the write (here a presence change), nothing of the move is stored, and the
    move sent again is played on the match as it now is."""
    match = services.match_create(players=[Player(user=alice), Player(user=bob)], seed=7,
                                  trumps="SH", time_control=TimeControl(600, 5), now=T0)
    read = selectors.match_with_seats(match_id=match.pk)
    assert read is not None
    stale, seats = read
    services.seat_presence_change(match_id=match.pk, seat=1, connected=True, now=at(1))
    mover = seats[stale.to_move]
    clock_before = mover.clock_ms
    mover.clock_ms = clock_before - 2000 + 5000
    move = str(State.from_tpn(stale.position_tpn).legal_moves()[0])
    stale.ply += 1
    written = _move_write(stale, mover, read_version=stale.version,
                          played=_Played(text=move, clocks_after=[0, 0]), elapsed=2000,
                          now=at(2))
    assert not written
    fresh = Match.objects.get(pk=match.pk)
    assert (fresh.ply, fresh.version) == (0, stale.version + 1)
    assert not Move.objects.filter(match=match).exists()
    assert Seat.objects.get(match=match, index=mover.index).clock_ms == clock_before

    change = services.move_apply(match_id=match.pk, seat=fresh.to_move, move=move,
                                 expected_ply=0, now=at(2))
    assert change.match.ply == 1
    assert change.match.version == fresh.version + 1
    assert Seat.objects.get(match=match, index=mover.index).clock_ms == clock_before + 3000


def test_a_held_game_serves_only_the_deal_and_the_moves_it_was_made_of():
    start = deal(2, 11, 0, "SH", False)
    game = Game(start, seed=11, dealer=0)
    moves = []
    for _ in range(6):
        moves.append(str(game.play(game.legal_moves()[0])))
    cache = GameCache(size=2)
    cache.put(5, game.clone(), deal_tpn=start.tpn())
    kept = cache.game_of(5, deal_tpn=start.tpn(), seed=11, moves=moves)
    assert kept is not None
    assert kept.position_keys() == game.position_keys()
    kept.play(kept.legal_moves()[0])  # the caller's copy: the held game stays as it was
    assert cache.game_of(5, deal_tpn=start.tpn(), seed=11, moves=moves) is not None
    # Another deal or seed under the same id (a match id used again), moves that are not
    # those played, or fewer of them: nothing is served.
    assert cache.game_of(5, deal_tpn=start.tpn(), seed=12, moves=moves) is None
    other = deal(2, 12, 0, "SH", False).tpn()
    assert cache.game_of(5, deal_tpn=other, seed=11, moves=moves) is None
    assert cache.game_of(5, deal_tpn=start.tpn(), seed=11, moves=moves[:4]) is None
    changed = [*moves[:5], "9S"]
    assert cache.game_of(5, deal_tpn=start.tpn(), seed=11, moves=changed) is None
    # Moves played since the held game are played on a copy of it.
    ahead = game.clone()
    more = [*moves, str(ahead.play(ahead.legal_moves()[0]))]
    later = cache.game_of(5, deal_tpn=start.tpn(), seed=11, moves=more)
    assert later is not None
    assert later.position_keys() == ahead.position_keys()
    # An older game than the one held is not kept; the oldest match goes past the size.
    cache.put(5, Game(start, seed=11, dealer=0), deal_tpn=start.tpn())
    assert cache.game_of(5, deal_tpn=start.tpn(), seed=11, moves=moves) is not None
    cache.put(6, Game(start, seed=11, dealer=0), deal_tpn=start.tpn())
    cache.put(7, Game(start, seed=11, dealer=0), deal_tpn=start.tpn())
    assert cache.game_of(5, deal_tpn=start.tpn(), seed=11, moves=moves) is None
