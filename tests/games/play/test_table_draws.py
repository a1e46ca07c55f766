"""Draws by agreement at tables of 3-4 (docs/play.md, "Draws at a table"): every seat still
holding cards must agree; one decline, or a person's move instead of an answer, ends the
offer; the seats already out keep their places; the AI seats answer from their own view.
Time is passed in; the AI's answers are its task run in this process."""

from __future__ import annotations

import pytest

from accounts.models import PlayerRating, RatingMode
from accounts.table_ratings import TableRating, table_rate
from games.play import errors, events, schemas, services, tasks
from games.play.errors import PlayError
from games.play.models import Match, Result, Seat, SeatResult, Status, TerminationReason
from games.play.services import Player
from games.play.snapshots import match_snapshot
from games.play.state_message import state_message
from notifications.models import Kind, Notification
from notifications.services import notification_draw_declined
from tests.games.conftest import T0, at

# Seat 1 is out (first place); seat 2 is to move on 8C; seats 0, 2 and 3 hold cards.
ONE_OUT = "SHDC 7C/-/9C6D/TCJC 8C 2 1"
# Seat 0 is to move with its last card; seat 2 holds ten: as it sees it, it is likely to lose.
AI_BEHIND = "SHD AS/KH/6C7C8C9CTC6D7D8D9DTD - 0 -"
# Seat 1 is to lead its last card and go out: it is winning.
AI_AHEAD = "SHD 6C7C8C9CTC6D/AS/JCQCKC7D8D9S - 1 -"


