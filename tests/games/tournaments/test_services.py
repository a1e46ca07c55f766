"""The arena's services on real PostgreSQL: joining, pairing, scoring, berserk, the AI on
request, fair play, and waves racing each other."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.play import services as play
from games.play.models import Match, Seat, Status
from games.play.time_control import TimeControl
from games.tournaments import services
from games.tournaments.errors import TournamentError
from games.tournaments.models import Participant, Tournament, TournamentGame, TournamentStatus
from tests.support.threads import rows_held, run_together

pytestmark = pytest.mark.django_db


def seat_of(match: Match, user) -> int:
    return Seat.objects.get(match=match, user=user).index


def resign(game: TournamentGame, loser) -> None:
    """The trumps chosen (by their timeouts), then `loser` resigns."""
    match = game.match
    while match.status == Status.TRUMPS:
        play.match_deadline_enforce(match_id=match.pk, now=match.due_at)
        match.refresh_from_db()
    play.match_resign(match_id=match.pk, seat=seat_of(match, loser), now=match.turn_started_at)


def opponents(tournament) -> set[frozenset[int]]:
    return {frozenset(g.user_ids()) for g in TournamentGame.objects.filter(tournament=tournament)}


def test_joined_players_are_paired_at_once_and_scored_when_their_game_ends(arena, make_player):
    anna, boris, clara = make_player(1600), make_player(1500), make_player(1400)
    now = timezone.now()
    services.tournament_join(user=anna, token=arena.token, now=now)
    assert not Match.objects.exists()  # alone: waits

    services.tournament_join(user=boris, token=arena.token, now=now)
    services.tournament_join(user=clara, token=arena.token, now=now)

    game = TournamentGame.objects.get()
    assert set(game.user_ids()) == {anna.pk, boris.pk}
    assert game.match.rated
    resign(game, boris)
    assert services.tournament_game_score(match_id=game.match_id, now=now)
    assert not services.tournament_game_score(match_id=game.match_id, now=now)  # once

    winner = Participant.objects.get(tournament=arena, user=anna)
    loser = Participant.objects.get(tournament=arena, user=boris)
    assert (winner.score, winner.games, winner.sheet) == (2, 1, [[2, 0, 0]])
    assert (loser.score, loser.games) == (0, 1)
    # Both free again with clara waiting: no immediate rematch, clara meets one of them.
    assert opponents(arena) - {frozenset((anna.pk, boris.pk))} in (
        {frozenset((anna.pk, clara.pk))}, {frozenset((boris.pk, clara.pk))})


def test_the_first_end_scores_every_ended_game_of_the_arena_at_once(arena, make_player):
    """Games that end together are scored by whoever comes first, in one go: the second
    game's own task finds it scored. A player who lost on time without a move is paused."""
    from accounts.models import PlayerRating, RatingMode

    players = [make_player(1500 + 10 * i) for i in range(4)]
    now = timezone.now()
    for user in players:
        services.tournament_join(user=user, token=arena.token, now=now)
    first, second = TournamentGame.objects.order_by("pk")
    resign(first, User.objects.get(pk=first.user_b_id))
    match = second.match
    while match.status == Status.TRUMPS:
        play.match_deadline_enforce(match_id=match.pk, now=match.due_at)
        match.refresh_from_db()
    # The player to move lets their clock run out without a move.
    play.match_deadline_enforce(match_id=match.pk, now=match.due_at + timedelta(seconds=1))
    match.refresh_from_db()
    assert match.status == Status.FINISHED

    assert services.tournament_game_score(match_id=first.match_id, now=now)
    assert not services.tournament_game_score(match_id=second.match_id, now=now)

    rows = {p.user_id: p for p in Participant.objects.filter(tournament=arena)}
    assert sorted(p.games for p in rows.values()) == [1, 1, 1, 1]
    assert sorted(p.score for p in rows.values()) == [0, 0, 2, 2]
    flagged = Seat.objects.get(match=match, result="loss").user_id
    assert rows[flagged].paused
    assert [uid for uid, p in rows.items() if p.paused] == [flagged]
    for user_id, row in rows.items():
        assert row.rating == PlayerRating.objects.get(user_id=user_id,
                                                      mode=RatingMode.DUEL).rating


