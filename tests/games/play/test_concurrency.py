"""Races on real PostgreSQL: threads with their own connections call the services at once;
the locked match row lets exactly one outcome be stored."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.play import services
from games.play.errors import PlayError
from games.play.models import Match, Move, Status, TerminationReason
from games.play.services import Player
from games.play.time_control import TimeControl
from games.rules import State
from tests.games.conftest import T0, at
from tests.support.threads import rows_held, run_together

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_same_move_sent_twice_at_once_is_played_once(alice, bob):
    for round_ in range(5):
        match = services.match_create(
            players=[Player(user=alice), Player(user=bob)], seed=round_, dealer=1, trumps="SH",
            now=T0,
        )
        move = str(State.from_tpn(match.position_tpn).legal_moves()[0])

        def send(match_id=match.pk, move=move):
            return services.move_apply(
                match_id=match_id, seat=0, move=move, expected_ply=0, now=at(1)
            )

        results = run_together(send, send, expected=PlayError)

        errors = [r for r in results if isinstance(r, PlayError)]
        assert len(errors) == 1
        assert errors[0].code == "stale_ply"
        assert Move.objects.filter(match=match).count() == 1
        assert Match.objects.get(pk=match.pk).ply == 1


def test_a_move_racing_the_flag_leaves_exactly_one_outcome(alice, bob):
    outcomes = set()
    # Instants ahead of the real clock: the deadline watch of a real worker (another test
    # module's) must not flag these matches while the race is judged.
    start = timezone.now() + timedelta(days=1)
    deadline = start + timedelta(seconds=60)
    for round_ in range(6):
        match = services.match_create(
            players=[Player(user=alice), Player(user=bob)], seed=round_, dealer=1, trumps="SH",
            time_control=TimeControl(60, 0), now=start,
        )
        move = str(State.from_tpn(match.position_tpn).legal_moves()[0])
        # The move comes in just in time; the deadline watch looks at the deadline.
        move_call = lambda m=match.pk, mv=move: services.move_apply(  # noqa: E731
            match_id=m, seat=0, move=mv, expected_ply=0, now=deadline - timedelta(milliseconds=1)
        )
        flag_call = lambda: services.deadlines_enforce(now=deadline)  # noqa: E731
        calls = (move_call, flag_call) if round_ % 2 else (flag_call, move_call)

        run_together(*calls, expected=PlayError)

        match = Match.objects.get(pk=match.pk)
        moves = Move.objects.filter(match=match).count()
        if moves == 1:
            # The move won: the game goes on and the stale flag did nothing.
            assert (match.status, match.ply, match.to_move) == (Status.PLAYING, 1, 1)
            outcomes.add("move")
        else:
            # The flag won: lost on time, and the late move was refused.
            assert moves == 0
            assert (match.status, match.termination, match.loser_seat) == (
                Status.FINISHED, TerminationReason.TIMEOUT, 0)
            outcomes.add("flag")
    assert outcomes  # (which one wins each round is up to the scheduler)


def test_a_resignation_racing_a_move_leaves_one_consistent_match(alice, bob):
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], seed=3, dealer=1, trumps="SH", now=T0
    )
    move = str(State.from_tpn(match.position_tpn).legal_moves()[0])

    run_together(
        lambda: services.move_apply(match_id=match.pk, seat=0, move=move, expected_ply=0,
                                    now=at(1)),
        lambda: services.match_resign(match_id=match.pk, seat=1, now=at(1)),
        expected=PlayError,
    )

    match = Match.objects.get(pk=match.pk)
    assert match.status == Status.FINISHED
    assert match.termination == TerminationReason.RESIGNATION
    assert Move.objects.filter(match=match).count() == match.ply <= 1


def test_the_last_acceptances_of_a_table_s_draw_sent_at_once_finish_it_once(make_user):
    from accounts.models import PlayerRating, RatingMode

    # Instants ahead of the real clock: the deadline watch of a real worker (another test
    # module's) must not pass these absent players' seats to the AI meanwhile.
    start = timezone.now() + timedelta(days=1)
    later = start + timedelta(seconds=2)
    for round_ in range(4):
        users = [make_user() for _ in range(3)]
        match = services.match_create(players=[Player(user=u) for u in users], rated=True,
                                      seed=round_, trumps="SHD", now=start)
        services.match_draw_offer(match_id=match.pk, seat=0, now=later)
        if round_ % 2:
            # The two who must answer both accept at once: the second to get the lock ends it.
            calls = [lambda seat=seat, m=match.pk: services.match_draw_accept(
                match_id=m, seat=seat, now=later) for seat in (1, 2)]
        else:
            # The last one's acceptance arrives twice at once: the second finds it over.
            services.match_draw_accept(match_id=match.pk, seat=1, now=later)
            calls = [lambda m=match.pk: services.match_draw_accept(match_id=m, seat=2,
                                                                   now=later)] * 2

        results = run_together(*calls, expected=PlayError)

        refusals = [r.code for r in results if isinstance(r, PlayError)]
        assert refusals == ([] if round_ % 2 else ["game_over"])
        match = Match.objects.get(pk=match.pk)
        assert (match.status, match.termination) == (Status.FINISHED, TerminationReason.AGREEMENT)
        assert [row.games for row in PlayerRating.objects.filter(
            user__in=users, mode=RatingMode.TABLE)] == [1, 1, 1]


def test_a_watch_passes_over_a_match_another_holds_and_takes_it_on_its_next_look(alice, bob):
    """Every worker's deadline watch goes through the same due matches in the same order: one
    that waited for a match another holds would queue behind it, one match at a time."""


    start = timezone.now() + timedelta(days=1)  # ahead of any real worker's watch
    deadline = start + timedelta(seconds=60)
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], seed=3, dealer=1, trumps="SH",
        time_control=TimeControl(60, 0), now=start,
    )
    with rows_held(lambda: Match.objects.select_for_update().get(pk=match.pk)):
        due = services.deadlines_enforce(now=deadline)
    assert due == 1
    assert Match.objects.get(pk=match.pk).status == Status.PLAYING  # passed over

    assert services.deadlines_enforce(now=deadline) == 1
    match.refresh_from_db()
    assert (match.status, match.termination, match.loser_seat) == (
        Status.FINISHED, TerminationReason.TIMEOUT, 0)
