"""The language a person is addressed in, on a page or a socket: the player's saved choice,
else the footer's cookie, else the browser.

A logged-in player who picks a language in the footer keeps it on every device (the view
`accounts.views.set_language`); a visitor keeps it in a cookie. `LocaleMiddleware` does the
rest (Accept-Language, `Content-Language`, `Vary`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.cookie import parse_cookie
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

SUPPORTED = {code for code, _name in settings.LANGUAGES}


def user_language(user: object) -> str | None:
    """The language a player saved in their account, if the site still offers it."""
    if getattr(user, "is_authenticated", False) and getattr(user, "language", "") in SUPPORTED:
        return str(user.language)  # type: ignore[attr-defined]
    return None


def saved_language(request: HttpRequest) -> str | None:
    return user_language(getattr(request, "user", None))


def supported(code: str | None) -> str | None:
    """The site's language for a code such as "ru" or "pl-PL", or None if it offers none."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def language_for_scope(scope: Mapping[str, Any]) -> str:
    """The language of a WebSocket connection, chosen as for a page: the player's saved
    language, else the footer's cookie, else the browser's Accept-Language, else English.

    Consumers use it for the words they send (`translation.override(language_for_scope(...))`).
    Call it where `scope["user"]` may be read (sync code, or once the user is loaded)."""
    saved = user_language(scope.get("user"))
    if saved:
        return saved
    headers = {
        bytes(name).decode("latin-1").lower(): bytes(value).decode("latin-1")
        for name, value in scope.get("headers", [])
    }
    from_cookie = supported(parse_cookie(headers.get("cookie", "")).get(
        settings.LANGUAGE_COOKIE_NAME
    ))
    if from_cookie:
        return from_cookie
    return browser_language(headers.get("accept-language"))


def browser_language(accept_language: str | None) -> str:
    """The language the browser prefers (its Accept-Language header) of those the site
    offers, else the site's default."""
    for code, _quality in parse_accept_lang_header(accept_language or ""):
        if code == "*":
            break
        from_browser = supported(code)
        if from_browser:
            return from_browser
    return str(settings.LANGUAGE_CODE)


def remember_language(response: HttpResponse, language: str) -> None:
    """Set the footer's cookie to `language` (as `set_language` does), or remove it for ""
    (the browser's preference then chooses)."""
    if not language:
        response.delete_cookie(
            settings.LANGUAGE_COOKIE_NAME, path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN, samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
        return
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class UserLocaleMiddleware(LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        language = saved_language(request)
        if language is None:
            super().process_request(request)
            return
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
