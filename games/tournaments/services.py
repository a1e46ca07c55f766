"""Arena services (HackSoft style: keyword-only, typed, one transaction each).

Locking, on top of matchmaking's (`games.matchmaking.core`): a tournament's row is locked
before users' rows (as a pool's is), and participants' rows, several in the order of their
ids, after those. Every pairing wave of an arena holds its tournament's row lock, so two
processes never pair the same arena at once; a player is taken out of the free players
(`Participant.free_since` set to None) by a conditional update in the same transaction as
their match, and a match starts only for locked users in no other live game
(`start_match`), so nobody is ever paired twice.

A wave runs at once when a player joins or comes back and when a game of the arena is scored
(on its end, `tasks.match_finished`), and besides on the deadline watch's tick
(`tournaments_tick`, every `TOURNAMENTS_WAVE_SECONDS`), which also starts and ends arenas
and scores any ended game whose task was lost.
"""

from __future__ import annotations

import logging
import math
import random
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games.matchmaking.services import group_send, live_game_of, lock_users, rating_of, start_match
from games.play.errors import PlayError
from games.play.models import Match, Move, Seat, SeatResult, Status, TerminationReason
from games.play.services import Player, seat_berserk
from games.play.time_control import TimeControl
from games.tournaments import errors, pairing
from games.tournaments.errors import TournamentError
from games.tournaments.models import ArenaGame, Participant, Tournament, TournamentStatus
from games.tournaments.scoring import Outcome, game_score
from yourtrumps_site import ratelimit

logger = logging.getLogger(__name__)

OUTCOMES = {SeatResult.WIN: Outcome.WIN, SeatResult.DRAW: Outcome.DRAW,
            SeatResult.LOSS: Outcome.LOSS}


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def tournament_changed(tournament_id: int) -> None:
    """Every page of the arena re-reads its standings (at most once a second each)."""
    group_send(tournament_group(tournament_id), {"type": "tournament.changed"})


def _tell_paired(tournament_id: int, games: dict[str, str]) -> None:
    group_send(tournament_group(tournament_id), {"type": "tournament.paired", "games": games})


def _rate_limit(action: str, user: User) -> None:
    limit, window = settings.TOURNAMENTS_RATE_LIMITS[action]
    wait = ratelimit.hit(key=f"tournament-{action}:{user.pk}", limit=limit, window=window)
    if wait is not None:
        seconds = max(1, math.ceil(wait))
        raise TournamentError(errors.RATE_LIMITED, ngettext(
            "You are doing that too often. Please wait %(seconds)d second.",
            "You are doing that too often. Please wait %(seconds)d seconds.",
            seconds,
        ) % {"seconds": seconds})


def _tournament(token: str, *, lock: bool = False) -> Tournament:
    rows = Tournament.objects.select_for_update(no_key=True) if lock else Tournament.objects
    tournament = rows.filter(token=token).first()
    if tournament is None:
        raise TournamentError(errors.NOT_FOUND, _("There is no such tournament."))
    return tournament


# --- creating ---------------------------------------------------------------------------------


