"""The 404 and 500 pages are the site's own, in its layout and the visitor's language (with
`DEBUG` off, as in production and in the tests)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import include, path

pytestmark = pytest.mark.django_db


def broken_view(request):  # type: ignore[no-untyped-def]
    raise RuntimeError("a view that fails, for the 500 page")


urlpatterns = [path("broken/", broken_view), path("", include("yourtrumps_site.urls"))]


@pytest.mark.parametrize(("language", "words"), [
    ("en", "Page not found"), ("pl", "Nie ma takiej strony"), ("ru", "Страница не найдена"),
    ("eu", "Ez da orria aurkitu")])
def test_a_missing_page_is_the_sites_own_in_the_visitors_language(language, words):
    response = Client(headers={"accept-language": language}).get("/no-such-page/")
    page = response.content.decode()
    assert response.status_code == 404
    assert f'<html lang="{language}">' in page
    assert 'class="site-header"' in page
    assert 'data-testid="error-404"' in page
    assert f"<h1>{words}</h1>" in page


@pytest.mark.urls(__name__)
@pytest.mark.parametrize(("language", "words"), [
    ("en", "Something went wrong"), ("pl", "Coś poszło nie tak"), ("ru", "Что-то пошло не так"),
    ("eu", "Zerbait gaizki joan da")])
def test_a_server_error_is_the_sites_own_page_in_the_visitors_language(language, words):
    client = Client(raise_request_exception=False, headers={"accept-language": language})
    response = client.get("/broken/")
    page = response.content.decode()
    assert response.status_code == 500
    assert f'<html lang="{language}">' in page
    assert 'class="site-header"' in page
    assert 'data-testid="error-500"' in page
    assert f"<h1>{words}</h1>" in page