def test_a_streak_and_a_berserk_win_score_as_documented(arena, make_player):
    anna, boris = make_player(1500), make_player(1500)
    now = timezone.now()
    for user in (anna, boris):
        services.tournament_join(user=user, token=arena.token, now=now)
    for round_ in range(3):
        game = TournamentGame.objects.get(scored=False)
        if round_ == 2:
            assert services.arena_berserk(user=anna, match_id=game.match_id, now=now)
            seat = Seat.objects.get(match_id=game.match_id, user=anna)
            assert seat.berserk
            assert seat.clock_ms == 90_000
        resign(game, boris)
        services.tournament_game_score(match_id=game.match_id, now=now)

    anna_row = Participant.objects.get(tournament=arena, user=anna)
    assert anna_row.sheet == [[2, 0, 0], [2, 0, 0], [5, 1, 1]]
    assert anna_row.score == 9
    assert anna_row.on_fire


def test_berserk_is_refused_after_ones_first_move_and_to_others(arena, make_player):
    anna, boris, stranger = make_player(), make_player(), make_player()
    for user in (anna, boris):
        services.tournament_join(user=user, token=arena.token)
    game = TournamentGame.objects.get()

    with pytest.raises(TournamentError) as refused:
        services.arena_berserk(user=stranger, match_id=game.match_id)
    assert refused.value.code == "not_your_game"
    assert services.arena_berserk(user=anna, match_id=game.match_id)
    assert not services.arena_berserk(user=anna, match_id=game.match_id)  # once


def test_leaving_and_coming_back_keeps_the_standing(arena, make_player):
    anna, boris = make_player(), make_player()
    for user in (anna, boris):
        services.tournament_join(user=user, token=arena.token)
    game = TournamentGame.objects.get()
    resign(game, boris)
    services.tournament_game_score(match_id=game.match_id)
    TournamentGame.objects.filter(scored=False).delete()  # the next pairing is not this test's
    Match.objects.filter(status__in=[Status.TRUMPS, Status.PLAYING]).delete()

    assert not services.tournament_withdraw(user=anna, token=arena.token)  # played: stays
    services.tournament_join(user=anna, token=arena.token)

    row = Participant.objects.get(tournament=arena, user=anna)
    assert (row.score, row.games, row.withdrawn) == (2, 1, False)


def test_the_ai_comes_only_to_those_who_asked_after_the_wait(arena, make_player, settings):
    settings.TOURNAMENTS_AI_AFTER_SECONDS = 30
    anna, boris = make_player(1500), make_player(1500)
    now = timezone.now()
    services.tournament_join(user=anna, token=arena.token, now=now)
    services.participant_ai_opt_in(user=anna, token=arena.token, on=True)
    assert services.arena_wave(tournament_id=arena.pk, now=now + timedelta(seconds=10),
                               force=True) == []
    other = services.tournament_create(
        creator=None, name="Other", time_control=TimeControl(180, 2),
        starts_at=now - timedelta(seconds=1), minutes=60)
    services.tournaments_tick(now=now)
    services.tournament_join(user=boris, token=other.token, now=now)  # never asked

    later = now + timedelta(seconds=31)
    for tournament in (arena, other):
        services.participant_presence_renew(tournament_id=tournament.pk, user=anna, now=later)
        services.participant_presence_renew(tournament_id=tournament.pk, user=boris, now=later)
    matches = services.arena_wave(tournament_id=arena.pk, now=later, force=True)
    assert services.arena_wave(tournament_id=other.pk, now=later, force=True) == []

    match = matches[0]
    assert sorted(seat.ai_level is not None for seat in match.seats.all()) == [False, True]
    assert not match.rated


def test_a_player_who_never_moves_loses_on_time_and_is_paused(arena, make_player):
    anna, boris = make_player(), make_player()
    now = timezone.now()
    for user in (anna, boris):
        services.tournament_join(user=user, token=arena.token, now=now)
    game = TournamentGame.objects.get()
    match = game.match
    while match.status == Status.TRUMPS:  # both trump choices, by their timeouts
        play.match_deadline_enforce(match_id=match.pk, now=match.due_at)
        match.refresh_from_db()
    idle = match.seats.get(index=match.to_move).user
    play.match_deadline_enforce(match_id=match.pk, now=match.due_at)  # the flag falls

    services.tournament_game_score(match_id=match.pk)

    assert Participant.objects.get(tournament=arena, user=idle).paused
    assert not Participant.objects.exclude(user=idle).get(tournament=arena).paused


