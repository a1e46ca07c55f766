"""The services of play: every change to a match, with time passed in (never slept)."""

from __future__ import annotations

import pytest
from django.conf import settings

from games.play import checks, errors, services
from games.play.errors import PlayError
from games.play.models import Match, Move, Result, SeatResult, Status, TerminationReason
from games.play.services import Player
from games.play.snapshots import match_snapshot
from games.play.state_message import state_message
from games.play.time_control import TimeControl
from games.rules import State, deal, next_dealer
from tests.games.conftest import SHORT_DUEL, T0, at


def duel(alice, bob, **options) -> Match:
    options.setdefault("seed", 42)
    options.setdefault("dealer", 1)
    options.setdefault("trumps", "SH")
    options.setdefault("now", T0)
    return services.match_create(players=[Player(user=alice), Player(user=bob)], **options)


def reload(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def legal(match: Match) -> list[str]:
    return [str(m) for m in State.from_tpn(reload(match).position_tpn).legal_moves()]


def play(match: Match, move: str, *, now=T0) -> Match:
    match = reload(match)
    return services.move_apply(
        match_id=match.pk, seat=match.to_move, move=move, expected_ply=match.ply, now=now
    )


def assert_code(code: str, call, *args, **kwargs) -> PlayError:
    with pytest.raises(PlayError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code
    return caught.value


# --- creation and trumps -----------------------------------------------------------------------


def test_a_match_with_given_trumps_starts_from_the_seeded_deal(alice, bob):
    match = reload(duel(alice, bob))

    assert match.status == Status.PLAYING
    assert match.deal_tpn == deal(2, 42, 1, "SH").tpn() == match.position_tpn
    assert match.to_move == 0
    assert [s.trump for s in match.seats.all()] == ["S", "H"]
    assert match.version == 1


def test_trumps_are_chosen_in_turn_from_the_player_left_of_the_dealer(alice, bob):
    match = duel(alice, bob, trumps=None, dealer=0)
    assert match.status == Status.TRUMPS
    assert match.to_move == 1

    assert_code(errors.NOT_YOUR_TURN, services.match_choose_trump,
                match_id=match.pk, seat=0, suit="S", now=T0)
    services.match_choose_trump(match_id=match.pk, seat=1, suit="D", now=T0)
    assert_code(errors.BAD_TRUMP, services.match_choose_trump,
                match_id=match.pk, seat=0, suit="D", now=T0)
    services.match_choose_trump(match_id=match.pk, seat=0, suit="C", now=at(1))

    match = reload(match)
    assert match.status == Status.PLAYING
    assert [s.trump for s in match.seats.all()] == ["C", "D"]
    assert match.deal_tpn == deal(2, 42, 0, "CD").tpn()
    assert match.to_move == 1  # the player to the dealer's left leads


def test_the_ai_chooses_its_trump_at_once(alice):
    match = services.match_create(
        players=[Player(ai_level=1), Player(user=alice)], dealer=1, seed=5, now=T0
    )
    match = reload(match)
    assert match.status == Status.TRUMPS  # the AI (seat 0, left of the dealer) has chosen
    assert len(match.trumps_chosen) == 1
    assert match.to_move == 1

    services.match_choose_trump(
        match_id=match.pk, seat=1, suit=next(s for s in "CDHS" if s not in match.trumps_chosen),
        now=T0,
    )
    assert reload(match).status == Status.PLAYING


def test_a_chooser_who_does_not_choose_in_time_gets_a_random_free_suit(alice, bob):
    match = duel(alice, bob, trumps=None, dealer=1)
    limit = settings.GAMES_TRUMP_CHOICE_SECONDS

    assert reload(match).due_at == at(limit)
    services.deadlines_enforce(now=at(limit - 1))
    assert reload(match).trumps_chosen == ""

    services.deadlines_enforce(now=at(limit))
    assert len(reload(match).trumps_chosen) == 1
    # The next chooser's time starts now: nothing more until it has run out too.
    assert reload(match).due_at == at(2 * limit)
    services.deadlines_enforce(now=at(2 * limit - 1))
    assert len(reload(match).trumps_chosen) == 1
    services.deadlines_enforce(now=at(2 * limit))
    match = reload(match)
    assert len(match.trumps_chosen) == 2
    assert (match.status, match.due_at) == (Status.PLAYING, None)  # dealt; untimed


# --- moves ---------------------------------------------------------------------------------------


def test_a_move_is_stored_with_its_ply_and_the_version_moves_on(alice, bob):
    match = duel(alice, bob)
    first = legal(match)[0]

    play(match, first, now=at(2))

    match = reload(match)
    assert match.ply == 1
    assert match.version == 2
    assert match.to_move == 1
    stored = Move.objects.get(match=match)
    assert (stored.ply, stored.seat, stored.text, stored.time_spent_ms) == (1, 0, first, 2000)
    state = State.from_tpn(match.deal_tpn)
    state.apply(first)
    assert match.position_tpn == state.tpn()


@pytest.mark.parametrize(
    ("seat", "ply", "move", "code"),
    [
        (1, 0, None, errors.NOT_YOUR_TURN),
        (0, 1, None, errors.STALE_PLY),
        (0, 0, "+3", errors.ILLEGAL_MOVE),
        (0, 0, "XX", errors.ILLEGAL_MOVE),
        (5, 0, None, errors.NOT_A_PLAYER),
    ],
)
def test_a_refused_move_changes_nothing(alice, bob, seat, ply, move, code):
    match = duel(alice, bob)
    move = move or legal(match)[0]

    assert_code(code, services.move_apply,
                match_id=match.pk, seat=seat, move=move, expected_ply=ply, now=T0)

    after = reload(match)
    assert (after.ply, after.version, after.position_tpn) == (0, 1, match.position_tpn)
    assert not Move.objects.filter(match=match).exists()


def test_a_short_duel_is_played_to_its_end(alice, bob):
    match = duel(alice, bob, trumps=None, start_tpn=SHORT_DUEL)
    assert reload(match).from_position
    for move in ("7C", "8C-KD", "+3", "6D"):
        play(match, move, now=at(1))

    match = reload(match)
    assert match.status == Status.FINISHED
    assert (match.result, match.loser_seat, match.termination) == (
        Result.DECIDED, 0, TerminationReason.NORMAL)
    seats = list(match.seats.all())
    assert [(s.result, s.place) for s in seats] == [(SeatResult.LOSS, 2), (SeatResult.WIN, 1)]
    assert_code(errors.GAME_OVER, services.move_apply,
                match_id=match.pk, seat=0, move="7C", expected_ply=4, now=at(2))


def test_a_replayed_move_is_refused_as_stale(alice, bob):
    match = duel(alice, bob)
    move = legal(match)[0]
    services.move_apply(match_id=match.pk, seat=0, move=move, expected_ply=0, now=T0)

    assert_code(errors.STALE_PLY, services.move_apply,
                match_id=match.pk, seat=0, move=move, expected_ply=0, now=T0)
    assert reload(match).ply == 1


# --- clocks -------------------------------------------------------------------------------------


def test_the_mover_pays_the_time_spent_and_gets_the_increment(alice, bob):
    match = duel(alice, bob, time_control=TimeControl(60, 2))

    play(match, legal(match)[0], now=at(10))

    match = reload(match)
    seats = list(match.seats.all())
    assert [s.clock_ms for s in seats] == [60_000 - 10_000 + 2_000, 60_000]
    assert Move.objects.get(match=match).clocks_after == [52_000, 60_000]
    # Now seat 1's clock runs from the moment of the move.
    assert checks.remaining_ms(match, seats[1], at(25)) == 45_000
    assert checks.remaining_ms(match, seats[0], at(25)) == 52_000


def test_a_move_after_the_flag_loses_on_time(alice, bob):
    match = duel(alice, bob, time_control=TimeControl(60, 1))

    assert_code(errors.GAME_OVER, play, match, legal(match)[0], now=at(60))

    match = reload(match)
    assert match.status == Status.FINISHED
    assert (match.termination, match.loser_seat) == (TerminationReason.TIMEOUT, 0)
    assert match.seats.get(index=0).clock_ms == 0
    assert not Move.objects.filter(match=match).exists()


def test_the_deadline_watch_ends_a_silent_movers_game_only_when_their_time_is_out(alice, bob):
    match = duel(alice, bob, time_control=TimeControl(60, 1))
    play(match, legal(match)[0], now=at(5))  # seat 1 to move, 60 s from at(5)
    assert reload(match).due_at == at(65)

    assert services.deadlines_enforce(now=at(64)) == 0
    assert reload(match).status == Status.PLAYING

    assert services.deadlines_enforce(now=at(65)) == 1

    match = reload(match)
    assert (match.status, match.termination, match.loser_seat) == (
        Status.FINISHED, TerminationReason.TIMEOUT, 1)


def test_an_untimed_game_has_no_clocks(alice, bob):
    match = duel(alice, bob)
    play(match, legal(match)[0], now=at(3600))

    assert Move.objects.get(match=match).clocks_after is None
    assert reload(match).due_at is None
    services.match_deadline_enforce(match_id=match.pk, now=at(10**6))
    assert reload(match).status == Status.PLAYING


# --- resign, abort, draws -----------------------------------------------------------------------


def test_resign_loses_on_either_turn(alice, bob):
    match = duel(alice, bob)
    services.match_resign(match_id=match.pk, seat=1, now=at(1))

    match = reload(match)
    assert (match.termination, match.loser_seat) == (TerminationReason.RESIGNATION, 1)
    assert [s.result for s in match.seats.all()] == [SeatResult.WIN, SeatResult.LOSS]


def test_abort_is_allowed_until_each_player_has_moved(alice, bob):
    match = duel(alice, bob)
    play(match, legal(match)[0])
    assert checks.can_abort(reload(match), movers={0})

    services.match_abort(match_id=match.pk, seat=1, now=at(1))

    match = reload(match)
    assert (match.status, match.result, match.loser_seat) == (Status.ABORTED, Result.ABORTED, None)
    assert [(s.result, s.place) for s in match.seats.all()] == [("", None), ("", None)]


def test_abort_is_refused_once_both_have_moved(alice, bob):
    match = duel(alice, bob)
    play(match, legal(match)[0])
    play(match, legal(match)[0])

    assert_code(errors.CANNOT_ABORT, services.match_abort, match_id=match.pk, seat=0, now=T0)
    assert reload(match).status == Status.PLAYING


def test_a_draw_offer_accepted_draws_the_game(alice, bob):
    match = duel(alice, bob)
    assert_code(errors.NO_DRAW_OFFER, services.match_draw_accept, match_id=match.pk, seat=1)

    services.match_draw_offer(match_id=match.pk, seat=0)
    assert reload(match).draw_offer_seat == 0
    assert_code(errors.NO_DRAW_OFFER, services.match_draw_accept, match_id=match.pk, seat=0)
    services.match_draw_accept(match_id=match.pk, seat=1, now=at(1))

    match = reload(match)
    assert (match.result, match.termination) == (Result.DRAW, TerminationReason.AGREEMENT)
    assert [s.result for s in match.seats.all()] == [SeatResult.DRAW, SeatResult.DRAW]


def test_a_draw_offer_lapses_when_the_other_player_moves(alice, bob):
    match = duel(alice, bob)
    play(match, legal(match)[0])
    services.match_draw_offer(match_id=match.pk, seat=0)
    play(match, legal(match)[0])

    assert reload(match).draw_offer_seat is None


def test_the_ai_takes_no_draw_offers(alice):
    match = services.match_create(
        players=[Player(user=alice), Player(ai_level=1)], trumps="SH", dealer=1, now=T0
    )
    assert_code(errors.NOT_ALLOWED, services.match_draw_offer, match_id=match.pk, seat=0)


# --- claiming victory over a player who left ------------------------------------------------------


def test_claim_victory_after_the_mover_has_been_gone_long_enough(alice, bob):
    match = duel(alice, bob)
    wait = settings.GAMES_CLAIM_AFTER_SECONDS
    for seat in (0, 1):
        services.seat_presence_change(match_id=match.pk, seat=seat, connected=True, now=T0)
    for _ in range(3):
        play(match, legal(match)[0], now=at(1))  # both have moved; seat 1 to move
    assert_code(errors.CANNOT_CLAIM, services.match_claim_victory,
                match_id=match.pk, seat=0, now=at(5))  # seat 1 is still here

    services.seat_presence_change(match_id=match.pk, seat=1, connected=False, now=at(10))
    assert checks.claim_available_at(reload(match), list(match.seats.all()), at(10),
                                     movers={0, 1}) == at(10 + wait)
    assert_code(errors.CANNOT_CLAIM, services.match_claim_victory,
                match_id=match.pk, seat=0, now=at(10 + wait - 1))
    assert_code(errors.CANNOT_CLAIM, services.match_claim_victory,
                match_id=match.pk, seat=1, now=at(10 + wait))  # not for the one who left

    services.match_claim_victory(match_id=match.pk, seat=0, now=at(10 + wait))

    match = reload(match)
    assert (match.termination, match.loser_seat) == (TerminationReason.ABANDONMENT, 1)


def test_no_claim_while_the_absent_player_is_not_to_move(alice, bob):
    match = duel(alice, bob)
    services.seat_presence_change(match_id=match.pk, seat=0, connected=True, now=T0)
    services.seat_presence_change(match_id=match.pk, seat=1, connected=True, now=T0)
    services.seat_presence_change(match_id=match.pk, seat=1, connected=False, now=T0)
    # Seat 0 is to move and here; seat 1 left, but it is not their turn.
    assert_code(errors.CANNOT_CLAIM, services.match_claim_victory,
                match_id=match.pk, seat=0, now=at(3600))

    play(match, legal(match)[0], now=at(100))  # seat 1's turn, but seat 1 never moved:
    assert_code(errors.CANNOT_CLAIM, services.match_claim_victory,  # abort, not claim
                match_id=match.pk, seat=0, now=at(3600))
    services.seat_presence_change(match_id=match.pk, seat=1, connected=True, now=at(100))
    play(match, legal(match)[0], now=at(100))
    play(match, legal(match)[0], now=at(100))  # seat 1 has moved, and is to move again
    services.seat_presence_change(match_id=match.pk, seat=1, connected=False, now=at(100))
    assert_code(errors.CANNOT_CLAIM, services.match_claim_victory,
                match_id=match.pk, seat=0, now=at(101))
    services.match_claim_victory(
        match_id=match.pk, seat=0, now=at(100 + settings.GAMES_CLAIM_AFTER_SECONDS)
    )
    assert reload(match).status == Status.FINISHED


def test_a_player_whose_server_died_counts_as_gone_once_the_lease_lapses(alice, bob):
    match = duel(alice, bob)
    services.seat_presence_change(match_id=match.pk, seat=0, connected=True, now=T0)
    services.seat_presence_change(match_id=match.pk, seat=1, connected=True, now=T0)
    for _ in range(3):
        play(match, legal(match)[0], now=at(1))  # seat 1 to move; its server dies: no close
    lease = settings.GAMES_PRESENCE_LEASE_SECONDS
    services.seat_presence_renew(seats=[(match.pk, 1)], now=at(10))  # last renewal
    seats = list(match.seats.all())
    assert checks.is_present(seats[1], at(10 + lease - 1))
    assert not checks.is_present(seats[1], at(10 + lease))

    ready = at(10 + lease + settings.GAMES_CLAIM_AFTER_SECONDS)
    assert checks.claim_available_at(reload(match), seats, at(10 + lease),
                                     movers={0, 1}) == ready
    services.match_claim_victory(match_id=match.pk, seat=0, now=ready)
    assert reload(match).termination == TerminationReason.ABANDONMENT


def test_a_new_socket_after_a_lapsed_lease_starts_the_count_afresh(alice, bob):
    match = duel(alice, bob)
    services.seat_presence_change(match_id=match.pk, seat=1, connected=True, now=T0)
    services.seat_presence_change(match_id=match.pk, seat=1, connected=True, now=at(3600))
    services.seat_presence_change(match_id=match.pk, seat=1, connected=False, now=at(3601))

    seat = match.seats.get(index=1)
    assert seat.connections == 0
    assert seat.disconnected_at == at(3601)


# --- rematch ----------------------------------------------------------------------------------


def test_rematch_needs_both_players_and_the_loser_deals(alice, bob):
    match = duel(alice, bob, dealer=1)
    assert_code(errors.GAME_NOT_OVER, services.match_rematch, match_id=match.pk, seat=0)
    services.match_resign(match_id=match.pk, seat=0, now=at(1))

    offered = services.match_rematch(match_id=match.pk, seat=0, now=at(2))
    assert offered is not None
    assert offered.rematch is None
    assert reload(match).rematch_offer_seat == 0
    agreed = services.match_rematch(match_id=match.pk, seat=1, now=at(3))

    assert agreed is not None
    assert agreed.rematch is not None
    new = agreed.rematch
    assert new.previous_id == match.pk
    assert agreed.snapshot["rematch_id"] == new.pk
    assert new.dealer == 0  # seat 0 lost
    assert [s.user for s in new.seats.all()] == [alice, bob]
    # Asking again changes nothing: the new match is already there.
    assert services.match_rematch(match_id=match.pk, seat=0, now=at(4)) is None


def test_after_a_draw_the_deal_passes_to_the_left(alice, bob):
    match = duel(alice, bob, dealer=1)
    services.match_draw_offer(match_id=match.pk, seat=0)
    services.match_draw_accept(match_id=match.pk, seat=1)

    match = reload(match)
    assert next_dealer(match.dealer, loser=match.loser_seat, n_players=2) == 0


def test_the_ai_accepts_a_rematch_at_once(alice):
    match = services.match_create(
        players=[Player(user=alice), Player(ai_level=1)], trumps="SH", dealer=0, now=T0
    )
    services.match_resign(match_id=match.pk, seat=1, now=at(1))  # the AI seat can resign too

    agreed = services.match_rematch(match_id=match.pk, seat=0, now=at(2))
    assert agreed is not None
    assert agreed.rematch is not None
    assert agreed.rematch.dealer == 1


# --- ratings ------------------------------------------------------------------------------------


def test_a_rated_duel_records_ratings_before_and_after(alice, bob):
    match = duel(alice, bob, rated=True, time_control=TimeControl(180, 2))
    services.match_resign(match_id=match.pk, seat=1, now=at(5))

    winner, loser = reload(match).seats.order_by("index")
    assert winner.rating_before == loser.rating_before == 1500
    assert winner.rating_after > 1500 > loser.rating_after


def test_the_view_of_a_rated_duel_shows_ratings_and_at_the_end_their_change(alice, bob):
    match = duel(alice, bob, rated=True, time_control=TimeControl(180, 2))
    before = state_message(snapshot=match_snapshot(match_id=match.pk, now=at(1)),
                           viewer_seat=0, now=at(1))
    assert [s["rating"] for s in before["seats"]] == [1500, 1500]
    assert before["seats"][0]["provisional"] is True
    services.match_resign(match_id=match.pk, seat=1, now=at(5))

    after = state_message(snapshot=match_snapshot(match_id=match.pk, now=at(6)),
                          viewer_seat=None, now=at(6))
    assert after["seats"][0]["rating_delta"] > 0 > after["seats"][1]["rating_delta"]


def test_a_casual_game_changes_no_rating(alice, bob):
    match = duel(alice, bob)
    services.match_resign(match_id=match.pk, seat=1, now=at(5))

    assert all(s.rating_after is None for s in reload(match).seats.all())
