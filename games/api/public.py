"""The public read API: a player's profile and ratings, their games (NDJSON, with the
history's filters), one game with its record, a live game's stream, the leaderboard. No token
is needed; a token with `games:read` lets its owner read their own private games as well."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import reverse
from ninja import Router

from accounts.models import RatingMode, TokenScope, User
from accounts.selectors import rating_get_many, user_get_by_username
from games.api import errors, selectors
from games.api.auth import caller_of
from games.api.bot import REFUSALS, STREAM_DOC
from games.api.errors import ApiError
from games.api.forms import GamesQueryForm
from games.api.game_stream import game_lines
from games.api.schemas import GameRecordOut, LeaderboardOut, ProfileOut
from games.api.streams import NDJSON, line, ndjson_response
from games.matchmaking.selectors import leaderboard as leaderboard_get
from games.play import selectors as play_selectors
from games.play.models import Match, Seat
from games.profiles.selectors import profile_record
from games.replays.history import history_queryset
from games.replays.selectors import record_available
from games.replays.services import RecordNotAvailableError, record_export
from infra.db_threads import db_call
from infra.socket_fields import Username

router = Router(tags=["public"])

MODES = [RatingMode.DUEL, RatingMode.TABLE, RatingMode.CORRESPONDENCE, RatingMode.PUZZLE]


def _player(username: str) -> User:
    user = user_get_by_username(username=username)
    if user is None or not user.is_active:
        raise ApiError(404, errors.NOT_FOUND, f"there is no player {username}")
    return user


def _reader_id(request: HttpRequest) -> int | None:
    """The user whose private games this call may read: a token with `games:read`."""
    token = caller_of(request).token
    if token is None or TokenScope.READ not in token.scope_list:
        return None
    return int(token.user.pk)


def _profile(username: str) -> dict[str, Any]:
    user = _player(username)
    ratings = []
    for mode in MODES:
        summary = rating_get_many(user_ids=[user.pk], mode=mode)[user.pk]
        ratings.append({"mode": str(mode), "rating": summary.rating,
                        "deviation": summary.deviation, "provisional": summary.provisional,
                        "games": summary.games})
    record = profile_record(user=user)
    return {
        "name": user.username, "title": "BOT" if user.is_bot else None,
        "created_at": user.date_joined.isoformat(), "ratings": ratings,
        "played": record.played, "won": record.won, "drawn": record.drawn, "lost": record.lost,
        "url": reverse("profile", args=[user.username]),
    }


@router.get("/user/{username}", response={200: ProfileOut, **REFUSALS},
            summary="A player's profile and ratings")
async def profile(request: HttpRequest, username: Username) -> dict[str, Any]:
    return await db_call(_profile, username)


def _games(username: str, form: GamesQueryForm, reader_id: int | None
           ) -> list[dict[str, Any]]:
    user = _player(username)
    if not form.is_valid():
        field, problems = next(iter(form.errors.items()))
        raise ApiError(400, errors.BAD_REQUEST, f"{field}: {problems[0]}")
    opponent = None
    if form.cleaned_data.get("opponent"):
        opponent = _player(form.cleaned_data["opponent"])
    count = form.count
    matches = history_queryset(filters=form.filters(opponent=opponent), player_id=user.pk)
    found = list(matches[:count])
    seats: dict[int, list[Seat]] = {}
    for seat in (Seat.objects.filter(match__in=found).select_related("user")
                 .order_by("match_id", "index")):
        seats.setdefault(seat.match_id, []).append(seat)
    people = sorted({s.user_id for group in seats.values() for s in group
                     if s.user_id is not None})
    ratings = rating_get_many(user_ids=people)
    return [selectors.summary_of(match, seats.get(match.pk, []), user_id=reader_id,
                                 ratings=ratings) for match in found]


@router.get("/games/user/{username}", response={**REFUSALS}, openapi_extra=STREAM_DOC,
            summary="A player's finished games, newest first (NDJSON); the filters of the "
                    "history page: opponent, result (win, loss, draw), rated (rated, casual), "
                    "against (ai, people), time_control, players, date_from, date_to; max")
async def games(request: HttpRequest, username: Username) -> HttpResponse:
    form = GamesQueryForm(request.GET)
    found = await db_call(_games, username, form, _reader_id(request))
    # At most `API_GAMES_MAX` lines, read at once: sent whole, one game a line.
    return HttpResponse(b"".join(line(game) for game in found), content_type=NDJSON)


def _visible(match_id: int, reader_id: int | None) -> tuple[Match, list[Seat], int | None]:
    """The match, its seats and the reader's seat; 404 for a private match of others that is
    not over (as the replay page)."""
    match = play_selectors.match_get(match_id=match_id)
    if match is None:
        raise ApiError(404, errors.NOT_FOUND, f"there is no game {match_id}")
    seats = play_selectors.match_seats(match=match)
    seat = (play_selectors.seat_of(seats=seats, viewer=play_selectors.Viewer(user_id=reader_id))
            if reader_id is not None else None)
    if not match.is_over and not match.public and seat is None:
        raise ApiError(404, errors.NOT_FOUND, f"there is no game {match_id}")
    return match, seats, seat


def _game(match_id: int, reader_id: int | None) -> dict[str, Any]:
    match, seats, _seat = _visible(match_id, reader_id)
    summary = selectors.summary_of(match, seats, user_id=reader_id)
    moves, _held = play_selectors.match_moves(match=match)
    record = None
    if record_available(match=match):
        try:
            record = record_export(match=match)
        except RecordNotAvailableError:
            record = None
    return {**summary, "moves": [text for _seat_index, text in moves], "record": record}


@router.get("/game/{int:game_id}", response={200: GameRecordOut, **REFUSALS},
            summary="One game, with its moves and its record")
async def game(request: HttpRequest, game_id: int) -> dict[str, Any]:
    return await db_call(_game, game_id, _reader_id(request))


@router.get("/stream/game/{int:game_id}", response={**REFUSALS}, openapi_extra=STREAM_DOC,
            summary="A game's state as a spectator sees it (its player: as they do), then "
                    "each change (NDJSON)")
async def game_state_stream(request: HttpRequest, game_id: int) -> StreamingHttpResponse:
    _match, _seats, seat = await db_call(_visible, game_id, _reader_id(request))
    # Only a bot's own stream (the Bot API) keeps its seat present; a reader only watches.
    return ndjson_response(game_lines(match_id=game_id, seat=seat, present=False))


def _leaderboard(mode: str) -> dict[str, Any]:
    if mode not in (RatingMode.DUEL, RatingMode.TABLE, RatingMode.CORRESPONDENCE):
        raise ApiError(400, errors.BAD_REQUEST, "mode: duel, table or correspondence")
    board = leaderboard_get(mode=mode)

    def rows(items: list[Any]) -> list[dict[str, Any]]:
        return [{"rank": row.rank, "name": row.username,
                 "title": "BOT" if row.bot else None, "rating": row.rating,
                 "deviation": row.deviation, "games": row.games,
                 "provisional": row.provisional} for row in items]

    return {"mode": mode, "established": rows(board.established),
            "provisional": rows(board.provisional)}


@router.get("/leaderboard", response={200: LeaderboardOut, **REFUSALS},
            summary="The best players of a rating (mode: duel, table, correspondence)")
async def leaderboard(request: HttpRequest, mode: str = RatingMode.DUEL) -> dict[str, Any]:
    return await db_call(_leaderboard, mode)
