"""The Bot API (the shape of lichess's): a bot account's event stream, its challenges, and
its games — the stream of each and the acts in it. Every act goes through the services the
board's socket calls (`games.play.services`, the one door of moves with its ply check;
`games.matchmaking.services` for challenges)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, StreamingHttpResponse
from ninja import Form, Query, Router, Schema
from pydantic import Field

from accounts.models import TokenScope, User
from games.api import errors, selectors
from games.api.auth import caller_of, require
from games.api.errors import ApiError
from games.api.event_stream import event_lines
from games.api.game_stream import game_lines
from games.api.schemas import (
    AcceptOut,
    AccountOut,
    ChallengeCreateIn,
    ChallengeOut,
    ErrorOut,
    MoveOut,
    OkOut,
)
from games.api.services import bot_account_upgrade, bot_challenge_create
from games.api.streams import NDJSON, ndjson_response
from games.matchmaking import services as matchmaking
from games.play import selectors as play_selectors
from games.play import services
from games.play.services import Change
from infra.db_threads import db_call
from infra.socket_fields import MoveText, Token, Username

router = Router(tags=["bot"])

REFUSALS: dict[int | str, type] = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut,
                                   404: ErrorOut, 429: ErrorOut}
STREAM_DOC = {"responses": {"200": {"description": "NDJSON: one JSON object a line, empty "
                                                   "lines to keep the stream open",
                                    "content": {NDJSON: {"schema": {"type": "object"}}}}}}


def _bot(request: HttpRequest) -> User:
    """The caller, a bot account with a token that may play."""
    token = require(request, TokenScope.BOT)
    if not token.user.is_bot:
        raise ApiError(403, errors.NOT_A_BOT,
                       "this account is not a bot account: upgrade it first "
                       "(POST /api/bot/account/upgrade)")
    return token.user


def _seat_in(match_id: int, user_id: int) -> int:
    match = play_selectors.match_get(match_id=match_id)
    if match is None:
        raise ApiError(404, errors.NOT_FOUND, f"there is no game {match_id}")
    seat = play_selectors.seat_of(seats=play_selectors.match_seats(match=match),
                                  viewer=play_selectors.Viewer(user_id=user_id))
    if seat is None:
        raise ApiError(403, "not_a_player", "you do not play in this game")
    return seat


@router.get("/account", response={200: AccountOut, **REFUSALS}, tags=["account"],
            summary="The token's account")
async def account(request: HttpRequest) -> dict[str, Any]:
    token = caller_of(request).token
    if token is None:
        raise ApiError(401, errors.UNAUTHORIZED, "this call needs a token")
    return {"name": token.user.username, "title": "BOT" if token.user.is_bot else None,
            "bot_challenges": token.user.bot_challenges, "scopes": token.scope_list}


@router.post("/bot/account/upgrade", response={200: OkOut, **REFUSALS},
             summary="Make this fresh account a bot account, for good")
async def upgrade(request: HttpRequest) -> dict[str, Any]:
    token = require(request, TokenScope.BOT)
    await db_call(bot_account_upgrade, user=token.user)
    return {"ok": True}


@router.get("/stream/event", response={**REFUSALS}, openapi_extra=STREAM_DOC,
            summary="Your events: challenges, games starting and finishing (NDJSON)")
async def event_stream(request: HttpRequest) -> StreamingHttpResponse:
    token = caller_of(request).token
    if token is None:
        raise ApiError(401, errors.UNAUTHORIZED, "this call needs a token")
    if not {TokenScope.BOT, TokenScope.CHALLENGE} & set(token.scope_list):
        raise ApiError(403, errors.MISSING_SCOPE,
                       f"this token lacks the scope {TokenScope.BOT} or {TokenScope.CHALLENGE}")
    return ndjson_response(event_lines(user_id=token.user.pk))


@router.post("/challenge/{username}", response={200: ChallengeOut, **REFUSALS},
             tags=["challenges"], summary="Challenge a player or a bot")
async def challenge_create(request: HttpRequest, username: Username,
                           data: Form[ChallengeCreateIn]) -> dict[str, Any]:
    token = require(request, TokenScope.CHALLENGE)

    def create() -> dict[str, Any]:
        challenge = bot_challenge_create(challenger=token.user, username=username,
                                         time_control=data.time_control, rated=data.rated)
        found = selectors.challenge_get(token=challenge.token)
        assert found is not None
        return selectors.challenge_view(found)

    return await db_call(create)


@router.post("/challenge/{challenge_id}/accept", response={200: AcceptOut, **REFUSALS},
             tags=["challenges"], summary="Accept a challenge: the game starts")
async def challenge_accept(request: HttpRequest, challenge_id: Token) -> dict[str, Any]:
    token = require(request, TokenScope.CHALLENGE)
    match = await db_call(matchmaking.challenge_accept, user=token.user, token=challenge_id)
    return {"ok": True, "game_id": match.pk}


@router.post("/challenge/{challenge_id}/decline", response={200: OkOut, **REFUSALS},
             tags=["challenges"], summary="Decline a challenge (yours: cancel it)")
async def challenge_decline(request: HttpRequest, challenge_id: Token) -> dict[str, Any]:
    token = require(request, TokenScope.CHALLENGE)
    await db_call(matchmaking.challenge_decline, user=token.user, token=challenge_id)
    return {"ok": True}


@router.get("/bot/game/stream/{int:game_id}", response={**REFUSALS}, openapi_extra=STREAM_DOC,
            summary="Your game: its full state, then each change (NDJSON)")
async def game_stream(request: HttpRequest, game_id: int) -> StreamingHttpResponse:
    user = _bot(request)
    seat = await db_call(_seat_in, game_id, user.pk)
    return ndjson_response(game_lines(match_id=game_id, seat=seat))


class MoveQuery(Schema):
    ply: int = Field(ge=0, le=100_000, description="the moves played so far, as in the state")


async def _act(request: HttpRequest, game_id: int, act: Any, **arguments: Any) -> Change:
    user = _bot(request)

    def run() -> Change:
        seat = _seat_in(game_id, user.pk)
        return act(match_id=game_id, seat=seat, **arguments)

    return await db_call(run)


def _done(change: Change) -> dict[str, Any]:
    return {"ok": True, "version": change.match.version, "ply": change.match.ply}


@router.post("/bot/game/{int:game_id}/move/{move}", response={200: MoveOut, **REFUSALS},
             summary="Play a move at the ply you saw")
async def move(request: HttpRequest, game_id: int, move: MoveText,
               query: Query[MoveQuery]) -> dict[str, Any]:
    change = await _act(request, game_id, services.move_apply, move=move,
                        expected_ply=query.ply)
    return _done(change)


@router.post("/bot/game/{int:game_id}/trump/{suit}", response={200: MoveOut, **REFUSALS},
             summary="Choose your trump suit (C, D, H or S) when it is your turn to")
async def trump(request: HttpRequest, game_id: int, suit: str) -> dict[str, Any]:
    if suit not in ("C", "D", "H", "S"):
        raise ApiError(400, errors.BAD_REQUEST, "the suit is one of C, D, H, S")
    return _done(await _act(request, game_id, services.match_choose_trump, suit=suit))


@router.post("/bot/game/{int:game_id}/resign", response={200: MoveOut, **REFUSALS},
             summary="Resign")
async def resign(request: HttpRequest, game_id: int) -> dict[str, Any]:
    return _done(await _act(request, game_id, services.match_resign))


@router.post("/bot/game/{int:game_id}/abort", response={200: MoveOut, **REFUSALS},
             summary="Abort a game that has barely begun")
async def abort(request: HttpRequest, game_id: int) -> dict[str, Any]:
    return _done(await _act(request, game_id, services.match_abort))


@router.post("/bot/game/{int:game_id}/draw/{answer}", response={200: MoveOut, **REFUSALS},
             summary="yes: offer a draw, or accept the one offered; no: decline it")
async def draw(request: HttpRequest, game_id: int, answer: str) -> dict[str, Any]:
    if answer not in ("yes", "no"):
        raise ApiError(400, errors.BAD_REQUEST, "the answer is yes or no")
    user = _bot(request)

    def run() -> Change:
        seat = _seat_in(game_id, user.pk)
        if answer == "no":
            return services.match_draw_decline(match_id=game_id, seat=seat)
        match = play_selectors.match_get(match_id=game_id)
        assert match is not None
        if match.draw_offer_seat is not None and match.draw_offer_seat != seat:
            return services.match_draw_accept(match_id=game_id, seat=seat)
        return services.match_draw_offer(match_id=game_id, seat=seat)

    return _done(await db_call(run))