def reload(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def seats_of(match: Match) -> list[Seat]:
    return list(Seat.objects.filter(match=match).order_by("index"))


def view(match: Match, viewer: int | None) -> dict:
    snapshot = match_snapshot(match_id=match.pk, now=at(1))
    assert snapshot is not None
    message = state_message(snapshot=snapshot, viewer_seat=viewer, now=at(1))
    schemas.server_message.validate_python(message)
    return message


def refused(code: str, service, **kwargs) -> None:
    with pytest.raises(PlayError) as error:
        service(**kwargs)
    assert error.value.code == code


@pytest.fixture
def people(make_user):
    return [make_user() for _ in range(4)]


def test_a_table_is_drawn_when_every_seat_still_holding_cards_agrees(people):
    match = services.match_create(players=[Player(user=u) for u in people],
                                  start_tpn=ONE_OUT, now=T0)
    services.match_draw_offer(match_id=match.pk, seat=0, now=at(1))
    for viewer in (0, 2, 3, 1, None):
        shown = view(match, viewer)
        assert (shown["draw_offer"], shown["draw_agreed"], shown["draw_awaited"]) == (
            0, [0], [2, 3])
    assert view(match, 1)["can_offer_draw"] is False  # out: not asked
    refused(errors.NOT_ALLOWED, services.match_draw_accept, match_id=match.pk, seat=1)
    refused(errors.NO_DRAW_OFFER, services.match_draw_accept, match_id=match.pk, seat=0)

    services.match_draw_accept(match_id=match.pk, seat=3, now=at(2))
    assert reload(match).status == Status.PLAYING
    assert view(match, 2)["draw_awaited"] == [2]
    refused(errors.NO_DRAW_OFFER, services.match_draw_accept, match_id=match.pk, seat=3)

    services.match_draw_accept(match_id=match.pk, seat=2, now=at(3))

    match = reload(match)
    assert (match.status, match.result, match.termination, match.loser_seat) == (
        Status.FINISHED, Result.DRAW, TerminationReason.AGREEMENT, None)
    assert (match.draw_offer_seat, match.draw_accepted) == (None, "")
    # The seat out keeps its first place; the three others share the next.
    assert [(s.place, s.result) for s in seats_of(match)] == [
        (2, SeatResult.DRAW), (1, SeatResult.DRAW), (2, SeatResult.DRAW), (2, SeatResult.DRAW)]
    shown = view(match, 0)
    assert shown["result"]["result"] == "draw"
    assert shown["draw_offer"] is None


def test_offering_where_an_offer_stands_is_accepting_it(people):
    match = services.match_create(players=[Player(user=u) for u in people[:3]], seed=4,
                                  trumps="SHD", now=T0)
    services.match_draw_offer(match_id=match.pk, seat=1, now=at(1))
    services.match_draw_offer(match_id=match.pk, seat=2, now=at(2))
    assert view(match, 0)["draw_awaited"] == [0]
    services.match_draw_offer(match_id=match.pk, seat=0, now=at(3))
    assert reload(match).termination == TerminationReason.AGREEMENT


def test_one_decline_ends_the_offer_and_its_offerer_is_told(
        people, play_events, django_capture_on_commit_callbacks):
    match = services.match_create(players=[Player(user=u) for u in people], seed=4,
                                  trumps="SHDC", now=T0)
    services.match_draw_offer(match_id=match.pk, seat=0, now=at(1))
    services.match_draw_accept(match_id=match.pk, seat=1, now=at(2))
    version = reload(match).version

    with django_capture_on_commit_callbacks(execute=True):
        services.match_draw_decline(match_id=match.pk, seat=3, now=at(3))

    match = reload(match)
    assert (match.status, match.draw_offer_seat, match.draw_accepted) == (
        Status.PLAYING, None, "")
    assert play_events.settled() == [(events.DRAW_DECLINED_TASK, (match.pk, version, 0, 3))]
    notification_draw_declined(match_id=match.pk, version=version, offerer=0, decliner=3)
    assert Notification.objects.filter(user=people[0], kind=Kind.DRAW_DECLINED,
                                       actor=people[3]).count() == 1
    refused(errors.NO_DRAW_OFFER, services.match_draw_accept, match_id=match.pk, seat=2)


def test_a_person_who_moves_instead_of_answering_declines_and_one_who_agreed_does_not(people):
    match = services.match_create(players=[Player(user=u) for u in people[:3]], seed=4,
                                  trumps="SHD", dealer=2, now=T0)
    assert match.to_move == 0

    def move(seat: int, second: float) -> None:
        current = reload(match)
        assert current.to_move == seat
        legal = view(current, seat)["legal_moves"]
        services.move_apply(match_id=match.pk, seat=seat, move=legal[0],
                            expected_ply=current.ply, now=at(second))

    services.match_draw_offer(match_id=match.pk, seat=0, now=at(1))
    move(0, 2)  # the offerer's own move keeps it
    services.match_draw_accept(match_id=match.pk, seat=1, now=at(3))
    move(1, 4)  # so does the move of one who accepted
    assert reload(match).draw_offer_seat == 0
    move(2, 5)  # seat 2 plays on without answering
    assert (reload(match).draw_offer_seat, reload(match).draw_accepted) == (None, "")


def test_a_drawn_rated_table_rates_the_seats_out_above_the_others_who_share(people):
    match = services.match_create(players=[Player(user=u) for u in people], rated=True,
                                  start_tpn=ONE_OUT, now=T0)
    services.match_draw_offer(match_id=match.pk, seat=2)
    services.match_draw_accept(match_id=match.pk, seat=0)
    services.match_draw_accept(match_id=match.pk, seat=3)
    want = table_rate([TableRating.new()] * 4, [2, 1, 2, 2])
    for user, expected in zip(people, want, strict=True):
        row = PlayerRating.objects.get(user=user, mode=RatingMode.TABLE)
        assert row.games == 1
        assert row.rating == pytest.approx(expected.display)


def test_an_ai_seat_that_is_behind_accepts_and_the_table_is_drawn(make_user):
    anna, boris = make_user(), make_user()
    match = services.match_create(
        players=[Player(user=anna), Player(user=boris), Player(ai_level=2)],
        start_tpn=AI_BEHIND, now=T0)
    services.match_draw_offer(match_id=match.pk, seat=0, now=at(1))

    assert tasks.ai_draw_answer(match.pk, 0) == [(2, True)]
    assert view(match, 1)["draw_awaited"] == [1]
    assert tasks.ai_draw_answer(match.pk, 0) == []  # answered: nothing more to say

    services.match_draw_accept(match_id=match.pk, seat=1, now=at(2))
    assert reload(match).termination == TerminationReason.AGREEMENT


def test_an_ai_seat_that_is_ahead_declines_and_the_offer_ends(make_user):
    anna = make_user()
    match = services.match_create(
        players=[Player(user=anna), Player(ai_level=4), Player(ai_level=1)],
        start_tpn=AI_AHEAD, now=T0)
    services.match_draw_offer(match_id=match.pk, seat=0, now=at(1))
    version = reload(match).version

    assert tasks.ai_draw_answer(match.pk, 0) == [(1, False)]
    match = reload(match)
    assert (match.status, match.draw_offer_seat) == (Status.PLAYING, None)
    # The AI's refusal names no person: nobody is notified of it.
    assert notification_draw_declined(match_id=match.pk, version=version, offerer=0,
                                      decliner=1) is None


def test_the_ai_s_answer_for_a_stale_ply_is_not_given(make_user):
    anna = make_user()
    match = services.match_create(
        players=[Player(user=anna), Player(user=make_user()), Player(ai_level=2)],
        start_tpn=AI_BEHIND, now=T0)
    services.match_draw_offer(match_id=match.pk, seat=1, now=at(1))
    assert tasks.ai_draw_answer(match.pk, 5) == []
    refused(errors.STALE_PLY, services.match_draw_accept, match_id=match.pk, seat=2,
            by_ai=True, expected_ply=3)
    # Only the AI's task answers for an AI seat, and it answers for no person.
    refused(errors.NOT_ALLOWED, services.match_draw_accept, match_id=match.pk, seat=0,
            by_ai=True, expected_ply=0)
    assert reload(match).draw_accepted == ""


def test_the_person_of_a_seat_the_ai_took_over_answers_nothing(people):
    match = services.match_create(players=[Player(user=u) for u in people[:3]], seed=4,
                                  trumps="SHD", dealer=2, now=T0)
    services.match_deadline_enforce(match_id=match.pk, now=at(30))  # seat 0 left
    assert Seat.objects.get(match=match, index=0).taken_over
    refused(errors.NOT_ALLOWED, services.match_draw_offer, match_id=match.pk, seat=0)
    services.match_draw_offer(match_id=match.pk, seat=1, now=at(31))
    # The AI plays the seat now, so it answers for it.
    assert view(match, 2)["draw_awaited"] == [0, 2]
    assert [seat for seat, _answer in tasks.ai_draw_answer(match.pk, 0)] == [0]


def test_a_duel_against_the_ai_still_has_no_draw_offers(make_user):
    match = services.match_create(players=[Player(user=make_user()), Player(ai_level=1)],
                                  seed=3, trumps="SH", now=T0)
    refused(errors.NOT_ALLOWED, services.match_draw_offer, match_id=match.pk, seat=0)
