"""Correspondence tables in play: each seat on the days-per-move clock, the AI taking over the
seat of a player whose time ran out (never for an absence: players come and go), the "your
turn" lists with the table's games, and the table rating. Time is passed in, never slept."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import PlayerRating, RatingMode
from games.play import checks, errors, services, tasks
from games.play.errors import PlayError
from games.play.models import Match, Move, Seat, SeatResult, Status
from games.play.services import Player
from games.play.time_control import DAY, TimeControl
from games.play.your_turn import correspondence_games, next_game, your_turn_count
from games.rules import State
from notifications.models import Kind
from notifications.selectors import notification_text
from notifications.services import notification_turn
from tests.games.conftest import T_AHEAD as T0
from tests.games.play.test_tables import _play_out, first_legal, reload, seat_row

ONE_DAY = timedelta(days=1)
# Three players, seat 1 to move: a few plies to the end (docs/rules.md's perft table).
SHORT_TABLE = "CDH 7CJD/8D9H/AC6H 9C 1 -"


def corr_table(users, key="1d", *, now=T0, **options) -> Match:
    return services.match_create(
        players=[Player(user=u) for u in users], trumps="SHDC"[: len(users)], seed=7,
        dealer=0, time_control=TimeControl.parse(key), now=now, **options,
    )


@pytest.fixture
def three(make_user):
    return [make_user(name) for name in ("anna", "boris", "vera")]


def test_every_seat_has_the_days_per_move_and_the_clock_starts_full_at_each_turn(three):
    match = corr_table(three, "2d")
    assert [s.clock_ms for s in Seat.objects.filter(match=match)] == [2 * DAY * 1000] * 3
    first = match.to_move
    services.move_apply(match_id=match.pk, seat=first, move=first_legal(match),
                        expected_ply=0, now=T0 + timedelta(hours=30))
    match = reload(match)
    assert [s.clock_ms for s in Seat.objects.filter(match=match)] == [2 * DAY * 1000] * 3
    assert match.due_at == T0 + timedelta(hours=30) + timedelta(days=2) * 3 / 4  # the reminder


def test_an_absence_passes_nothing_and_at_the_deadline_the_ai_takes_the_seat(three):
    # Begun a day ago by the real clock, which the AI's task reads when it moves.
    start = timezone.now() - ONE_DAY - timedelta(minutes=1)
    match = corr_table(three, now=start)
    mover = match.to_move
    services.seat_presence_change(match_id=match.pk, seat=mover, connected=True, now=start)
    services.seat_presence_change(match_id=match.pk, seat=mover, connected=False,
                                  now=start + timedelta(seconds=1))
    # Gone for hours, far past a live table's countdown: the seat stays theirs.
    services.match_deadline_enforce(match_id=match.pk, now=start + timedelta(hours=6))
    assert not seat_row(match, mover).taken_over
    assert reload(match).due_at == start + ONE_DAY * 3 / 4  # the reminder first
    services.match_deadline_enforce(match_id=match.pk, now=start + ONE_DAY * 3 / 4)
    assert reload(match).due_at == start + ONE_DAY
    services.match_deadline_enforce(match_id=match.pk,
                                    now=start + ONE_DAY - timedelta(milliseconds=1))
    assert not seat_row(match, mover).taken_over

    services.match_deadline_enforce(match_id=match.pk, now=start + ONE_DAY)

    match = reload(match)
    seat = seat_row(match, mover)
    assert (seat.taken_over_ply, seat.user_id) == (0, three[mover].pk)
    assert seat.ai_level >= 3
    assert match.status == Status.PLAYING  # the others play on
    assert tasks.ai_move(match.pk, 0) is not None
    assert list(Move.objects.filter(match=match).values_list("seat", flat=True)) == [mover]
    # The next player's turn begins with the full days per move.
    match = reload(match)
    assert seat_row(match, match.to_move).clock_ms == DAY * 1000


def test_a_move_after_the_deadline_finds_the_seat_passed_to_the_ai(three):
    match = corr_table(three)
    mover = match.to_move
    with pytest.raises(PlayError) as refused:
        services.move_apply(match_id=match.pk, seat=mover, move=first_legal(match),
                            expected_ply=0, now=T0 + ONE_DAY + timedelta(seconds=1))
    assert refused.value.code == errors.NOT_ALLOWED
    assert seat_row(match, mover).taken_over_ply == 0
    assert reload(match).status == Status.PLAYING
    assert checks.mover_out_of_time(reload(match), list(Seat.objects.filter(match=match)),
                                    T0 + 2 * ONE_DAY) is None


def test_a_live_table_still_passes_the_seat_of_one_gone_30_seconds(three):
    live = corr_table(three, "untimed")
    services.match_deadline_enforce(match_id=live.pk, now=T0 + timedelta(seconds=30))
    assert seat_row(live, live.to_move).taken_over


def test_the_table_is_listed_where_it_is_the_player_s_turn_and_leaves_the_list_when_passed(
    three, make_user
):
    match = corr_table(three)
    mover = three[match.to_move]
    others = [u for u in three if u != mover]
    duel = services.match_create(players=[Player(user=others[0]), Player(user=mover)], seed=3,
                                 dealer=0, trumps="SH", time_control=TimeControl.parse("3d"),
                                 now=T0)

    page = correspondence_games(user_id=mover.pk)
    [table_game] = [g for g in page.games if g.match_id == match.pk]
    assert table_game.your_turn
    assert sorted(table_game.opponents) == sorted(u.username for u in others)
    assert table_game.deadline == T0 + ONE_DAY
    assert table_game.mini is not None
    assert table_game.mini.other_cards is None
    assert len(table_game.mini.hand) == State.from_tpn(match.position_tpn).hand_size(
        match.to_move)
    # The table's deadline (a day) comes before the duel's (three days): it is first.
    assert next(g.match_id for g in page.games) == match.pk
    assert reload(duel).to_move == 1  # the duel waits for the mover too (dealer 0)
    assert your_turn_count(user_id=mover.pk) == 2
    assert next_game(user_id=mover.pk) == match.pk
    for other in others:
        listed = {g.match_id: g.your_turn for g in correspondence_games(user_id=other.pk).games}
        assert listed[match.pk] is False

    services.match_deadline_enforce(match_id=match.pk, now=T0 + ONE_DAY)
    # The seat is the AI's now: the game is no longer the leaver's to play.
    assert match.pk not in [g.match_id for g in correspondence_games(user_id=mover.pk).games]
    assert next_game(user_id=mover.pk) != match.pk


def test_a_turn_at_a_table_is_told_with_every_other_player_and_not_once_passed(three):
    match = corr_table(three)
    mover = three[match.to_move]
    told = notification_turn(match_id=match.pk, user_id=mover.pk, ply=0)
    assert told is not None
    assert told.kind == Kind.TURN
    text = notification_text(told)
    assert all(u.username in text for u in three if u != mover)

    services.match_deadline_enforce(match_id=match.pk, now=T0 + ONE_DAY)
    assert notification_turn(match_id=match.pk, user_id=mover.pk, ply=0,
                             reminder=True) is None


def test_a_rated_correspondence_table_changes_the_table_rating(three):
    # A short game of three from a crafted position, played now by the real clock.
    match = services.match_create(
        players=[Player(user=u) for u in three], start_tpn=SHORT_TABLE, rated=True,
        time_control=TimeControl.parse("3d"))
    assert match.rating_mode == RatingMode.TABLE
    match = _play_out(match)

    assert match.status == Status.FINISHED
    assert sorted(PlayerRating.objects.filter(user__in=three).values_list("mode", "games")) == [
        (RatingMode.TABLE, 1)] * 3
    seats = Seat.objects.filter(match=match)
    assert all(s.rating_before is not None and s.rating_after is not None for s in seats)
    assert seats.filter(result=SeatResult.LOSS).count() == 1


def test_a_late_ai_at_a_table_is_sent_its_task_again_and_never_flags(three):
    match = corr_table(three)
    mover = match.to_move
    services.match_deadline_enforce(match_id=match.pk, now=T0 + ONE_DAY)
    assert seat_row(match, mover).taken_over
    # The AI's task was lost: days later its turn is still there, with the next look soon,
    # not a deadline in the past for the watch to find again at every round.
    later = T0 + 3 * ONE_DAY
    services.match_deadline_enforce(match_id=match.pk, now=later)
    match = reload(match)
    assert match.status == Status.PLAYING
    assert match.due_at > later
