"""CSRF: every form that posts carries the token, no view is exempt, and a POST without the
token is refused by every URL of the site (the URLconf walked, not a hand-kept list).

The one exception is the API (`/api/...`, `games.api`): it authenticates by a bearer token
alone and never by the session's cookie, which is what CSRF forges, so its views are exempt;
a POST that carries only the cookie is refused there too (401)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

ROOT = Path(settings.BASE_DIR)
FORM = re.compile(r"<form\b(?P<attrs>[^>]*)>(?P<body>.*?)</form>", re.S | re.I)
SAMPLE = {"int": "1", "str": "x", "slug": "x", "uuid": "00000000-0000-0000-0000-000000000000",
          "path": "x", "id": "1", "username": "someone", "token": "x"}


def template_files() -> list[Path]:
    folders = [ROOT / "templates", *ROOT.glob("*/templates")]
    return sorted(p for folder in folders for p in folder.rglob("*.html"))


def test_every_form_that_posts_carries_the_csrf_token():
    posting = []
    for path in template_files():
        for form in FORM.finditer(path.read_text()):
            method = re.search(r"method\s*=\s*[\"']?(\w+)", form["attrs"], re.I)
            if method and method[1].lower() != "get":
                posting.append(path.relative_to(ROOT))
                assert "{% csrf_token %}" in form["body"], f"{path}: a form without the token"
    assert len(posting) >= 5  # the walk found the site's forms (log-in, sign-up, ...)


def test_scripts_that_post_send_the_csrf_header():
    for path in sorted((ROOT / "static").rglob("*.js")):
        text = path.read_text()
        if re.search(r"method\s*:\s*[\"'](POST|PUT|PATCH|DELETE)", text, re.I):
            assert "X-CSRFToken" in text, f"{path}: posts without the CSRF header"


def walk(patterns, prefix: str = ""):
    """Every URL of the URLconf with sample values for its parameters, and its view."""
    for entry in patterns:
        route = str(entry.pattern)
        if hasattr(entry.pattern, "converters"):
            for name, converter in entry.pattern.converters.items():
                kind = type(converter).__name__.replace("Converter", "").lower()
                route = re.sub(rf"<(\w+:)?{name}>", SAMPLE.get(kind, "x"), route)
        route = route.lstrip("^").rstrip("$").replace("\\Z", "").replace("\\", "")
        if isinstance(entry, URLResolver):
            yield from walk(entry.url_patterns, prefix + route)
        elif isinstance(entry, URLPattern):
            yield "/" + prefix + route, entry.callback


API = "/api/"
ALL_URLS = [(url, view) for url, view in walk(get_resolver().url_patterns)
            if "(?P" not in url and "(" not in url]
URLS = [(url, view) for url, view in ALL_URLS if not url.startswith(API)]
API_URLS = [(url, view) for url, view in ALL_URLS if url.startswith(API) and url != API]


def test_the_walk_covers_the_site():
    urls = {url for url, _view in URLS}
    assert {"/", "/accounts/login/", "/accounts/signup/", "/accounts/logout/"} <= urls
    assert {"/api/bot/game/1/move/x", "/api/challenge/x/accept"} <= {u for u, _v in API_URLS}


@pytest.mark.parametrize(("url", "view"), URLS, ids=[u for u, _ in URLS])
def test_no_view_is_csrf_exempt(url, view):
    assert not getattr(view, "csrf_exempt", False), f"{url} is exempt from CSRF"


@pytest.mark.django_db
@pytest.mark.parametrize("signed_in", [False, True])
def test_a_post_without_the_token_is_refused_everywhere(signed_in, django_user_model):
    client = Client(enforce_csrf_checks=True)
    if signed_in:
        client.force_login(django_user_model.objects.create_user("csrf-victim", password="x"))
    for url, _view in URLS:
        response = client.post(url, {"email": "a@b.example", "password": "x"})
        assert response.status_code == 403, f"POST {url} without a token: {response.status_code}"


@pytest.mark.django_db
def test_the_api_takes_no_session_for_a_token(django_user_model):
    """The API's views are exempt, and a signed-in browser's cookie alone acts for nobody."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(django_user_model.objects.create_user("csrf-victim", password="x"))
    for url, _view in API_URLS:
        response = client.post(url, {"time_control": "3+2"})
        assert response.status_code in (400, 401, 403, 405), f"POST {url} with a cookie only"
