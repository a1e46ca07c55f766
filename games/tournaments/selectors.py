"""What the tournament pages, their socket and the profile read."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import User
from games.matchmaking.selectors import match_page_url
from games.play.models import Status, player_name
from games.tournaments import swiss
from games.tournaments.models import Participant, Tournament, TournamentGame, TournamentStatus

STANDINGS_SHOWN = 100
GAMES_SHOWN = 20
LIST_SHOWN = 30
HISTORY_SHOWN = 20
STATE_CACHE_SECONDS = 10


def _ms(at: datetime | None) -> int | None:
    return None if at is None else int(at.timestamp() * 1000)


def tournament_title(tournament: Tournament) -> str:
    """Its name; the schedule's arenas are named in the reader's language."""
    if tournament.schedule_key:
        return _("Hourly %(control)s arena") % {"control": tournament.time_control.label}
    return tournament.name


def tournament_url(tournament: Tournament) -> str:
    return reverse("tournaments:detail", args=[tournament.token])


def tournament_get(*, token: str) -> Tournament | None:
    return Tournament.objects.filter(token=token).first()


def tournament_lists(*, now: datetime | None = None) -> dict[str, list[Tournament]]:
    """The public arenas: upcoming (soonest first), running, and recently finished."""
    public = Tournament.objects.filter(public=True).annotate(players=Count("participants"))
    return {
        "upcoming": list(public.filter(status=TournamentStatus.CREATED)
                         .order_by("starts_at", "pk")[:LIST_SHOWN]),
        "running": list(public.filter(status=TournamentStatus.STARTED)
                        .order_by("ends_at", "pk")[:LIST_SHOWN]),
        "finished": list(public.filter(status=TournamentStatus.FINISHED)
                         .order_by("-ends_at", "-pk")[:LIST_SHOWN]),
    }


def _ranked(tournament: Tournament, limit: int
            ) -> list[tuple[Participant, tuple[float, float] | None]]:
    """The participants in the standings' order, with a Swiss's tie-breaks (Buchholz,
    Sonneborn-Berger): an arena ranks by score, then rating; a Swiss by points, then its
    tie-breaks, then rating."""
    rows = Participant.objects.filter(tournament=tournament).select_related("user")
    if not tournament.is_swiss:
        return [(p, None) for p in rows.order_by("-score", "-rating", "pk")[:limit]]
    players = list(rows)
    breaks = swiss.tie_breaks(
        {p.user_id: [(entry[1], entry[2]) for entry in p.sheet] for p in players})
    players.sort(key=lambda p: (-p.score, -breaks[p.user_id][0], -breaks[p.user_id][1],
                                -p.rating, p.pk))
    return [(p, breaks[p.user_id]) for p in players[:limit]]


def standings(*, tournament: Tournament, limit: int = STANDINGS_SHOWN) -> list[dict[str, Any]]:
    """The standings: rank, player, rating, score, its sheet (in an arena each game's points,
    whether doubled by a streak, whether berserk won a point; in a Swiss each round, its
    opponent and its half points), on fire, games played; a Swiss's points and tie-breaks."""
    rows = []
    for rank, (participant, breaks) in enumerate(_ranked(tournament, limit), start=1):
        row = {
            "rank": rank,
            "player": participant.user.username,
            "player_id": participant.user_id,
            "rating": round(participant.rating),
            "score": participant.score,
            "games": participant.games,
            "sheet": participant.sheet[-30:],
            "fire": participant.on_fire and not tournament.is_swiss,
            "paused": participant.paused or participant.withdrawn,
        }
        if breaks is not None:
            row.update(points=participant.score / 2, buchholz=breaks[0],
                       sonneborn_berger=breaks[1])
        rows.append(row)
    return rows


def games_in_progress(*, tournament: Tournament, limit: int = GAMES_SHOWN) -> list[dict[str, Any]]:
    games = (TournamentGame.objects.filter(tournament=tournament, scored=False,
                                      match__status__in=[Status.TRUMPS, Status.PLAYING])
             .select_related("user_a", "user_b", "match").prefetch_related("match__seats")
             .order_by("-pk")[:limit])
    shown = []
    for game in games:
        seats = {seat.index: seat for seat in game.match.seats.all()}
        names = [
            player_name(ai_level=seats[i].ai_level if i in seats else None,
                        username=user.username if user is not None else None, guest=False)
            for i, user in ((0, game.user_a), (1, game.user_b))
        ]
        shown.append({"match_id": game.match_id, "url": match_page_url(match_id=game.match_id),
                      "players": names})
    return shown