def tournament_create(
    *,
    creator: User | None,
    name: str,
    time_control: TimeControl,
    starts_at: datetime,
    minutes: int,
    rated: bool = True,
    public: bool = True,
    schedule_key: str | None = None,
    now: datetime | None = None,
) -> Tournament:
    """A new arena (the form checks what a person may choose: `forms.TournamentForm`).
    With a `schedule_key` the schedule's arena of that key, made once."""
    now = now or timezone.now()
    if creator is not None:
        _rate_limit("create", creator)
    fields = dict(
        name=name, creator=creator, public=public, rated=rated,
        clock_initial=time_control.initial or 0, clock_increment=time_control.increment,
        starts_at=starts_at, ends_at=starts_at + timedelta(minutes=minutes), created_at=now,
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


def _in_arena_game(participant: Participant) -> bool:
    return ArenaGame.objects.filter(
        Q(user_a=participant.user_id) | Q(user_b=participant.user_id),
        tournament_id=participant.tournament_id, scored=False,
    ).exists()


def tournament_join(*, user: User, token: str, now: datetime | None = None) -> Participant:
    """Join the arena, or come back after a pause or a withdrawal: the standings keep what
    the player had. A wave runs at once if the arena is on."""
    now = now or timezone.now()
    _rate_limit("join", user)
    with transaction.atomic():
        tournament = _tournament(token, lock=True)
        if tournament.status == TournamentStatus.FINISHED or tournament.ends_at <= now:
            raise TournamentError(errors.FINISHED, _("This tournament is over."))
        participant = Participant.objects.select_for_update().filter(
            tournament=tournament, user=user).first()
        if participant is None:
            participant = Participant(tournament=tournament, user=user, joined_at=now,
                                      rating=rating_of(user))
        participant.paused = participant.withdrawn = False
        participant.present_until = _lease(now)
        if participant.free_since is None and not (
                participant.pk is not None and _in_arena_game(participant)):
            participant.free_since = now
        participant.save()
        tournament_id = tournament.pk
        transaction.on_commit(lambda: tournament_changed(tournament_id))
    if tournament.status == TournamentStatus.STARTED:
        arena_wave(tournament_id=tournament.pk, now=now, force=True)
    return participant


def _own(token: str, user: User) -> tuple[Tournament, Participant]:
    tournament = _tournament(token, lock=True)
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
        gone = participant.games == 0 and not _in_arena_game(participant)
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
    """The player's tournament page (or arena game page) is open: they may be paired."""
    now = now or timezone.now()
    return Participant.objects.filter(tournament_id=tournament_id, user=user).update(
        present_until=_lease(now)) > 0


# --- pairing ---------------------------------------------------------------------------------


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


def arena_wave(*, tournament_id: int, now: datetime | None = None,
               force: bool = False) -> list[Match]:
    """Pair the free players of a started arena (`pairing.pair`), and give the AI to those
    who asked for it and have waited long enough with nobody to meet. Without `force`,
    nothing happens if a wave ran less than `TOURNAMENTS_WAVE_SECONDS` ago."""
    now = now or timezone.now()
    free = _free(tournament_id, now)  # read without the lock first: most ticks pair nobody
    if len(free) < 2 and not any(_ai_due(p, now) for p in free):
        return []
    matches: list[Match] = []
    told: dict[str, str] = {}
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(no_key=True).filter(
            pk=tournament_id, status=TournamentStatus.STARTED, ends_at__gt=now).first()
        if tournament is None or not (force or _wave_due(tournament, now)):
            return []
        tournament.last_wave_at = now
        tournament.save(update_fields=["last_wave_at"])
        free = _free(tournament_id, now)
        # Someone playing a live game elsewhere waits for its end (they are not free).
        busy = set(Seat.objects.filter(
            user_id__in=[p.user_id for p in free], match__correspondence=False,
            match__status__in=[Status.TRUMPS, Status.PLAYING]).values_list("user_id", flat=True))
        free = [p for p in free if p.user_id not in busy]
        by_user = {p.user_id: p for p in free}
        pairs = pairing.pair([
            pairing.Candidate(key=p.user_id, score=p.score, rating=p.rating,
                              last_opponent=p.last_opponent) for p in free])
        paired = {c.key for pair in pairs for c in pair}
        lonely = [p for p in free if p.user_id not in paired and _ai_due(p, now)]
        if not pairs and not lonely:
            return []
        users = lock_users(sorted(paired | {p.user_id for p in lonely}))
        for a, b in pairs:
            match = _start(tournament, [by_user[a.key], by_user[b.key]], users, now)
            if match is not None:
                matches.append(match)
                told.update({str(a.key): _url(match), str(b.key): _url(match)})
        for participant in lonely:
            match = _start(tournament, [participant], users, now)
            if match is not None:
                matches.append(match)
                told[str(participant.user_id)] = _url(match)
        if matches:
            transaction.on_commit(lambda: (_tell_paired(tournament_id, told),
                                           tournament_changed(tournament_id)))
    return matches


def _url(match: Match) -> str:
    from games.matchmaking.selectors import match_page_url

    return match_page_url(match_id=match.pk)


def _start(tournament: Tournament, participants: list[Participant], users: dict[int, User],
           now: datetime) -> Match | None:
    """The game of these free participants (one: against the AI at the level of their
    rating), or None if one of them is no longer free (then nothing changes)."""
    ids = [p.user_id for p in participants]
    if any(uid not in users or live_game_of(uid) is not None for uid in ids):
        return None
    with transaction.atomic():  # a savepoint: a player no longer free undoes only this game
        taken = Participant.objects.filter(
            tournament=tournament, user_id__in=ids, free_since__isnull=False,
        ).update(free_since=None)
        if taken != len(ids):
            transaction.set_rollback(True)
            return None
        players = [Player(user=users[uid]) for uid in ids]
        if len(players) == 1:
            from games.ai import level_for_rating

            players.append(Player(ai_level=level_for_rating(participants[0].rating)))
        random.SystemRandom().shuffle(players)
        # A game against the AI cannot be rated: it is scored in the arena all the same.
        match = start_match(players=players, time_control=tournament.time_control,
                            rated=tournament.rated and len(ids) == 2, now=now)
        ArenaGame.objects.create(
            tournament=tournament, match=match, user_a=players[0].user,
            user_b=players[1].user, created_at=now,
        )
    return match


# --- the end of a game ------------------------------------------------------------------------


def arena_game_score(*, match_id: int, now: datetime | None = None) -> bool:
    """Score an ended game of an arena for its players, once (False if it is no arena's, not
    over, or scored already); they are free again and a wave runs. An aborted game scores
    nothing. A player who lost on time without making a move is paused (they are away)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = ArenaGame.objects.select_for_update().filter(
            match_id=match_id, scored=False).first()
        if game is None:
            return False
        match = Match.objects.get(pk=match_id)
        if not match.is_over:
            return False
        seats = list(match.seats.order_by("index"))
        participants = {p.user_id: p for p in Participant.objects.select_for_update().filter(
            tournament_id=game.tournament_id, user_id__in=game.user_ids()).order_by("pk")}
        aborted = match.status == Status.ABORTED
        for seat in seats:
            participant = participants.get(seat.user_id) if seat.user_id is not None else None
            if participant is None:
                continue
            opponent = seats[1 - seat.index]
            if not aborted and seat.result in OUTCOMES:
                scored = game_score(outcome=OUTCOMES[seat.result], streak=participant.streak,
                                    berserk=seat.berserk)
                participant.score += scored.points
                participant.games += 1
                participant.wins += 1 if seat.result == SeatResult.WIN else 0
                participant.sheet = [*participant.sheet, scored.sheet_entry()]
                participant.streak = scored.streak
                setattr(game, "points_a" if seat.index == 0 else "points_b", scored.points)
                if (match.termination == TerminationReason.TIMEOUT
                        and seat.result == SeatResult.LOSS
                        and not Move.objects.filter(match=match, seat=seat.index).exists()):
                    participant.paused = True
            participant.last_opponent = opponent.user_id if opponent.user_id is not None else 0
            participant.free_since = now
            participant.rating = rating_of(participant.user)
            participant.save()
        game.scored = True
        game.save(update_fields=["scored", "points_a", "points_b"])
        tournament_id = game.tournament_id
        transaction.on_commit(lambda: tournament_changed(tournament_id))
    arena_wave(tournament_id=tournament_id, now=now, force=True)
    return True


def arena_berserk(*, user: User, match_id: int, now: datetime | None = None) -> bool:
    """Berserk in one's arena game before one's first move: half the time, no increment,
    one more point for a win. False if the player was berserk already."""
    now = now or timezone.now()
    game = ArenaGame.objects.filter(match_id=match_id, scored=False).first()
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
    """Start the arenas whose time has come, end those whose time is up, score ended games
    whose task was lost, and run a wave of each arena on (each harmless run twice or by two
    processes at once: conditional updates and the waves' lock)."""
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
            status=TournamentStatus.STARTED, ends_at__lte=now).values_list("pk", flat=True):
        if Tournament.objects.filter(pk=tournament_id, status=TournamentStatus.STARTED).update(
                status=TournamentStatus.FINISHED):
            tournament_changed(tournament_id)
    for match_id in ArenaGame.objects.filter(
            scored=False, match__status__in=[Status.FINISHED, Status.ABORTED],
    ).values_list("match_id", flat=True)[:200]:
        arena_game_score(match_id=match_id, now=now)
    for tournament_id in Tournament.objects.filter(
            status=TournamentStatus.STARTED).values_list("pk", flat=True):
        arena_wave(tournament_id=tournament_id, now=now)
