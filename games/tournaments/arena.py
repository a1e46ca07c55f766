"""An arena's pairing waves (`docs/tournaments.md`): every free player paired at once with a
free player of near score and rating (`pairing`), and the AI for those who asked for it.

Every wave holds its arena's row lock, so two processes never pair the same arena at once. A
wave runs at once when a player joins or comes back and when a game of the arena is scored
(on its end, `tasks.match_finished`), and besides on the deadline watch's tick
(`services.tournaments_tick`, every `TOURNAMENTS_WAVE_SECONDS`).
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.matchmaking.services import live_players
from games.play.models import Match
from games.tournaments import pairing
from games.tournaments.core import (
    games_start,
    lock_free_users,
    match_url,
    tell_paired,
    tournament_changed,
)
from games.tournaments.models import Participant, Tournament, TournamentKind, TournamentStatus


def _wave_due(tournament: Tournament, now: datetime) -> bool:
    last = tournament.last_wave_at
    return last is None or (now - last).total_seconds() >= settings.TOURNAMENTS_WAVE_SECONDS * 0.9


def _free(tournament_id: int, now: datetime) -> list[Participant]:
    return list(Participant.objects.filter(
        tournament_id=tournament_id, paused=False, withdrawn=False,
        free_since__isnull=False, present_until__gt=now,
    ))


def _ai_due(participant: Participant, now: datetime) -> bool:
    return (participant.ai_opt_in and participant.free_since is not None
            and (now - participant.free_since).total_seconds()
            >= settings.TOURNAMENTS_AI_AFTER_SECONDS)


# Games started per transaction of a wave: a wave of a busy arena starts hundreds, and the
# players of each part are told when it commits rather than when the last game is made.
WAVE_PART = 25


# Waves one call runs at most: after a wave that started games, the next pairs whoever became
# free while it ran (the waves that came meanwhile stood aside), rather than leave them to
# the clock's tick, a second later.
WAVE_REPEATS = 3


def arena_wave(*, tournament_id: int, now: datetime | None = None,
               force: bool = False) -> list[Match]:
    """Pair the free players of a started arena (`pairing.pair`), and give the AI to those
    who asked for it and have waited long enough with nobody to meet. Without `force`,
    nothing happens if a wave ran less than `TOURNAMENTS_WAVE_SECONDS` ago.

    The games are started `WAVE_PART` at a time, each part in a transaction of its own that
    holds the arena's row: between two parts another wave may take the row and pair whoever
    is still free (the rest of this wave's plan then finds them taken and starts nothing
    for them). A wave that started games is followed by another, up to `WAVE_REPEATS`,
    for the players freed while it ran."""
    matches: list[Match] = []
    for repeat in range(WAVE_REPEATS):
        started = _wave(tournament_id, now or timezone.now(), force=force or repeat > 0)
        matches += started
        if not started:
            break
    return matches


def _wave(tournament_id: int, now: datetime, *, force: bool) -> list[Match]:
    free = _free(tournament_id, now)  # read without the lock first: most ticks pair nobody
    if len(free) < 2 and not any(_ai_due(p, now) for p in free):
        return []
    matches: list[Match] = []
    plan: list[list[Participant]] | None = None
    while plan is None or plan:
        told: dict[int, str] = {}
        with transaction.atomic():
            # A wave already running holds the row: this one stands aside rather than queue
            # behind it (in a burst of game ends one wave pairs everyone freed; whoever it
            # missed is paired by its repeat, at the latest by the tick's within a second).
            tournament = Tournament.objects.select_for_update(
                no_key=True, skip_locked=True).filter(
                pk=tournament_id, kind=TournamentKind.ARENA, status=TournamentStatus.STARTED,
                ends_at__gt=now).first()
            if tournament is None:
                break
            if plan is None:
                if not (force or _wave_due(tournament, now)):
                    break
                tournament.last_wave_at = now
                tournament.save(update_fields=["last_wave_at"])
                plan = _plan(tournament_id, now)
            part, plan = plan[:WAVE_PART], plan[WAVE_PART:]
            users = lock_free_users([p.user_id for group in part for p in group])
            for group, match in games_start(tournament, part, users, now):
                matches.append(match)
                told.update(dict.fromkeys([p.user_id for p in group], match_url(match)))
            if told:
                transaction.on_commit(lambda told=told: (tell_paired(tournament_id, told),
                                                         tournament_changed(tournament_id)))
    return matches


def _plan(tournament_id: int, now: datetime) -> list[list[Participant]]:
    """The games of a wave: the pairs of the free players (`pairing.pair`), then, alone,
    those left unpaired whom the AI is due to."""
    free = _free(tournament_id, now)
    # Someone playing a live game elsewhere waits for its end (they are not free); the
    # games' start checks it again, under the users' locks.
    busy = live_players([p.user_id for p in free])
    free = [p for p in free if p.user_id not in busy]
    by_user = {p.user_id: p for p in free}
    pairs = pairing.pair([
        pairing.Candidate(key=p.user_id, score=p.score, rating=p.rating,
                          last_opponent=p.last_opponent) for p in free])
    paired = {c.key for pair in pairs for c in pair}
    lonely = [[p] for p in free if p.user_id not in paired and _ai_due(p, now)]
    return [[by_user[a.key], by_user[b.key]] for a, b in pairs] + lonely
