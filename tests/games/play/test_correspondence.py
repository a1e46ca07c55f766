"""Correspondence play: days per move, the deadline and its reminder, untimed games claimed
after a silence, presence that ends nothing, vacations, and the lists of a player's games.
Time is passed to the services (never slept)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts.models import RatingMode
from games.play import checks, errors, events, services
from games.play.models import Match, Status, TerminationReason
from games.play.services import Player
from games.play.services.correspondence import vacation_end, vacation_start
from games.play.time_control import (
    CORRESPONDENCE,
    CORRESPONDENCE_UNTIMED,
    DAY,
    TimeControl,
    offered,
)
from games.play.your_turn import (
    correspondence_games,
    next_game,
    vacation_days_left,
    your_turn_count,
)
from games.rules import State
from tests.games.conftest import T_AHEAD as T0
from tests.games.play.test_services import assert_code, legal, reload

DAYS = timedelta(days=1)


def corr_duel(alice, bob, key="2d", *, now=T0, rated=False) -> Match:
    return services.match_create(
        players=[Player(user=alice), Player(user=bob)], seed=42, dealer=1, trumps="SH",
        time_control=TimeControl.parse(key), rated=rated, now=now,
    )


def play(match: Match, *, now) -> Match:
    match = reload(match)
    move = next(str(m) for m in State.from_tpn(match.position_tpn).legal_moves())
    return services.move_apply(match_id=match.pk, seat=match.to_move, move=move,
                               expected_ply=match.ply, now=now).match


def clocks(match: Match) -> list[int | None]:
    return [seat.clock_ms for seat in reload(match).seats.order_by("index")]


# --- time controls ---------------------------------------------------------------------------


def test_the_days_per_move_controls_and_their_keys():
    assert [c.key for c in CORRESPONDENCE] == ["1d", "2d", "3d", "5d", "7d"]
    assert all(c.per_move and c.timed and c.correspondence for c in CORRESPONDENCE)
    assert TimeControl.parse("3d") == TimeControl(3 * DAY, correspondence=True)
    assert TimeControl.parse("corr") is CORRESPONDENCE_UNTIMED
    assert not CORRESPONDENCE_UNTIMED.timed
    assert CORRESPONDENCE_UNTIMED.days is None
    assert str(TimeControl.parse("1d").label) == "1 day a move"
    assert str(TimeControl.parse("5d").label) == "5 days a move"
    assert offered("corr") is None  # only where an untimed game is allowed
    assert offered("corr", untimed_correspondence=True) is CORRESPONDENCE_UNTIMED
    assert offered("7d") == TimeControl(7 * DAY, correspondence=True)
    with pytest.raises(ValueError, match="whole days"):
        TimeControl(DAY + 1, correspondence=True)
    with pytest.raises(ValueError, match="no increment"):
        TimeControl(DAY, 5, correspondence=True)


@given(st.sampled_from([*CORRESPONDENCE, CORRESPONDENCE_UNTIMED]))
@settings(max_examples=10)
def test_every_correspondence_key_reads_back_as_itself(control):
    assert TimeControl.parse(control.key) == control


# --- the clock -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_clock_starts_full_at_every_turn_and_the_game_is_rated_apart(alice, bob):
    match = corr_duel(alice, bob, "2d", rated=True)
    assert match.correspondence
    assert match.rating_mode == RatingMode.CORRESPONDENCE
    assert clocks(match) == [2 * DAY * 1000] * 2
    # The reminder (a quarter of the time left) comes before the flag.
    assert reload(match).due_at == T0 + 1.5 * DAYS

    play(match, now=T0 + 1.9 * DAYS)  # seat 0 used almost all of its two days
    assert clocks(match) == [2 * DAY * 1000] * 2
    match = reload(match)
    assert match.to_move == 1
    assert match.due_at == T0 + 1.9 * DAYS + 1.5 * DAYS
    seats = list(match.seats.order_by("index"))
    assert checks.remaining_ms(match, seats[1], T0 + 2.9 * DAYS) == DAY * 1000


@pytest.mark.django_db
def test_the_watch_reminds_once_then_flags_the_silent_mover(alice, bob):
    match = corr_duel(alice, bob, "1d")
    play(match, now=T0 + timedelta(hours=1))  # seat 1 to move until T0 + 25 h
    start = T0 + timedelta(hours=1)

    assert services.deadlines_enforce(now=start + timedelta(hours=17)) == 0
    assert services.deadlines_enforce(now=start + timedelta(hours=18)) == 1  # the reminder
    match = reload(match)
    assert match.status == Status.PLAYING
    assert match.reminded_turn_at == start
    assert match.due_at == start + DAYS
    assert services.deadlines_enforce(now=start + timedelta(hours=23)) == 0

    assert services.deadlines_enforce(now=start + DAYS) == 1
    match = reload(match)
    assert (match.status, match.termination, match.loser_seat) == (
        Status.FINISHED, TerminationReason.TIMEOUT, 1)


@pytest.mark.django_db
def test_trumps_are_chosen_on_the_correspondence_clock(alice, bob):
    match = services.match_create(players=[Player(user=alice), Player(user=bob)], seed=1,
                                  dealer=1, time_control=TimeControl.parse("3d"), now=T0)
    match = reload(match)
    assert match.status == Status.TRUMPS
    seats = list(match.seats.order_by("index"))
    assert checks.trump_timeout_at(match, seats) == T0 + 3 * DAYS
    # Long past a live game's trump timeout, nothing happens.
    assert services.deadlines_enforce(now=T0 + timedelta(hours=1)) == 0
    assert reload(match).status == Status.TRUMPS
    services.deadlines_enforce(now=T0 + 3 * DAYS)
    match = reload(match)
    assert len(match.trumps_chosen) == 1
    assert match.to_move == 1
    assert match.turn_started_at == T0 + 3 * DAYS


@pytest.mark.django_db
def test_leaving_the_page_ends_nothing(alice, bob):
    match = corr_duel(alice, bob, "1d")
    play(match, now=T0)
    later = T0 + timedelta(hours=5)
    services.seat_presence_change(match_id=match.pk, seat=1, connected=True, now=T0)
    services.seat_presence_change(match_id=match.pk, seat=1, connected=False, now=T0)
    match = reload(match)
    seats = list(match.seats.order_by("index"))
    assert checks.claim_available_at(match, seats, later, movers={0, 1}) is None
    assert_code(errors.CANNOT_CLAIM, services.match_claim_victory, match_id=match.pk, seat=0,
                now=later)


@pytest.mark.django_db
def test_an_untimed_game_never_flags_but_may_be_claimed_after_a_silence(alice, bob):
    match = corr_duel(alice, bob, "corr")
    assert not reload(match).rated
    assert reload(match).due_at is None
    play(match, now=T0)  # bob (seat 1) to move and silent
    assert services.deadlines_enforce(now=T0 + 100 * DAYS) == 0
    assert_code(errors.CANNOT_CLAIM, services.match_claim_victory, match_id=match.pk, seat=0,
                now=T0 + 13 * DAYS)
    change = services.match_claim_victory(match_id=match.pk, seat=0, now=T0 + 14 * DAYS)
    assert (change.match.termination, change.match.loser_seat) == (
        TerminationReason.ABANDONMENT, 1)


@pytest.mark.django_db
def test_only_a_timed_correspondence_game_may_be_rated(alice, bob):
    with pytest.raises(ValueError, match="rated"):
        corr_duel(alice, bob, "corr", rated=True)


# --- vacations -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_vacation_moves_the_deadlines_of_the_games_waiting_and_to_come(alice, bob):
    waiting = corr_duel(alice, bob, "2d")  # alice (seat 0) to move
    later = corr_duel(bob, alice, "2d", now=T0 + DAYS)  # alice's turn comes in the vacation
    vacation_start(user=alice, days=5, now=T0 + DAYS)
    assert clocks(waiting)[0] == (2 + 5) * DAY * 1000
    flag = T0 + 7 * DAYS
    assert checks.flag_at(reload(waiting), list(reload(waiting).seats.order_by("index"))) == flag
    assert reload(waiting).due_at == flag - 0.5 * DAYS

    play(later, now=T0 + 2 * DAYS)  # alice's turn begins with 4 days of vacation left
    assert clocks(later)[1] == (2 + 4) * DAY * 1000
    assert vacation_days_left(user_id=alice.pk, now=T0 + 2 * DAYS) == 9

    vacation_end(user=alice, now=T0 + 3 * DAYS)  # three days unused
    assert clocks(waiting)[0] == (2 + 2) * DAY * 1000
    assert clocks(later)[1] == (2 + 1) * DAY * 1000
    assert vacation_days_left(user_id=alice.pk, now=T0 + 3 * DAYS) == 12
    # A turn that begins after the vacation has the plain two days.
    play(waiting, now=T0 + 3 * DAYS)
    play(waiting, now=T0 + 4 * DAYS)
    assert clocks(waiting)[0] == 2 * DAY * 1000


@pytest.mark.django_db
def test_a_vacation_is_refused_beyond_the_yearly_allowance_and_when_on_one(alice, bob):
    vacation_start(user=alice, days=10, now=T0)
    assert_code(errors.NOT_ALLOWED, vacation_start, user=alice, days=1, now=T0 + DAYS)
    assert_code(errors.NOT_ALLOWED, vacation_start, user=alice, days=5, now=T0 + 11 * DAYS)
    vacation_start(user=alice, days=4, now=T0 + 11 * DAYS)
    assert vacation_days_left(user_id=alice.pk, now=T0 + 20 * DAYS) == 0
    # A year after the first one began, its days are free again.
    assert vacation_days_left(user_id=alice.pk, now=T0 + 366 * DAYS) == 10
    assert vacation_end(user=bob, now=T0) is None


# --- the lists -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_games_waiting_come_first_the_most_urgent_first(alice, bob, make_user):
    carol = make_user("carol")
    slow = corr_duel(alice, bob, "7d", now=T0)  # alice to move until T0 + 7 d
    urgent = corr_duel(alice, carol, "1d", now=T0 + DAYS)  # until T0 + 2 d
    theirs = corr_duel(bob, alice, "3d", now=T0)  # bob to move
    live = services.match_create(players=[Player(user=alice), Player(user=bob)], seed=3,
                                 dealer=1, trumps="SH", time_control=TimeControl(60, 1))

    page = correspondence_games(user_id=alice.pk)
    assert (page.total, page.waiting, page.pages) == (3, 2, 1)
    games = page.games
    assert [g.match_id for g in games] == [urgent.pk, slow.pk, theirs.pk]
    assert [g.your_turn for g in games] == [True, True, False]
    assert games[0].opponents == ("carol",)
    assert games[0].time_left(T0 + 1.5 * DAYS) == 0.5 * DAYS
    assert games[0].mini is not None
    assert len(games[0].mini.hand) == len(
        State.from_tpn(reload(urgent).position_tpn).hand(0))
    assert your_turn_count(user_id=alice.pk) == 2
    assert your_turn_count(user_id=bob.pk) == 1
    assert next_game(user_id=alice.pk, after=urgent.pk) == slow.pk
    assert next_game(user_id=alice.pk) == urgent.pk
    assert live.pk not in [g.match_id for g in games]
    second = correspondence_games(user_id=alice.pk, page=2, per_page=2)
    assert (second.page, second.pages, [g.match_id for g in second.games]) == (2, 2, [theirs.pk])

    play(urgent, now=T0 + DAYS)
    assert your_turn_count(user_id=alice.pk) == 1
    assert next_game(user_id=alice.pk, after=slow.pk) is None
    assert legal(slow)


# --- the events --------------------------------------------------------------------------------


@pytest.fixture
def subscribed(play_events):
    """The moments sent to the notifications, as they would receive them."""
    return play_events


def _next(received, timeout=30.0):  # generous: eager tasks run in a thread on a busy machine
    return received.get(timeout=timeout)


@pytest.mark.django_db(transaction=True)
def test_the_turns_the_reminder_and_the_end_are_sent_to_subscribers(alice, bob, subscribed):
    match = corr_duel(alice, bob, "1d")
    assert _next(subscribed) == (events.TURN_TASK, (
        match.pk, alice.pk, 0, (T0 + DAYS).isoformat()))
    moved = T0 + timedelta(hours=1)
    play(match, now=moved)
    assert _next(subscribed) == (events.TURN_TASK, (
        match.pk, bob.pk, 1, (moved + DAYS).isoformat()))

    services.deadlines_enforce(now=moved + timedelta(hours=18))
    services.deadlines_enforce(now=moved + timedelta(hours=19))  # once per turn
    assert _next(subscribed) == (events.REMINDER_TASK, (
        match.pk, bob.pk, 1, (moved + DAYS).isoformat()))

    services.deadlines_enforce(now=moved + DAYS)
    assert _next(subscribed) == (events.FINISHED_TASK, (match.pk,))
    assert subscribed.empty()
