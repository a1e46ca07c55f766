"""The language of a page: the player's saved choice, else the footer's cookie, else the browser.

A logged-in player who picks a language in the footer keeps it on every device; a visitor keeps
it in a cookie. `LocaleMiddleware` does the rest (Accept-Language, `Content-Language`, `Vary`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.cookie import parse_cookie
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts.services import user_language_change

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


# A count of each plural category (as `Intl.PluralRules` names them) that the site's languages
# have: English and Basque "one" and "other", Polish and Russian also "few" and "many".
# A language with "zero" or "two" (Arabic, Welsh) would need samples of its own.
PLURAL_SAMPLES = {"one": 1, "few": 2, "many": 5, "other": 5}


def plural_labels(label: Callable[[int], str]) -> dict[str, str]:
    """A count's label for a script, in each plural form of the page's language, by category:
    the script picks `labels[new Intl.PluralRules(document.documentElement.lang).select(n)]`.
    `label(n)` calls `ngettext` (so that makemessages finds the strings)."""
    return {category: label(n) for category, n in PLURAL_SAMPLES.items()}


def languages_by_own_name(request: HttpRequest) -> dict[str, object]:
    """Template context: `settings.LANGUAGES` as written there, each in its own language.

    Not `{% get_available_languages %}`, which runs the names through the page's catalogue
    (and Django's own name for Basque is the English one)."""
    return {"LANGUAGES_BY_OWN_NAME": settings.LANGUAGES}


class UserLocaleMiddleware(LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        language = saved_language(request)
        if language is None:
            super().process_request(request)
            return
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's `set_language` (it checks the `next` URL), also saved in the player's account."""
    from accounts.forms import LanguageForm

    response = django_set_language(request)
    form = LanguageForm(request.POST)
    language = form.cleaned_data["language"] if form.is_valid() else ""
    if language and request.user.is_authenticated:
        user_language_change(user=request.user, language=language)  # type: ignore[arg-type]
    return response
