"""Snapshots: the state a move's service hands to every socket equals the state read back from
the database, and each socket's view is in its own language with only what its seat may see."""

from __future__ import annotations

import json
import random
import time

from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.play import schemas, selectors, services, snapshots
from games.play.models import Match
from games.play.services import Player
from games.play.services.core import change_event
from games.play.snapshot_cache import event_snapshot, recent
from games.play.state_message import RenderedStates, state_message
from games.play.time_control import TimeControl
from games.rules import State, visible_hands
from games.rules.cards import CARD_NAMES, mask_codes
from tests.games.conftest import T0, at


def _play_randomly(match: Match, rng: random.Random, plies: int, capture) -> None:
    for ply in range(plies):
        match = Match.objects.get(pk=match.pk)
        if match.is_over:
            return
        before = State.from_tpn(match.position_tpn)
        move = str(rng.choice(before.legal_moves()))
        with capture(execute=True):
            change = services.move_apply(match_id=match.pk, seat=match.to_move, move=move,
                                         expected_ply=match.ply, now=at(ply + 1))
        assert recent.get(match.pk, version=change.version) == change.snapshot
        recent.clear()  # read back from the database alone
        assert change.snapshot == snapshots.match_snapshot(match_id=match.pk, now=at(ply + 1))
        for viewer in (match.to_move, None):
            view = state_message(snapshot=change.snapshot, viewer_seat=viewer, now=at(ply + 1))
            schemas.state_adapter.validate_python(view)
            # A take's cards are the top of the pile it was played on; other moves take none.
            taken = before.pile[-before.take_count():] if move.startswith("+") else ()
            assert view["last_move"]["taken"] == [str(card) for card in taken]


# Each example makes its own players (the fixture numbers them), so sharing it is safe.
@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]))
def test_the_snapshot_made_by_a_move_equals_the_one_read_back(
    seed, players, make_user, django_capture_on_commit_callbacks
):
    people = [Player(user=make_user()) for _ in range(players)]
    match = services.match_create(players=people, seed=seed, trumps="SHDC"[:players],
                                  time_control=TimeControl(300 if players == 2 else None),
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
            view = state_message(snapshot=snapshot, viewer_seat=0, now=at(1))
        names[language] = view["seats"][1]["name"]
    assert names["en"] == "AI level 2"
    assert len(set(names.values())) == 3, names
    # A socket's text is made in the socket's language, whatever language is active.
    texts = RenderedStates()
    with translation.override("en"):
        sent = {language: json.loads(texts.text(snapshot=snapshot, viewer_seat=0,
                                                language=language))["seats"][1]["name"]
                for language in ("ru", "en", "pl")}
    assert sent == names


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4]), plies=st.integers(0, 40))
def test_a_table_view_shows_each_viewer_what_the_rules_let_it_see(seed, players, plies,
                                                                   make_user):
    people = [Player(user=make_user()) for _ in range(players)]
    match = services.match_create(players=people, seed=seed, trumps="SHDC"[:players], now=T0)
    rng = random.Random(seed)
    for ply in range(plies):
        match = Match.objects.get(pk=match.pk)
        if match.is_over:
            break
        moves = State.from_tpn(match.position_tpn).legal_moves()
        services.move_apply(match_id=match.pk, seat=match.to_move, move=str(rng.choice(moves)),
                            expected_ply=match.ply, now=at(ply + 1))
    match = Match.objects.get(pk=match.pk)
    # The truth, replayed from the deal: the rules engine's own account of what is known.
    game = selectors.match_game(match=match)
    assert game is not None
    snapshot = snapshots.match_snapshot(match_id=match.pk, now=at(100))
    assert snapshot is not None
    # What the sockets of a process are sent: the shared part is made once, each viewer's
    # text once, and it is that viewer's own state (the instant aside).
    texts = RenderedStates()
    sent = {viewer: texts.text(snapshot=snapshot, viewer_seat=viewer, language="en")
            for viewer in (*range(players), None, None)}
    for viewer in (*range(players), None):
        view = state_message(snapshot=snapshot, viewer_seat=viewer, now=at(100))
        schemas.state_adapter.validate_python(view)
        assert ({**json.loads(sent[viewer]), "server_time_ms": 0}
                == {**json.loads(json.dumps(view)), "server_time_ms": 0})
        known, hidden = visible_hands(game.state, viewer)
        for seat in view["seats"]:
            index = seat["index"]
            assert seat["hand"] == [CARD_NAMES[c] for c in mask_codes(known[index])]
            assert seat["hidden"] == hidden[index]
            assert seat["hand_size"] == game.state.hand_size(index)
            if index != viewer and index not in game.state.out and viewer is not None:
                # Another seat's hand is never shown whole while it holds unknown cards.
                assert set(seat["hand"]) <= {str(c) for c in game.state.hand(index)}


