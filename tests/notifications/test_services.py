"""The notification services: each moment told once, to the right player, read, pruned."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from games.matchmaking import services as matchmaking
from games.play import events
from games.play import services as play
from games.play.models import Match, Seat
from games.play.services import Player
from notifications import selectors, services
from notifications.models import Kind, Notification
from notifications.schemas import Item

pytestmark = pytest.mark.django_db


def challenge(alice, bob):
    return matchmaking.challenge_create(challenger=alice, challenged=bob, time_control="3+2",
                                        rated=True)


def test_a_challenge_tells_the_challenged_player_once(alice, bob):
    made = challenge(alice, bob)
    told = Notification.objects.get(user=bob)
    assert (told.kind, told.actor, told.challenge) == (Kind.CHALLENGE, alice, made)
    assert services.notification_challenge(challenge=made) is None  # the same moment again
    assert Notification.objects.filter(user=bob).count() == 1
    assert not Notification.objects.filter(user=alice).exists()
    item = selectors.notification_item(selectors.notification_get(notification_id=told.pk))
    Item.model_validate(item)
    assert item["alert"]
    assert "alice" in item["text"]
    assert "3+2" in item["text"]
    assert item["accept_url"] == f"/challenge/{made.token}/accept/"


def test_a_challenge_link_for_anyone_tells_no_one(alice, bob):
    matchmaking.challenge_create(challenger=alice, challenged=None, time_control="3+2", rated=False)
    assert not Notification.objects.exists()


def test_an_answered_challenge_offers_no_accept_any_more(alice, bob):
    made = challenge(alice, bob)
    matchmaking.challenge_decline(user=bob, token=made.token)
    item = selectors.notification_item(Notification.objects.get(user=bob))
    assert item["accept_url"] is None
    assert item["decline_url"] is None


def test_an_answered_challenge_is_read(alice, bob, make_user):
    made = challenge(alice, bob)
    matchmaking.challenge_accept(user=bob, token=made.token)
    assert Notification.objects.get(challenge=made).read_at is not None
    withdrawn = challenge(make_user(), bob)
    matchmaking.challenge_decline(user=withdrawn.challenger, token=withdrawn.token)
    assert Notification.objects.get(challenge=withdrawn).read_at is not None


def test_the_text_is_in_the_active_language(alice, bob):
    challenge(alice, bob)
    notification = Notification.objects.get(user=bob)
    with translation.override("ru"):
        text = selectors.notification_text(notification)
    assert "alice" in text
    assert text != selectors.notification_text(notification)


def test_a_rematch_offer_tells_the_other_player_once(duel, alice, bob, play_events,
                                                    django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        play.match_resign(match_id=duel.pk, seat=0)
        change = play.match_rematch(match_id=duel.pk, seat=0)
        assert change is not None
        play.match_rematch(match_id=duel.pk, seat=0)  # asked again: no new offer
    sent = [args for name, args in play_events.settled() if name == events.REMATCH_TASK]
    assert sent == [(duel.pk, 0)]
    # What the event's task does.
    assert len(services.notification_rematch_offer(match_id=duel.pk, seat=0)) == 1
    assert services.notification_rematch_offer(match_id=duel.pk, seat=0) == []  # once
    offered = Notification.objects.get(kind=Kind.REMATCH)
    assert (offered.user, offered.actor, offered.match_id) == (bob, alice, duel.pk)
    assert selectors.notification_item(offered)["answer_url"] == f"/game/{duel.pk}/"


def test_a_rematch_against_the_ai_tells_no_one(alice):
    match = play.match_create(players=[Player(user=alice), Player(ai_level=1)], seed=3,
                              dealer=0, trumps="SH")
    play.match_resign(match_id=match.pk, seat=0)
    play.match_rematch(match_id=match.pk, seat=0)
    assert services.notification_rematch_offer(match_id=match.pk, seat=0) == []
    assert not Notification.objects.filter(kind=Kind.REMATCH).exists()


def _started(duel):
    match = Match.objects.get(pk=duel.pk)
    assert match.status == "playing"
    return match


def test_a_declined_draw_tells_the_offerer_and_a_withdrawn_one_does_not(
        duel, alice, bob, play_events, django_capture_on_commit_callbacks):
    _started(duel)
    with django_capture_on_commit_callbacks(execute=True):
        play.match_draw_offer(match_id=duel.pk, seat=0)
        play.match_draw_decline(match_id=duel.pk, seat=0)  # alice takes her own offer back
        play.match_draw_offer(match_id=duel.pk, seat=0)
        play.match_draw_decline(match_id=duel.pk, seat=1)  # bob declines it
        play.match_draw_offer(match_id=duel.pk, seat=0)
        play.match_draw_decline(match_id=duel.pk, seat=1)  # declined again: told again
    sent = [args for name, args in play_events.settled() if name == events.DRAW_DECLINED_TASK]
    assert [(offerer, decliner) for _match, _version, offerer, decliner in sent] == [
        (0, 1), (0, 1)]
    for match_id, version, offerer, decliner in sent:  # what the event's task does
        services.notification_draw_declined(match_id=match_id, version=version,
                                            offerer=offerer, decliner=decliner)
    match_id, version, offerer, decliner = sent[0]
    assert services.notification_draw_declined(match_id=match_id, version=version,
                                               offerer=offerer, decliner=decliner) is None
    declined = Notification.objects.filter(kind=Kind.DRAW_DECLINED)
    assert declined.count() == 2
    assert {(n.user, n.actor) for n in declined} == {(alice, bob)}


def test_the_end_of_a_game_tells_only_the_players_away_from_its_page(duel, alice, bob):
    now = timezone.now()
    Seat.objects.filter(match=duel, index=0).update(present_until=now + timedelta(seconds=30))
    play.match_resign(match_id=duel.pk, seat=1, now=now)
    assert services.notification_match_finished(match_id=duel.pk, now=now) == 1
    assert services.notification_match_finished(match_id=duel.pk, now=now) == 0  # told once
    told = Notification.objects.get()
    assert told.user == bob
    assert "lost" in selectors.notification_text(told)


def test_a_live_game_tells_nothing_before_its_end(duel):
    assert services.notification_match_finished(match_id=duel.pk) == 0


def test_a_turn_is_told_once_and_not_once_the_game_moved_on(duel, alice, bob):
    match = _started(duel)
    mover = Seat.objects.get(match=match, index=match.to_move).user
    assert services.notification_turn(match_id=match.pk, user_id=mover.pk, ply=match.ply)
    assert services.notification_turn(match_id=match.pk, user_id=mover.pk, ply=match.ply) is None
    assert services.notification_turn(match_id=match.pk, user_id=mover.pk,
                                      ply=match.ply + 1) is None
    # Unread, the turn stands for the game: the reminder of it waits until it is read.
    assert services.notification_turn(match_id=match.pk, user_id=mover.pk, ply=match.ply,
                                      reminder=True) is None
    services.notifications_mark_read(user_id=mover.pk)
    reminder = services.notification_turn(match_id=match.pk, user_id=mover.pk, ply=match.ply,
                                          reminder=True)
    assert reminder is not None
    assert reminder.kind == Kind.REMINDER


def test_a_trump_choice_and_the_first_move_at_ply_0_are_two_turns(alice, bob):
    from games.play.services.core import trump_choice_of
    from games.play.time_control import TimeControl

    match = play.match_create(players=[Player(user=alice), Player(user=bob)], seed=7, dealer=1,
                              time_control=TimeControl.parse("2d"))
    for _choice in range(2):
        match.refresh_from_db()
        chooser = Seat.objects.get(match=match, index=match.to_move).user
        assert services.notification_turn(match_id=match.pk, user_id=chooser.pk, ply=0)
        services.notifications_mark_read(user_id=chooser.pk)  # one unread per game
        play.match_choose_trump(match_id=match.pk, seat=match.to_move,
                                suit=trump_choice_of(match).free_suits[0].letter)
    match.refresh_from_db()
    leader = Seat.objects.get(match=match, index=match.to_move).user
    assert services.notification_turn(match_id=match.pk, user_id=leader.pk, ply=0)
    assert set(Notification.objects.filter(user=leader).values_list("key", flat=True)) == {
        f"turn:{match.pk}:0:trumps", f"turn:{match.pk}:0"}


def test_marking_read_one_and_all(alice, bob, make_user):
    for _ in range(3):
        challenge(make_user(), bob)
    first = Notification.objects.filter(user=bob).first()
    assert selectors.unread_count(user_id=bob.pk) == 3
    assert services.notifications_mark_read(user_id=alice.pk, notification_id=first.pk) == 0
    assert services.notifications_mark_read(user_id=bob.pk, notification_id=first.pk) == 1
    assert selectors.unread_count(user_id=bob.pk) == 2
    assert services.notifications_mark_read(user_id=bob.pk) == 2
    assert selectors.unread_count(user_id=bob.pk) == 0


def test_pruning_removes_only_the_old(alice, bob, settings):
    settings.NOTIFICATIONS_KEEP_DAYS = 30
    now = timezone.now()
    old = services.notification_create(user_id=bob.pk, kind=Kind.TURN, key="old",
                                       now=now - timedelta(days=31))
    new = services.notification_create(user_id=bob.pk, kind=Kind.TURN, key="new",
                                       now=now - timedelta(days=29))
    assert services.notifications_prune(now=now) == 1
    assert list(Notification.objects.values_list("pk", flat=True)) == [new.pk]
    assert old is not None


def test_preferences_default_then_chosen(bob, settings):
    settings.NOTIFICATIONS_DEFAULT_CHANNELS = {"challenge": ["email"], "turn": []}
    assert selectors.wants(user_id=bob.pk, kind="challenge", channel="email")
    assert not selectors.wants(user_id=bob.pk, kind="turn", channel="email")
    services.preferences_set(user_id=bob.pk, channels={"challenge": {"push"}, "turn": {"email"}})
    chosen = selectors.preferences_of(user_id=bob.pk)
    assert chosen["challenge"] == {"push"}
    assert chosen["turn"] == {"email"}
    services.email_unsubscribe(user_id=bob.pk, kinds=["turn"])
    assert selectors.preferences_of(user_id=bob.pk)["turn"] == set()


def _move(match_id: int) -> Match:
    from games.rules import State

    match = Match.objects.get(pk=match_id)
    move = str(State.from_tpn(match.position_tpn).legal_moves()[0])
    play.move_apply(match_id=match_id, seat=match.to_move, move=move, expected_ply=match.ply)
    return Match.objects.get(pk=match_id)


def test_one_unread_turn_per_game_until_it_is_read(duel, alice, bob):
    match = _started(duel)
    mover = Seat.objects.get(match=match, index=match.to_move).user
    assert services.notification_turn(match_id=match.pk, user_id=mover.pk, ply=match.ply)
    while True:  # the game goes on until it is the same player's turn again
        match = _move(match.pk)
        if Seat.objects.get(match=match, index=match.to_move).user == mover:
            break
    assert services.notification_turn(match_id=match.pk, user_id=mover.pk, ply=match.ply) is None
    assert selectors.unread_count(user_id=mover.pk) == 1
    other = play.match_create(players=[Player(user=alice), Player(user=bob)], seed=8, dealer=1,
                              trumps="SH")
    other_mover = Seat.objects.get(match=other, index=other.to_move).user
    assert services.notification_turn(match_id=other.pk, user_id=other_mover.pk, ply=0)

    services.notifications_mark_read(user_id=mover.pk)
    assert services.notification_turn(match_id=match.pk, user_id=mover.pk, ply=match.ply)


def test_nothing_is_told_while_the_game_page_is_focused_and_focusing_it_reads_its_turns(
        duel, alice, bob, play_events, django_capture_on_commit_callbacks):
    match = _started(duel)
    seat = match.to_move
    mover = Seat.objects.get(match=match, index=seat).user
    assert services.notification_turn(match_id=match.pk, user_id=mover.pk, ply=match.ply)
    other = play.match_create(players=[Player(user=alice), Player(user=bob)], seed=8, dealer=1,
                              trumps="SH")
    other_mover = Seat.objects.get(match=other, index=other.to_move).user
    kept = services.notification_turn(match_id=other.pk, user_id=other_mover.pk, ply=0)

    with django_capture_on_commit_callbacks(execute=True):
        play.seat_presence_change(match_id=match.pk, seat=seat, connected=True)
        play.seat_focus_change(match_id=match.pk, seat=seat, focused=True)
    assert [(name, args) for name, args in play_events.settled()] == [
        (events.SEEN_TASK, (match.pk, mover.pk))]
    services.notifications_mark_read_of_match(user_id=mover.pk, match_id=match.pk)

    # Looking at the board, they have seen their turn: it is read, and no other is told.
    assert not Notification.objects.filter(user=mover, match=match, read_at__isnull=True).exists()
    assert Notification.objects.get(pk=kept.pk).read_at is None  # another game's stays
    services.notifications_mark_read(user_id=mover.pk)
    assert services.notification_turn(match_id=match.pk, user_id=mover.pk, ply=match.ply,
                                      reminder=True) is None

    play.seat_focus_change(match_id=match.pk, seat=seat, focused=False)  # the page in the back
    assert services.notification_turn(match_id=match.pk, user_id=mover.pk, ply=match.ply,
                                      reminder=True)


def test_focus_counts_only_while_the_page_s_socket_is_there(duel):
    match = _started(duel)
    seat = match.to_move
    mover = Seat.objects.get(match=match, index=seat).user
    play.seat_presence_change(match_id=match.pk, seat=seat, connected=True)
    play.seat_focus_change(match_id=match.pk, seat=seat, focused=True)
    play.seat_presence_change(match_id=match.pk, seat=seat, connected=False)

    assert Seat.objects.get(match=match, index=seat).focused == 0
    assert services.notification_turn(match_id=match.pk, user_id=mover.pk, ply=match.ply)
