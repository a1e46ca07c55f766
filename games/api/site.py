"""The API's one django-ninja instance: its routers, its authentication, and the answer to
every refusal: `{"error": code, "detail": sentence}` with the status that says what went
wrong (400 bad input, 401 no valid token, 403 a missing scope or someone else's game, 404,
429 with `Retry-After`), never a server error for bad input."""

from __future__ import annotations

import logging
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from games.api import bot, errors, public
from games.api.auth import TokenAuth
from games.api.errors import ApiError
from games.matchmaking import errors as matchmaking_errors
from games.matchmaking.errors import MatchmakingError
from games.play import errors as play_errors
from games.play.errors import PlayError

logger = logging.getLogger(__name__)

api = NinjaAPI(
    title="Your Trumps API",
    version="1",
    description="The public read API and the Bot API of Your Trumps (docs/api.md).",
    auth=TokenAuth(),
    # The site's own page, /api/, shows the schema (no third-party scripts), and serves it
    # made once (`games.api.views`).
    docs_url=None,
    openapi_url=None,
    urls_namespace="api",
)
api.add_router("/", bot.router)
api.add_router("/", public.router)


def refusal(request: HttpRequest, status: int, code: str, detail: str,
            *, retry_after: int | None = None) -> HttpResponse:
    response = api.create_response(request, {"error": code, "detail": detail}, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


PLAY_STATUS = {play_errors.NOT_FOUND: 404, play_errors.NOT_A_PLAYER: 403,
               play_errors.STALE_PLY: 409, play_errors.NOT_YOUR_TURN: 409}
MATCHMAKING_STATUS = {matchmaking_errors.RATE_LIMITED: 429,
                      matchmaking_errors.NO_SUCH_PLAYER: 404,
                      matchmaking_errors.NOT_FOR_YOU: 403,
                      matchmaking_errors.GONE: 410, matchmaking_errors.EXPIRED: 410}


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, error: ApiError) -> HttpResponse:
    return refusal(request, error.status, error.code, error.detail,
                   retry_after=error.retry_after)


@api.exception_handler(PlayError)
def _play_error(request: HttpRequest, error: PlayError) -> HttpResponse:
    return refusal(request, PLAY_STATUS.get(error.code, 400), error.code, error.detail)


@api.exception_handler(MatchmakingError)
def _matchmaking_error(request: HttpRequest, error: MatchmakingError) -> HttpResponse:
    return refusal(request, MATCHMAKING_STATUS.get(error.code, 400), error.code, error.message)


@api.exception_handler(ValidationError)
def _validation_error(request: HttpRequest, error: ValidationError) -> HttpResponse:
    first: dict[str, Any] = error.errors[0] if error.errors else {}
    where = ".".join(str(part) for part in first.get("loc", ())[1:]) or "request"
    return refusal(request, 400, errors.BAD_REQUEST, f"{where}: {first.get('msg', 'invalid')}")


@api.exception_handler(AuthenticationError)
def _authentication_error(request: HttpRequest, error: AuthenticationError) -> HttpResponse:
    return refusal(request, 401, errors.UNAUTHORIZED, "this call needs a valid token")


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, error: Http404) -> HttpResponse:
    return refusal(request, 404, errors.NOT_FOUND, "there is no such thing")


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, error: HttpError) -> HttpResponse:
    return refusal(request, error.status_code, errors.BAD_REQUEST, str(error))


@api.exception_handler(Exception)
def _server_error(request: HttpRequest, error: Exception) -> HttpResponse:
    logger.error("API %s %s failed", request.method, request.path, exc_info=error)
    return refusal(request, 500, errors.SERVER_ERROR, "the server failed; try again")
