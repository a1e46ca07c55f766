"""Tables of 3-4 in play: the AI takes over the seat of a person who left (docs/play.md,
"Leaving a table"), resignation, abort and claims at a table, and the table rating of a rated
table. Time is passed in; the AI's moves are its task run in this process."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import PlayerRating, RatingMode
from accounts.table_ratings import TableRating, table_rate
from games.play import checks, errors, services, tasks
from games.play.errors import PlayError
from games.play.models import Match, Move, Seat, SeatResult, Status, TerminationReason
from games.play.services import Player
from games.play.services.finishing import rating_places
from games.play.snapshots import match_snapshot
from games.play.state_message import state_message
from games.play.time_control import TimeControl
from games.rules import State
from tests.games.conftest import T0, at


def table(users, *, now=T0, **options) -> Match:
    options.setdefault("seed", 7)
    options.setdefault("dealer", 0)
    return services.match_create(
        players=[Player(user=u) for u in users], trumps="SHDC"[: len(users)], now=now,
        **options,
    )


def reload(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def seat_row(match: Match, index: int) -> Seat:
    return Seat.objects.get(match=match, index=index)


def first_legal(match: Match) -> str:
    return str(State.from_tpn(reload(match).position_tpn).legal_moves()[0])


@pytest.fixture
def four(make_user):
    return [make_user() for _ in range(4)]


def test_an_absent_mover_s_seat_passes_to_the_ai_and_keeps_their_name(four):
    match = table(four)
    mover = match.to_move
    services.match_deadline_enforce(match_id=match.pk, now=at(29.9))
    assert not seat_row(match, mover).taken_over

    services.match_deadline_enforce(match_id=match.pk, now=at(30))

    seat = seat_row(match, mover)
    assert seat.taken_over_ply == 0
    assert seat.ai_level == 3  # a newcomer's rating plays like level 3, the least allowed
    view = state_message(snapshot=match_snapshot(match_id=match.pk), viewer_seat=None,
                         now=at(30))
    shown = view["seats"][mover]
    assert (shown["taken_over"], shown["name"], shown["kind"]) == (
        True, four[mover].username, "user")
    assert not any(s["taken_over"] for s in view["seats"] if s["index"] != mover)
    # The person who left acts no more for the seat; the AI's task plays it.
    with pytest.raises(PlayError) as refused:
        services.move_apply(match_id=match.pk, seat=mover, move=first_legal(match),
                            expected_ply=0, now=at(31))
    assert refused.value.code == errors.NOT_ALLOWED
    with pytest.raises(PlayError):
        services.match_resign(match_id=match.pk, seat=mover, now=at(31))
    assert tasks.ai_move(match.pk, 0) is not None
    assert list(Move.objects.filter(match=match).values_list("seat", flat=True)) == [mover]


def test_a_strong_player_s_seat_gets_the_level_that_plays_like_them(four):
    PlayerRating.objects.create(user=four[0], mode=RatingMode.TABLE, rating=1800.0,
                                deviation=60.0, games=40)
    match = table(four, dealer=3)  # seat 0 leads
    assert match.to_move == 0
    services.match_deadline_enforce(match_id=match.pk, now=at(30))
    assert seat_row(match, 0).ai_level == 4


def test_at_an_untimed_table_a_present_player_who_does_not_move_is_replaced(four):
    match = table(four)
    mover = match.to_move
    services.seat_presence_change(match_id=match.pk, seat=mover, connected=True, now=T0)
    # The watch looks when the lease would lapse if not renewed (45 s + 30 s)...
    assert reload(match).due_at == at(75)
    for second in (15, 30, 45, 60):
        services.seat_presence_renew(seats=[(match.pk, mover)], now=at(second))
    services.match_deadline_enforce(match_id=match.pk, now=at(75))
    # ... finds the player here, and looks again at the move limit.
    assert not seat_row(match, mover).taken_over
    assert reload(match).due_at == at(120)
    for second in (75, 90, 105):
        services.seat_presence_renew(seats=[(match.pk, mover)], now=at(second))
    services.match_deadline_enforce(match_id=match.pk, now=at(119.9))
    assert not seat_row(match, mover).taken_over

    services.match_deadline_enforce(match_id=match.pk, now=at(120))
    assert seat_row(match, mover).taken_over_ply == 0


def test_at_a_timed_table_a_lapsed_lease_counts_as_gone(four):
    match = table(four, time_control=TimeControl(600, 0))
    mover = match.to_move
    services.seat_presence_change(match_id=match.pk, seat=mover, connected=True, now=T0)
    services.match_deadline_enforce(match_id=match.pk, now=at(74.9))
    assert not seat_row(match, mover).taken_over
    services.match_deadline_enforce(match_id=match.pk, now=at(75))
    assert seat_row(match, mover).taken_over


def test_one_who_left_long_ago_is_replaced_as_soon_as_their_turn_comes(four):
    match = table(four)
    first = match.to_move
    services.move_apply(match_id=match.pk, seat=first, move=first_legal(match),
                        expected_ply=0, now=at(5))
    second = reload(match).to_move
    # Everyone has been gone since the start: the second mover is due at once (35 s after
    # the start, not 30 s after their turn began).
    assert checks.takeover_at(reload(match), list(Seat.objects.filter(match=match))) == at(30)
    services.match_deadline_enforce(match_id=match.pk, now=at(30))
    assert seat_row(match, second).taken_over_ply == 1


def test_a_returning_player_gets_back_to_watching_not_to_the_seat(four):
    match = table(four)
    mover = match.to_move
    services.match_deadline_enforce(match_id=match.pk, now=at(30))
    services.seat_presence_change(match_id=match.pk, seat=mover, connected=True, now=at(31))
    assert seat_row(match, mover).is_ai
    view = state_message(snapshot=match_snapshot(match_id=match.pk), viewer_seat=mover,
                         now=at(31))
    assert view["legal_moves"] == []  # not theirs to play


def test_in_a_duel_nobody_is_replaced_the_game_is_claimed(make_user):
    match = services.match_create(
        players=[Player(user=make_user()), Player(user=make_user())], trumps="SH", seed=7,
        dealer=0, now=T0,
    )
    assert checks.takeover_at(reload(match), list(Seat.objects.filter(match=match))) is None
    services.match_deadline_enforce(match_id=match.pk, now=at(600))
    assert not Seat.objects.filter(match=match, taken_over_ply__isnull=False).exists()


def test_nobody_claims_victory_at_a_table(four):
    match = table(four)
    other = (match.to_move + 1) % 4
    with pytest.raises(PlayError) as refused:
        services.match_claim_victory(match_id=match.pk, seat=other, now=at(100))
    assert refused.value.code == errors.CANNOT_CLAIM


def test_a_resignation_at_a_table_ends_the_game_with_the_resigner_last(make_user):
    users = [make_user() for _ in range(3)]
    match = table(users)
    resigner = (match.to_move + 1) % 3  # not on their turn
    services.match_resign(match_id=match.pk, seat=resigner, now=at(3))
    match = reload(match)
    assert (match.status, match.loser_seat, match.termination) == (
        Status.FINISHED, resigner, TerminationReason.RESIGNATION)
    places = {s.index: (s.place, s.result) for s in Seat.objects.filter(match=match)}
    # Nobody is out yet: the two others share first place.
    assert places[resigner] == (3, SeatResult.LOSS)
    assert sorted(p for i, p in places.items() if i != resigner) == [
        (1, SeatResult.WIN), (1, SeatResult.WIN)]


def test_a_table_may_be_aborted_until_everyone_has_moved(make_user):
    users = [make_user() for _ in range(3)]
    early = table(users)
    services.move_apply(match_id=early.pk, seat=early.to_move, move=first_legal(early),
                        expected_ply=0, now=at(1))
    services.match_abort(match_id=early.pk, seat=early.to_move, now=at(2))
    assert reload(early).status == Status.ABORTED

    late = table(users, seed=8)
    ply = 0
    while len(set(Move.objects.filter(match=late).values_list("seat", flat=True))) < 3:
        services.move_apply(match_id=late.pk, seat=reload(late).to_move,
                            move=first_legal(late), expected_ply=ply, now=at(1 + ply))
        ply += 1
    with pytest.raises(PlayError) as refused:
        services.match_abort(match_id=late.pk, seat=0, now=at(50))
    assert refused.value.code == errors.CANNOT_ABORT


@given(st.lists(st.integers(1, 4), min_size=3, max_size=4),
       st.lists(st.booleans(), min_size=4, max_size=4))
def test_the_rating_puts_who_left_last_and_keeps_the_others_order(raw, left):
    n = len(raw)
    # A competition ranking of n from the drawn numbers.
    game = [1 + sum(1 for other in raw if other < mine) for mine in raw]

    class FakeOutcome:
        def place_of(self, seat):
            return game[seat]

    class FakeSeat:
        def __init__(self, index, gone):
            self.index, self.taken_over = index, gone

    seats = [FakeSeat(i, left[i]) for i in range(n)]
    rated = rating_places(FakeOutcome(), seats)  # type: ignore[arg-type]
    for i in range(n):
        for j in range(n):
            if left[i] and not left[j]:
                assert rated[i] > rated[j]
            if left[i] == left[j] and not left[i]:
                assert (rated[i] < rated[j]) == (game[i] < game[j])
            if left[i] and left[j]:
                assert rated[i] == rated[j]
    assert sorted(rated)[0] == 1


def _play_out(match: Match) -> Match:
    """Play the game to its end: people their first legal move, AI seats through their task."""
    for _ in range(2000):
        match = reload(match)
        if match.is_over:
            return match
        seat = seat_row(match, match.to_move)
        if seat.is_ai:
            assert tasks.ai_move(match.pk, match.ply) is not None
        else:
            services.move_apply(match_id=match.pk, seat=seat.index, move=first_legal(match),
                                expected_ply=match.ply)
    raise AssertionError("the game did not end")


def test_a_rated_table_with_a_seat_taken_over_rates_the_leaver_last_on_the_table_rating(four):
    start = timezone.now() - timedelta(minutes=5)
    match = table(four, rated=True, now=start, dealer=3)
    leaver = match.to_move
    services.match_deadline_enforce(match_id=match.pk, now=start + timedelta(seconds=30))
    assert seat_row(match, leaver).taken_over

    match = _play_out(match)

    assert match.status == Status.FINISHED
    seats = list(Seat.objects.filter(match=match).order_by("index"))
    assert seats[leaver].result == SeatResult.LOSS
    places = rating_places(_StoredOutcome(seats), seats)
    assert places[leaver] == 4
    want = table_rate([TableRating.new()] * 4, places)
    for seat, expected in zip(seats, want, strict=True):
        row = PlayerRating.objects.get(user=seat.user, mode=RatingMode.TABLE)
        assert row.games == 1
        assert row.rating == pytest.approx(expected.display)
        assert row.deviation == pytest.approx(expected.display_deviation)
        assert seat.rating_before == pytest.approx(TableRating.new().display)
        assert seat.rating_after == pytest.approx(expected.display)
    # The duel rating is another rating: a table never touches it.
    assert not PlayerRating.objects.filter(user__in=four, mode=RatingMode.DUEL).exists()


class _StoredOutcome:
    """The places of a finished match as its seats keep them (`Outcome.place_of`)."""

    def __init__(self, seats):
        self.places = {seat.index: seat.place for seat in seats}

    def place_of(self, seat):
        return self.places[seat]


def test_a_casual_table_changes_no_rating_and_a_rated_duel_not_the_table_rating(make_user):
    users = [make_user() for _ in range(3)]
    _play_out(table(users, seed=3))
    assert not PlayerRating.objects.filter(user__in=users).exists()
    duel = services.match_create(
        players=[Player(user=users[0]), Player(user=users[1])], trumps="SH", seed=3,
        dealer=0, rated=True, time_control=TimeControl(600, 0),
    )
    _play_out(duel)
    assert set(PlayerRating.objects.filter(user__in=users).values_list("mode", flat=True)) == {
        RatingMode.DUEL}