@pytest.mark.django_db(transaction=True)
def test_waves_racing_each_other_pair_each_player_once(arena, make_player):
    users = [make_player(1400 + 10 * i) for i in range(20)]
    now = timezone.now()
    Participant.objects.bulk_create([
        Participant(tournament=arena, user=user, rating=1500, joined_at=now, free_since=now,
                    present_until=now + timedelta(minutes=5)) for user in users])

    results = run_together(*[
        lambda: services.arena_wave(tournament_id=arena.pk, now=now, force=True)] * 4)

    assert not [r for r in results if isinstance(r, Exception)]
    # A wave that finds the arena's row held stands aside: all four may, when the clock's tick
    # (the run's worker) held it at that moment. Whoever they missed, the next wave pairs.
    for _attempt in range(100):
        if not Participant.objects.filter(tournament=arena, free_since__isnull=False).exists():
            break
        services.arena_wave(tournament_id=arena.pk, now=now, force=True)
        time.sleep(0.05)
    assert Counter(Seat.objects.values_list("user_id", flat=True)).most_common(1)[0][1] == 1
    assert TournamentGame.objects.filter(tournament=arena).count() == 10
    assert not Participant.objects.filter(tournament=arena, free_since__isnull=False).exists()


def test_the_schedule_makes_each_hourly_arena_once_and_the_clock_ends_them(settings):
    settings.TOURNAMENTS_HOURLY = (("1+1", 30), ("3+2", 55))
    now = timezone.now()
    first = services.tournaments_schedule(now=now)
    again = services.tournaments_schedule(now=now)

    assert len(first) == 2 * settings.TOURNAMENTS_SCHEDULE_AHEAD_HOURS
    assert [t.pk for t in first] == [t.pk for t in again]
    assert Tournament.objects.count() == len(first)
    last = max(t.ends_at for t in first)
    services.tournaments_tick(now=last + timedelta(seconds=1))
    services.tournaments_tick(now=last + timedelta(seconds=2))
    assert set(Tournament.objects.values_list("status", flat=True)) == {
        TournamentStatus.FINISHED}


@pytest.mark.django_db(transaction=True)
def test_a_big_wave_pairs_everyone_and_tells_each_player_alone(arena, make_player):
    """A wave of more games than `WAVE_PART` starts them in parts; each player's own pages
    are told their game, and the arena's watchers only that it changed: a wave of a big
    arena does not go to every page."""
    from asgiref.sync import sync_to_async
    from channels.layers import get_channel_layer

    from games.tournaments.arena import WAVE_PART

    users = [make_player(1400 + i) for i in range(2 * WAVE_PART + 10)]
    now = timezone.now()
    told: list[tuple[int, str]] = []
    watchers_heard: set[str] = set()

    def join_all() -> None:
        Participant.objects.bulk_create([
            Participant(tournament=arena, user=user, rating=1500, joined_at=now,
                        free_since=now, present_until=now + timedelta(minutes=5))
            for user in users])

    async def wave_and_what_it_told() -> None:
        layer = get_channel_layer()
        players, watchers = await layer.new_channel(), await layer.new_channel()
        groups = [services.tournament_player_group(arena.pk, user.pk) for user in users]
        # Listening before anyone is free: the clock's tick may pair them at any moment.
        for group in groups:
            await layer.group_add(group, players)
        await layer.group_add(services.tournament_group(arena.pk), watchers)
        await sync_to_async(join_all)()
        await sync_to_async(services.arena_wave)(tournament_id=arena.pk, now=now, force=True)
        while len(told) < len(users):
            message = await asyncio.wait_for(layer.receive(players), 10)
            assert message["type"] == "tournament.paired"
            told.append((message["user_id"], message["url"]))
        with contextlib.suppress(asyncio.TimeoutError):
            while True:
                message = await asyncio.wait_for(layer.receive(watchers), 1)
                watchers_heard.add(message["type"])
        for group in groups:
            await layer.group_discard(group, players)
        await layer.group_discard(services.tournament_group(arena.pk), watchers)

    asyncio.run(wave_and_what_it_told())
    # The wave that pairs them may be this one or the clock's tick, in the deadline watch of
    # a Celery worker another module started: both pair in parts.
    games = list(TournamentGame.objects.filter(tournament=arena))
    assert len(games) == WAVE_PART + 5
    assert sorted(user_id for user_id, _url in told) == sorted(user.pk for user in users)
    url_of = {}
    for game in games:
        url_of[game.user_a_id] = url_of[game.user_b_id] = f"/game/{game.match_id}/"
    assert dict(told) == url_of
    assert Counter(Seat.objects.values_list("user_id", flat=True)).most_common(1)[0][1] == 1
    assert watchers_heard == {"tournament.changed"}


