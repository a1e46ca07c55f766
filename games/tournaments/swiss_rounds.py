"""A Swiss's rounds (`docs/tournaments.md`): all players paired at each round (`swiss`), the
next round started when the last game of a round ends, the tournament finished after its
last round.

A round starts under the tournament's row lock and only while no game of the round before is
unscored, so two processes (a game's end task and the deadline watch's tick) never start the
same round twice.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.tournaments import swiss
from games.tournaments.core import (
    games_start,
    lock_free_users,
    match_url,
    tell_paired,
    tournament_changed,
)
from games.tournaments.models import (
    Participant,
    Tournament,
    TournamentGame,
    TournamentKind,
    TournamentStatus,
)


def swiss_player(participant: Participant) -> swiss.SwissPlayer:
    sheet = participant.sheet
    return swiss.SwissPlayer(
        key=participant.user_id, score=participant.score, rating=participant.rating,
        opponents=frozenset(entry[1] for entry in sheet if entry[1] != swiss.BYE),
        had_bye=any(entry[1] == swiss.BYE for entry in sheet),
    )


def swiss_round_next(*, tournament_id: int, now: datetime | None = None) -> int | None:
    """If the Swiss's round is over (no game of it unscored), pair the next one (a bye scores
    a win), or finish the tournament after its last. Returns the round started, if any."""
    now = now or timezone.now()
    told: dict[int, str] = {}
    if TournamentGame.objects.filter(tournament_id=tournament_id, scored=False).exists():
        return None  # read without the lock first: most ticks find the round still on
    with transaction.atomic():
        # Another process checking or starting the round holds the row: it does the work.
        tournament = Tournament.objects.select_for_update(no_key=True, skip_locked=True).filter(
            pk=tournament_id, kind=TournamentKind.SWISS, status=TournamentStatus.STARTED,
        ).first()
        if tournament is None or TournamentGame.objects.filter(
                tournament=tournament, scored=False).exists():
            return None
        if tournament.round >= (tournament.rounds or 0):
            tournament.status = TournamentStatus.FINISHED
            tournament.ends_at = now
            tournament.save(update_fields=["status", "ends_at"])
            transaction.on_commit(lambda: tournament_changed(tournament_id))
            return None
        playing = list(Participant.objects.filter(
            tournament=tournament, paused=False, withdrawn=False).order_by("pk"))
        # Someone playing a live game elsewhere misses the round (no points, no bye): the
        # users are locked first, so that nobody starts one between this check and the round.
        users = lock_free_users([p.user_id for p in playing])
        playing = [p for p in playing if p.user_id in users]
        by_user = {p.user_id: p for p in playing}
        pairs, bye = swiss.pair_round([swiss_player(p) for p in playing])
        tournament.round += 1
        tournament.save(update_fields=["round"])
        Participant.objects.filter(pk__in=[p.pk for p in playing]).update(free_since=now)
        groups = [[by_user[a.key], by_user[b.key]] for a, b in pairs]
        for group, match in games_start(tournament, groups, users, now,
                                        round_=tournament.round):
            told.update(dict.fromkeys([p.user_id for p in group], match_url(match)))
        if bye is not None:
            sitting = Participant.objects.select_for_update().get(pk=by_user[bye.key].pk)
            sitting.score += swiss.BYE_POINTS
            sitting.sheet = [*sitting.sheet, [tournament.round, swiss.BYE, swiss.BYE_POINTS]]
            sitting.save(update_fields=["score", "sheet"])
        started = tournament.round
        transaction.on_commit(lambda: (tell_paired(tournament_id, told),
                                       tournament_changed(tournament_id)))
    return started