def test_a_draw_may_be_offered_in_a_duel_of_people_and_at_a_table_by_who_holds_cards(
        make_user, alice):
    duel = services.match_create(players=[Player(user=alice), Player(user=make_user())], seed=3,
                                 trumps="SH", now=T0)
    against_ai = services.match_create(players=[Player(user=alice), Player(ai_level=1)],
                                       seed=3, trumps="SH", now=T0)
    table = services.match_create(players=[Player(user=make_user()) for _ in range(3)], seed=4,
                                  trumps="SHD", now=T0)
    choosing = services.match_create(players=[Player(user=alice), Player(user=make_user())],
                                     seed=5, now=T0)
    # Seat 1 is out; seat 3 is the AI, which answers for itself.
    with_out = services.match_create(
        players=[Player(user=make_user()) for _ in range(3)] + [Player(ai_level=2)],
        start_tpn="SHDC 7C/-/9C6D/TCJC 8C 2 1", now=T0)

    def may_offer(match: Match, viewer: int | None) -> bool:
        snapshot = snapshots.match_snapshot(match_id=match.pk, now=T0)
        assert snapshot is not None
        return state_message(snapshot=snapshot, viewer_seat=viewer, now=at(1))["can_offer_draw"]

    assert may_offer(duel, 0)
    assert may_offer(duel, 1)
    assert not may_offer(duel, None)  # a spectator
    assert not may_offer(against_ai, 0)
    assert all(may_offer(table, seat) for seat in range(3))
    assert not may_offer(table, None)
    assert not may_offer(choosing, 0)  # the trumps are being chosen
    assert (may_offer(with_out, 0), may_offer(with_out, 1), may_offer(with_out, 2)) == (
        True, False, True)


def test_a_seat_that_went_out_shows_its_place_during_play_and_the_stored_one_after(make_user):
    # Seat 1 is out (the first out: the first place); seat 2 is to move on 8C.
    people = [Player(user=make_user()) for _ in range(4)]
    match = services.match_create(players=people, start_tpn="SHDC 7C/-/9C6D/TCJC 8C 2 1", now=T0)
    snapshot = snapshots.match_snapshot(match_id=match.pk, now=at(1))
    assert snapshot is not None
    for viewer in (0, 1, 2, 3, None):
        view = state_message(snapshot=snapshot, viewer_seat=viewer, now=at(1))
        assert [seat["place"] for seat in view["seats"]] == [None, 1, None, None]
    change = services.match_resign(match_id=match.pk, seat=0, now=at(2))
    view = state_message(snapshot=change.snapshot, viewer_seat=None, now=at(2))
    stored = {seat.index: seat.place for seat in selectors.match_seats(match=change.match)}
    assert [seat["place"] for seat in view["seats"]] == [stored[i] for i in range(4)]
    assert stored[1] == 1
    assert stored[0] == max(stored.values())


def test_a_made_state_is_sent_again_within_the_reuse_time_and_then_let_go(make_user, alice):
    match = services.match_create(players=[Player(user=alice), Player(user=make_user())], seed=3,
                                  trumps="SH", now=T0)
    snapshot = snapshots.match_snapshot(match_id=match.pk)
    assert snapshot is not None
    texts = RenderedStates()
    texts.REUSE_SECONDS = 0.05
    first = texts.text(snapshot=snapshot, viewer_seat=0, language="en")
    assert texts.text(snapshot=snapshot, viewer_seat=0, language="en") is first
    time.sleep(0.06)
    texts.text(snapshot={**snapshot, "id": match.pk + 1}, viewer_seat=0, language="en")
    # Past its time a state is made anew, so the one made before is held no longer.
    assert len(texts) == 1
    assert texts.text(snapshot=snapshot, viewer_seat=0, language="en") is not first


def test_an_event_is_opened_only_where_its_change_was_not_made_and_there_once(make_user, alice):
    match = services.match_create(players=[Player(user=alice), Player(user=make_user())], seed=3,
                                  trumps="SH", now=T0)
    change = services.match_resign(match_id=match.pk, seat=0, now=at(1))
    event = change_event(change.snapshot)
    # The process that made the change holds its snapshot (`_committed` keeps it): the same
    # object, nothing opened.
    recent.put(change.snapshot)
    assert event_snapshot(event) is change.snapshot
    # Another process opens it once; its other sockets are given what the first opened.
    recent.clear()
    opened = event_snapshot(event)
    assert json.loads(json.dumps(opened)) == json.loads(json.dumps(change.snapshot))
    assert event_snapshot(event) is opened
    # A change that could not be read back carries none, nor does an event of another shape
    # (a server of another version during a deploy): the socket reads the match itself.
    assert event_snapshot({**event, "snapshot": None}) is None
    assert event_snapshot({"type": "match.changed", "version": event["version"],
                           "snapshot": change.snapshot}) is None
