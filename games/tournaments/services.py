"""Tournament services (HackSoft style: keyword-only, typed, one transaction each): creating
arenas and Swiss tournaments, the schedule, joining, pausing, withdrawing, berserk, the end of
a game, and the tournaments' clock. An arena's pairing waves are in `arena`, a Swiss's rounds
in `swiss_rounds`, what they share (locking, starting a game, telling the pages) in `core`.

The clock (`tournaments_tick`, on the deadline watch every `TOURNAMENTS_WAVE_SECONDS`) starts
the tournaments whose time has come, ends the arenas whose time is up, scores any ended game
whose task was lost, and runs a wave of each arena on and the next round of each Swiss whose
round is over.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.matchmaking.services import rating_of
from games.play.errors import PlayError
from games.play.models import Status
from games.play.services import seat_berserk
from games.play.time_control import TimeControl
from games.tournaments import errors
from games.tournaments.arena import arena_wave
from games.tournaments.core import (
    rate_limit,
    tournament_changed,
    tournament_group,
    tournament_of,
    tournament_player_group,
)
from games.tournaments.errors import TournamentError
from games.tournaments.models import (
    Participant,
    Tournament,
    TournamentGame,
    TournamentKind,
    TournamentStatus,
)
from games.tournaments.results import ended_games_score
from games.tournaments.swiss_rounds import swiss_round_next

__all__ = ["arena_wave", "swiss_round_next", "tournament_group", "tournament_player_group"]

logger = logging.getLogger(__name__)

# A Swiss's planned end, shown nowhere but kept as its latest end: each round at most the
# players' two clocks of 60 moves and a minute between rounds.
SWISS_MOVES_PER_ROUND = 60


# --- creating ---------------------------------------------------------------------------------


def tournament_create(
    *,
    creator: User | None,
    name: str,
    time_control: TimeControl,
    starts_at: datetime,
    minutes: int = 0,
    rounds: int | None = None,
    rated: bool = True,
    public: bool = True,
    schedule_key: str | None = None,
    now: datetime | None = None,
) -> Tournament:
    """A new arena of `minutes`, or with `rounds` a Swiss (the form checks what a person may
    choose: `forms.TournamentForm`). With a `schedule_key` the schedule's arena of that key,
    made once."""
    now = now or timezone.now()
    if (rounds is None) == (minutes <= 0):
        raise ValueError("an arena has minutes, a Swiss rounds")
    if creator is not None:
        rate_limit("create", creator)
    if rounds is not None:
        per_round = 2 * (time_control.initial or 0) + SWISS_MOVES_PER_ROUND * (
            time_control.increment) + 60
        ends_at = starts_at + timedelta(seconds=rounds * per_round)
    else:
        ends_at = starts_at + timedelta(minutes=minutes)
    fields = dict(
        name=name, creator=creator, public=public, rated=rated,
        kind=TournamentKind.SWISS if rounds is not None else TournamentKind.ARENA,
        rounds=rounds, clock_initial=time_control.initial or 0,
        clock_increment=time_control.increment, starts_at=starts_at, ends_at=ends_at,
        created_at=now,
    )
    if schedule_key is None:
        return Tournament.objects.create(token=secrets.token_urlsafe(9), **fields)
    tournament, _created = Tournament.objects.get_or_create(
        schedule_key=schedule_key, defaults={"token": secrets.token_urlsafe(9), **fields})
    return tournament


def tournaments_schedule(*, now: datetime | None = None) -> list[Tournament]:
    """The hourly arenas (`TOURNAMENTS_HOURLY`: a time control and minutes each) of the
    hours ahead (`TOURNAMENTS_SCHEDULE_AHEAD_HOURS`); an arena made already is kept."""
    now = now or timezone.now()
    hour = now.replace(minute=0, second=0, microsecond=0)
    made = []
    for ahead in range(1, settings.TOURNAMENTS_SCHEDULE_AHEAD_HOURS + 1):
        starts_at = hour + timedelta(hours=ahead)
        for key, minutes in settings.TOURNAMENTS_HOURLY:
            made.append(tournament_create(
                creator=None, name="", time_control=TimeControl.parse(key),
                starts_at=starts_at, minutes=minutes, rated=True, public=True,
                schedule_key=f"hourly {key} {starts_at:%Y-%m-%dT%H}", now=now,
            ))
    return made


# --- joining, pausing, withdrawing --------------------------------------------------------


def _lease(now: datetime) -> datetime:
    return now + timedelta(seconds=settings.TOURNAMENTS_ALIVE_SECONDS)


def _in_tournament_game(participant: Participant) -> bool:
    return TournamentGame.objects.filter(
        Q(user_a=participant.user_id) | Q(user_b=participant.user_id),
        tournament_id=participant.tournament_id, scored=False,
    ).exists()


def tournament_join(*, user: User, token: str, now: datetime | None = None) -> Participant:
    """Join the arena, or come back after a pause or a withdrawal: the standings keep what
    the player had. A wave runs at once if the arena is on."""
    now = now or timezone.now()
    rate_limit("join", user)
    with transaction.atomic():
        tournament = tournament_of(token, lock=True)
        if tournament.status == TournamentStatus.FINISHED or (
                not tournament.is_swiss and tournament.ends_at <= now):
            raise TournamentError(errors.FINISHED, _("This tournament is over."))
        participant = Participant.objects.select_for_update().filter(
            tournament=tournament, user=user).first()
        if participant is None:
            participant = Participant(tournament=tournament, user=user, joined_at=now,
                                      rating=rating_of(user))
        participant.paused = participant.withdrawn = False
        participant.present_until = _lease(now)
        if participant.free_since is None and not (
                participant.pk is not None and _in_tournament_game(participant)):
            participant.free_since = now
        participant.save()
        tournament_id = tournament.pk
        transaction.on_commit(lambda: tournament_changed(tournament_id))
    if tournament.status == TournamentStatus.STARTED and not tournament.is_swiss:
        arena_wave(tournament_id=tournament.pk, now=now, force=True)
    return participant


def _own(token: str, user: User) -> tuple[Tournament, Participant]:
    tournament = tournament_of(token, lock=True)
    participant = Participant.objects.select_for_update().filter(
        tournament=tournament, user=user).first()
    if participant is None:
        raise TournamentError(errors.NOT_JOINED, _("You have not joined this tournament."))
    return tournament, participant


def tournament_pause(*, user: User, token: str) -> Participant:
    """Stop being paired (the game being played goes on); joining again resumes."""
    with transaction.atomic():
        tournament, participant = _own(token, user)
        participant.paused = True
        participant.save(update_fields=["paused"])
        transaction.on_commit(lambda: tournament_changed(tournament.pk))
    return participant


def tournament_withdraw(*, user: User, token: str) -> bool:
    """Leave the arena. A player who has played no game of it leaves its standings (True);
    one who has stays in them, withdrawn, with what they scored (False)."""
    with transaction.atomic():
        tournament, participant = _own(token, user)
        gone = participant.games == 0 and not _in_tournament_game(participant)
        if gone:
            participant.delete()
        else:
            participant.withdrawn = True
            participant.save(update_fields=["withdrawn"])
        transaction.on_commit(lambda: tournament_changed(tournament.pk))
    return gone


def participant_ai_opt_in(*, user: User, token: str, on: bool) -> Participant:
    """Agree (or no longer) to play the AI, at the level of one's rating, after waiting
    `TOURNAMENTS_AI_AFTER_SECONDS` for a person. Never on by default."""
    with transaction.atomic():
        _tournament_row, participant = _own(token, user)
        participant.ai_opt_in = on
        participant.save(update_fields=["ai_opt_in"])
    return participant


def participant_presence_renew(*, tournament_id: int, user: User,
                               now: datetime | None = None) -> bool:
    """The player's tournament page (or arena game page) is open: they may be paired. False
    if they are no participant, or their row is held at this moment
    (`participants_presence_renew`)."""
    return participants_presence_renew(tournament_id=tournament_id, user_ids=[user.pk],
                                       now=now) > 0


def participants_presence_renew(*, tournament_id: int, user_ids: Sequence[int],
                                now: datetime | None = None) -> int:
    """These players' pages of the arena are open: one statement for all of them (a socket
    server renews its pages' presence together, `presence`); how many were renewed.

    A row a wave or a scoring holds at this moment is left out: the renewal never waits for
    it. A page renews every third of the lease, so a renewal left out costs nothing, where
    waiting would hold one of the few database threads of a socket server
    (`infra.db_threads`), and every socket's work behind it, for as long as a wave's part
    takes."""
    now = now or timezone.now()
    with transaction.atomic():  # one statement: the locks are taken and used at once
        free_rows = Participant.objects.select_for_update(no_key=True, skip_locked=True).filter(
            tournament_id=tournament_id, user_id__in=list(user_ids)).values("pk")
        return Participant.objects.filter(pk__in=free_rows).update(present_until=_lease(now))


# --- pairing ---------------------------------------------------------------------------------


# --- the end of a game ------------------------------------------------------------------------


def tournament_game_score(*, match_id: int, now: datetime | None = None,
                          pair: bool = True) -> bool:
    """Score an ended game of a tournament for its players, once, with every other ended
    game of its tournament (`results`): False if it is no tournament's, not over, or scored
    already (or being scored by another process at this moment). Its players are free again;
    then an arena's wave runs, or a Swiss's next round starts if its round is over. Without
    `pair`, nothing more: the caller pairs (the tick, once for many games)."""
    now = now or timezone.now()
    game = TournamentGame.objects.filter(match_id=match_id, scored=False).values_list(
        "tournament_id", "tournament__kind").first()
    if game is None:
        return False
    tournament_id, kind = game
    scored = match_id in ended_games_score(tournament_id=tournament_id, now=now)
    if pair and kind == TournamentKind.SWISS:
        swiss_round_next(tournament_id=tournament_id, now=now)
    elif pair:
        arena_wave(tournament_id=tournament_id, now=now, force=True)
    return scored


def arena_berserk(*, user: User, match_id: int, now: datetime | None = None) -> bool:
    """Berserk in one's arena game before one's first move: half the time, no increment,
    one more point for a win. False if the player was berserk already."""
    now = now or timezone.now()
    game = TournamentGame.objects.filter(match_id=match_id, scored=False,
                                         tournament__kind=TournamentKind.ARENA).first()
    if game is None or user.pk not in game.user_ids():
        raise TournamentError(errors.NOT_YOUR_GAME,
                              _("This is not a game of yours in a tournament."))
    seat = 0 if game.user_a_id == user.pk else 1
    try:
        change = seat_berserk(match_id=match_id, seat=seat, now=now)
    except PlayError:
        raise TournamentError(errors.BERSERK_REFUSED,
                              _("Berserk is only possible before your first move.")) from None
    if change is not None:
        tournament_id = game.tournament_id
        transaction.on_commit(lambda: tournament_changed(tournament_id))
    return change is not None


# --- the clock of the arenas ------------------------------------------------------------------


def tournaments_tick(*, now: datetime | None = None) -> None:
    """Start the tournaments whose time has come, end the arenas whose time is up, score
    ended games whose task was lost, run a wave of each arena on and the next round of each
    Swiss whose round is over (each harmless run twice or by two processes at once:
    conditional updates and the tournaments' row locks)."""
    now = now or timezone.now()
    for tournament_id in Tournament.objects.filter(
            status=TournamentStatus.CREATED, starts_at__lte=now).values_list("pk", flat=True):
        with transaction.atomic():
            started = Tournament.objects.filter(
                pk=tournament_id, status=TournamentStatus.CREATED,
            ).update(status=TournamentStatus.STARTED)
            if started:
                # Who joined early starts waiting now (the AI's wait counts from here).
                Participant.objects.filter(tournament_id=tournament_id,
                                           free_since__isnull=False).update(free_since=now)
        if started:
            tournament_changed(tournament_id)
    for tournament_id in Tournament.objects.filter(
            kind=TournamentKind.ARENA, status=TournamentStatus.STARTED, ends_at__lte=now,
    ).values_list("pk", flat=True):
        if Tournament.objects.filter(pk=tournament_id, status=TournamentStatus.STARTED).update(
                status=TournamentStatus.FINISHED):
            tournament_changed(tournament_id)
    for tournament_id in TournamentGame.objects.filter(
            scored=False, match__status__in=[Status.FINISHED, Status.ABORTED],
    ).values_list("tournament_id", flat=True).distinct():
        # Paired below, once for all of them.
        ended_games_score(tournament_id=tournament_id, now=now)
    for tournament_id, kind in Tournament.objects.filter(
            status=TournamentStatus.STARTED).values_list("pk", "kind"):
        if kind == TournamentKind.SWISS:
            swiss_round_next(tournament_id=tournament_id, now=now)
        else:
            arena_wave(tournament_id=tournament_id, now=now)