@pytest.mark.django_db(transaction=True)
def test_a_presence_renewal_never_waits_for_a_row_a_wave_holds(arena, make_player):
    """A socket server has a few database threads: a renewal that queued behind a wave's
    part (or a scoring) would hold one of them, and every socket's work behind it, for as
    long. It leaves the row alone instead; the next renewal, a third of a lease later, takes
    it."""
    from django.conf import settings

    anna = make_player(1500)
    now = timezone.now()
    services.tournament_join(user=anna, token=arena.token, now=now)
    joined_lease = Participant.objects.get(tournament=arena, user=anna).present_until
    later = now + timedelta(seconds=5)
    with rows_held(lambda: Participant.objects.select_for_update(no_key=True).get(
            tournament=arena, user=anna)):
        renewed = services.participant_presence_renew(tournament_id=arena.pk, user=anna,
                                                      now=later)
    assert renewed is False
    participant = Participant.objects.get(tournament=arena, user=anna)
    assert participant.present_until == joined_lease

    assert services.participant_presence_renew(tournament_id=arena.pk, user=anna, now=later)
    participant.refresh_from_db()
    assert participant.present_until == later + timedelta(
        seconds=settings.TOURNAMENTS_ALIVE_SECONDS)


def test_a_wave_withdraws_the_other_offers_of_everyone_it_pairs_and_no_one_else(arena,
                                                                               make_player):
    """A part's players' pool entries and seeks go with one statement each for the whole
    part, in the transaction of their games: nobody paired keeps an offer another player
    could take."""
    from games.matchmaking.models import Pool, PoolEntry, Seek

    now = timezone.now()
    Pool.objects.get_or_create(key="3+2")
    players = [make_player(1500 + 10 * i) for i in range(5)]
    for user in players:
        PoolEntry.objects.create(user=user, pool_id="3+2", rating=1500, joined_at=now,
                                 alive_until=now + timedelta(minutes=5))
        Seek.objects.create(creator=user, clock_initial=180, clock_increment=2,
                            created_at=now, alive_until=now + timedelta(minutes=5))
    Participant.objects.bulk_create([
        Participant(tournament=arena, user=user, rating=1500 + 10 * i, joined_at=now,
                    free_since=now, present_until=now + timedelta(minutes=5))
        for i, user in enumerate(players)])

    matches = services.arena_wave(tournament_id=arena.pk, now=now, force=True)

    assert len(matches) == 2
    paired = {seat.user_id for match in matches for seat in match.seats.all()}
    left = {user.pk for user in players} - paired
    assert len(left) == 1
    assert set(PoolEntry.objects.values_list("user_id", flat=True)) == left
    assert set(Seek.objects.values_list("creator_id", flat=True)) == left


def test_players_freed_while_a_wave_runs_are_paired_by_its_repeat(arena, make_player):
    """Two players become free while a wave starts its games (their own game's end, whose
    wave stood aside): the wave's repeat pairs them, not the clock's tick a second later."""
    from django.db.models.signals import post_save

    now = timezone.now()
    players = [make_player(1500 + 10 * i) for i in range(6)]
    early, late = players[:4], players[4:]
    Participant.objects.bulk_create([
        Participant(tournament=arena, user=user, rating=1500, joined_at=now,
                    free_since=now if user in early else None,
                    present_until=now + timedelta(minutes=5))
        for user in players])

    def late_ones_freed(sender, instance, created, **kwargs):
        post_save.disconnect(late_ones_freed, sender=Match)
        Participant.objects.filter(tournament=arena, user__in=late).update(free_since=now)

    post_save.connect(late_ones_freed, sender=Match, weak=False)
    try:
        matches = services.arena_wave(tournament_id=arena.pk, now=now, force=True)
    finally:
        post_save.disconnect(late_ones_freed, sender=Match)

    assert len(matches) == 3
    assert {seat.user_id for match in matches[2:] for seat in match.seats.all()} == {
        user.pk for user in late}
    assert not Participant.objects.filter(tournament=arena, free_since__isnull=False).exists()
