"""The `/api/` page: what the API offers, read from its OpenAPI schema, and a worked example
(the schema itself is at `/api/openapi.json`)."""

from __future__ import annotations

import functools
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from games.api.selectors import bots_online
from games.api.site import api

METHODS = ("get", "post")


@functools.cache
def openapi_schema() -> dict[str, Any]:
    """The schema, made once per process: it follows from the code alone."""
    return dict(api.get_openapi_schema(path_prefix="/api"))


def _operations() -> list[dict[str, Any]]:
    schema = openapi_schema()
    rows = []
    for path, item in schema["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            rows.append({"method": method.upper(), "path": path,
                         "summary": operation.get("summary", ""),
                         "tag": (operation.get("tags") or [""])[0]})
    return rows


def curl_example(origin: str) -> str:
    """A bot's first steps, as a shell session (the token stands for one made in the
    settings)."""
    return "\n".join([
        "TOKEN=yt_...  # settings → API tokens: scopes bot:play and challenge:write",
        f"curl -X POST -H \"Authorization: Bearer $TOKEN\" {origin}/api/bot/account/upgrade",
        f"curl -N -H \"Authorization: Bearer $TOKEN\" {origin}/api/stream/event",
        "# {\"type\":\"challenge\",\"challenge\":{\"id\":\"Xk3...\",...}}",
        f"curl -X POST -H \"Authorization: Bearer $TOKEN\" "
        f"{origin}/api/challenge/Xk3.../accept",
        "# {\"ok\":true,\"game_id\":42}",
        f"curl -N -H \"Authorization: Bearer $TOKEN\" {origin}/api/bot/game/stream/42",
        "# {\"type\":\"gameFull\",\"ply\":0,\"you\":1,\"legal_moves\":[\"9H\",...],...}",
        f"curl -X POST -H \"Authorization: Bearer $TOKEN\" "
        f"\"{origin}/api/bot/game/42/move/9H?ply=0\"",
        "# {\"ok\":true,\"version\":5,\"ply\":1}",
        f"curl {origin}/api/user/anna",
        f"curl \"{origin}/api/games/user/anna?result=win&max=10\"",
    ])


@require_GET
def bots(request: HttpRequest) -> HttpResponse:
    """The bots online (their event stream open), with their duel ratings."""
    return render(request, "api/bots.html", {"bots": bots_online(),
                                             "docs_url": reverse("api_docs")})


@require_GET
def openapi_json(request: HttpRequest) -> JsonResponse:
    return JsonResponse(openapi_schema())


@require_GET
def api_docs(request: HttpRequest) -> HttpResponse:
    origin = request.build_absolute_uri("/").rstrip("/")
    return render(request, "api/docs.html", {
        "operations": _operations(),
        "schema_url": reverse("api_openapi"),
        "example": curl_example(origin),
        "settings_url": reverse("accounts:api_tokens"),
    })