def my_state(*, tournament: Tournament, user: User | None) -> dict[str, Any] | None:
    """The reader's own place in the arena, or None if they have not joined."""
    if user is None or not user.is_authenticated:
        return None
    participant = Participant.objects.filter(tournament=tournament, user=user).first()
    if participant is None:
        return None
    return {
        "paused": participant.paused,
        "withdrawn": participant.withdrawn,
        "ai_opt_in": participant.ai_opt_in,
        "free_since_ms": _ms(participant.free_since),
        "game_url": game_in_progress_url(tournament=tournament, user=user),
        "score": participant.score,
    }


def game_in_progress_url(*, tournament: Tournament, user: User) -> str | None:
    """The page of the player's game of the tournament in progress, if they play one."""
    game = TournamentGame.objects.filter(
        Q(user_a=user) | Q(user_b=user), tournament=tournament, scored=False,
        match__status__in=[Status.TRUMPS, Status.PLAYING]).order_by("-pk").first()
    return None if game is None else match_page_url(match_id=game.match_id)


def state_cache_key(tournament_id: int, language: str | None) -> str:
    return f"tournament-state:{tournament_id}:{language}"


def tournament_public_state(*, tournament: Tournament, fresh_after: float = 0.0
                            ) -> dict[str, Any]:
    """What every reader of the tournament is sent (all but `me`), in the active language.
    Kept in the cache: the many sockets of a busy arena, told of a change, read it once
    between them; a state made before `fresh_after` (a time.time() instant: the change they
    were told of) is made again."""
    key = state_cache_key(tournament.pk, translation.get_language())
    cached = cache.get(key)
    if cached is not None and cached[0] >= fresh_after:
        return dict(cached[1])
    made_at = time.time()
    tournament.refresh_from_db()
    table = standings(tournament=tournament)
    state = {
        "type": "tournament",
        "kind": tournament.kind,
        "round": tournament.round,
        "rounds": tournament.rounds,
        "status": tournament.status,
        "starts_at_ms": _ms(tournament.starts_at),
        "ends_at_ms": _ms(tournament.ends_at),
        "players": Participant.objects.filter(tournament=tournament).count(),
        "standings": table,
        "podium": table[:3] if tournament.status == TournamentStatus.FINISHED else [],
        "games": ([] if tournament.status == TournamentStatus.FINISHED
                  else games_in_progress(tournament=tournament)),
    }
    cache.set(key, (made_at, state), timeout=STATE_CACHE_SECONDS)
    return state


def tournament_state(*, tournament: Tournament, user: User | None,
                     fresh_after: float = 0.0) -> dict[str, Any]:
    """The message of the tournament socket (`schemas.TournamentState`)."""
    return {**tournament_public_state(tournament=tournament, fresh_after=fresh_after),
            "me": my_state(tournament=tournament, user=user)}


def tournament_game_of_match(*, match_id: int) -> TournamentGame | None:
    return TournamentGame.objects.filter(match_id=match_id).select_related("tournament").first()


def user_history(*, user: User, limit: int = HISTORY_SHOWN) -> list[dict[str, Any]]:
    """A player's tournaments, newest first, with their final (or current) rank and score."""
    entries = (Participant.objects.filter(user=user).select_related("tournament")
               .order_by("-tournament__starts_at")[:limit])
    history = []
    for entry in entries:
        tournament = entry.tournament
        if tournament.is_swiss:
            order = [p.pk for p, _breaks in _ranked(tournament, STANDINGS_SHOWN * 10)]
            rank = order.index(entry.pk) + 1 if entry.pk in order else len(order)
        else:
            rank = 1 + Participant.objects.filter(tournament=tournament).filter(
                Q(score__gt=entry.score) | Q(score=entry.score, rating__gt=entry.rating)
                | Q(score=entry.score, rating=entry.rating, pk__lt=entry.pk)).count()
        history.append({"tournament": tournament,
                        "title": tournament_title(tournament),
                        "url": tournament_url(tournament),
                        "rank": rank,
                        "players": tournament.participants.count(),
                        "score": entry.score / 2 if tournament.is_swiss else entry.score,
                        "games": entry.games})
    return history
