"""The language of a page: the player's saved choice, else the footer's cookie, else the browser.

A logged-in player who picks a language in the footer keeps it on every device; a visitor keeps
it in a cookie. `LocaleMiddleware` does the rest (Accept-Language, `Content-Language`, `Vary`).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

SUPPORTED = {code for code, _name in settings.LANGUAGES}


def saved_language(request: HttpRequest) -> str | None:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.language in SUPPORTED:
        return str(user.language)
    return None


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
    response = django_set_language(request)
    language = request.POST.get("language", "")
    user = request.user
    if language in SUPPORTED and user.is_authenticated and user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    return response
