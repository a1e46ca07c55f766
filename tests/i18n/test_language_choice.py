"""Which language a page is in: the player's saved choice, else the footer's cookie, else the
browser's Accept-Language; the footer's switch returns to the same page and, for a player,
saves the choice on the account. Dates, e-mails and error messages follow the language."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client

from accounts.models import User
from tests.support.users import account_create

pytestmark = pytest.mark.django_db

RULES_TITLE = {
    "en": "How to play Svoi Kozyri",
    "pl": "Jak grać w Svoi Kozyri",
    "ru": "Как играть в «Свои козыри»",
    "eu": "Nola jokatu Svoi Kozyri",
}


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page_language(client: Client, path: str = "/rules/", **headers: str) -> str:
    response = client.get(path, headers=headers)
    assert response.status_code == 200
    html = response.content.decode()
    lang = re.search(r'<html lang="([\w-]+)"', html)
    assert lang is not None
    assert response["Content-Language"] == lang.group(1)
    if path == "/rules/":
        assert f"<h1>{RULES_TITLE[lang.group(1)]}</h1>" in html
    return lang.group(1)


@pytest.mark.parametrize(
    ("accept_language", "expected"),
    [
        ("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"),
        ("pl-PL,pl;q=0.9", "pl"),
        ("eu-ES,eu;q=0.9,es;q=0.8", "eu"),
        ("de-DE,de;q=0.9,pl;q=0.5", "pl"),
        ("de-DE,de;q=0.9", "en"),
        ("", "en"),
    ],
)
def test_the_browser_preference_chooses_the_language(accept_language: str, expected: str) -> None:
    assert page_language(Client(), accept_language=accept_language) == expected


def test_the_footer_cookie_wins_over_the_browser() -> None:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "eu"
    assert page_language(client, accept_language="ru") == "eu"


def test_a_players_saved_language_wins_over_cookie_and_browser() -> None:
    client = logged_in(account_create(language="pl"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "eu"
    assert page_language(client, accept_language="ru") == "pl"


def test_a_player_who_never_chose_gets_the_browsers_language() -> None:
    client = logged_in(account_create(language=""))
    assert page_language(client, accept_language="ru") == "ru"


def test_a_saved_language_that_is_no_longer_offered_is_ignored() -> None:
    client = logged_in(account_create(language="de"))
    assert page_language(client, accept_language="eu") == "eu"


def test_switching_returns_to_the_same_page_and_keeps_the_choice() -> None:
    client = Client()
    response = client.post(
        "/i18n/setlang/", {"language": "ru", "next": "/rules/?from=footer"},
        headers={"accept-language": "en"},
    )
    assert response.status_code == 302
    assert response["Location"] == "/rules/?from=footer"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    assert page_language(client, accept_language="pl") == "ru"


def test_switching_saves_the_choice_on_the_account_for_every_device() -> None:
    user = account_create(language="")
    client = logged_in(user)
    response = client.post("/i18n/setlang/", {"language": "eu", "next": "/@/anna"})
    assert response["Location"] == "/@/anna"
    user.refresh_from_db()
    assert user.language == "eu"
    other_device = logged_in(user)
    assert page_language(other_device, accept_language="ru") == "eu"


def test_an_unknown_language_changes_nothing() -> None:
    user = account_create(language="pl")
    client = logged_in(user)
    response = client.post("/i18n/setlang/", {"language": "xx", "next": "/rules/"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.language == "pl"
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies


def test_switching_never_redirects_to_another_site() -> None:
    response = Client().post(
        "/i18n/setlang/", {"language": "pl", "next": "https://evil.example/"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_switching_needs_a_post() -> None:
    assert Client().get("/i18n/setlang/", {"language": "pl"}).status_code == 405


def footer(language: str, path: str = "/rules/") -> str:
    html = Client().get(path, headers={"accept-language": language}).content.decode()
    return html[html.index('class="language-switcher"'):html.index("</form>")]


def test_the_footer_offers_every_language_and_returns_to_the_page() -> None:
    switcher = footer("ru", "/rules/?a=1")
    assert '<input type="hidden" name="next" value="/rules/?a=1">' in switcher
    for code, _name in settings.LANGUAGES:
        assert f'<option value="{code}" lang="{code}"' in switcher
    assert '<option value="ru" lang="ru" selected>' in switcher
    assert "Сменить" in switcher  # the button for browsers without JavaScript


@pytest.mark.parametrize("language", ["pl", "ru", "eu"])
def test_the_footer_names_every_language_in_that_language(language: str) -> None:
    switcher = footer(language)
    for _code, name in settings.LANGUAGES:
        assert f">{name}</option>" in switcher


@pytest.mark.parametrize(
    ("language", "joined"),
    [
        ("en", "March 5, 2026"),
        ("pl", "5 marca 2026"),
        ("ru", "5 марта 2026 г."),  # noqa: RUF001 (Russian "year" abbreviation)
        ("eu", "2026ko mar. 5a"),
    ],
)
def test_dates_are_written_the_languages_way(language: str, joined: str) -> None:
    user = account_create()
    User.objects.filter(pk=user.pk).update(date_joined=datetime(2026, 3, 5, 12, tzinfo=UTC))
    html = Client().get("/@/anna", headers={"accept-language": language}).content.decode()
    assert re.search(r'data-testid="joined"><time [^>]*>' + re.escape(joined) + "</time>", html)


@pytest.mark.parametrize(
    ("saved", "asked_in", "subject", "greeting"),
    [
        # No language saved: the language of the page the link was asked for on.
        ("", "pl", "Twoje atuty: ustaw nowe hasło", "Witaj, anna,"),
        ("", "ru", "Свои козыри: задайте новый пароль", "Здравствуйте, anna!"),
        ("", "eu", "Zure tronfoak: ezarri pasahitz berria", "Kaixo, anna:"),
        # Whoever asks, on a page in whatever language: the owner reads their own language.
        ("ru", "pl", "Свои козыри: задайте новый пароль", "Здравствуйте, anna!"),
        ("eu", "ru", "Zure tronfoak: ezarri pasahitz berria", "Kaixo, anna:"),
        ("pl", "en", "Twoje atuty: ustaw nowe hasło", "Witaj, anna,"),
    ],
)
def test_the_password_reset_email_is_in_the_accounts_language(
    saved: str, asked_in: str, subject: str, greeting: str
) -> None:
    account_create(language=saved)
    response = Client().post(
        "/accounts/password-reset/", {"email": "anna@example.com"},
        headers={"accept-language": asked_in},
    )
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == subject
    assert mail.outbox[0].body.startswith(greeting)
    # The page that says the mail is on its way stays in the asker's language.
    assert Client().get(response["Location"], headers={"accept-language": asked_in})[
        "Content-Language"] == asked_in


def settings_select(client: Client, **headers: str) -> str:
    html = client.get("/accounts/settings/", headers=headers).content.decode()
    start = html.index('<select name="language"')
    return html[start:html.index("</select>", start)]


def test_the_settings_page_offers_every_language_by_its_own_name() -> None:
    client = logged_in(account_create(language="eu"))
    select = settings_select(client)
    assert 'data-testid="settings-language"' in select
    assert '<option value="">Nabigatzaileak nahiago duen hizkuntza</option>' in select
    for code, name in settings.LANGUAGES:
        selected = " selected" if code == "eu" else ""
        assert f'<option value="{code}"{selected} lang="{code}">{name}</option>' in select


def test_the_language_saved_in_the_settings_wins_on_every_device() -> None:
    user = account_create(language="")
    client = logged_in(user)
    response = client.post("/accounts/settings/language/", {"language": "ru"},
                           headers={"accept-language": "pl"})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/settings/"
    user.refresh_from_db()
    assert user.language == "ru"
    # This device keeps it after logging out (the cookie); the message is in the new language.
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    page = client.get("/accounts/settings/", headers={"accept-language": "pl"}).content.decode()
    assert '<html lang="ru"' in page
    assert "Язык сохранён." in page
    assert 'value="ru" selected' in settings_select(client)
    assert page_language(logged_in(user), accept_language="eu") == "ru"


def test_choosing_the_browsers_language_in_the_settings_forgets_the_choice() -> None:
    user = account_create(language="ru")
    client = logged_in(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    client.post("/accounts/settings/language/", {"language": ""},
                headers={"accept-language": "eu"})
    user.refresh_from_db()
    assert user.language == ""
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == ""  # deleted
    page = client.get("/accounts/settings/", headers={"accept-language": "eu"}).content.decode()
    assert "Zure hizkuntza gorde da." in page
    assert page_language(client, accept_language="pl") == "pl"


def test_a_language_the_site_does_not_offer_is_refused_at_the_field() -> None:
    user = account_create(language="pl")
    client = logged_in(user)
    response = client.post("/accounts/settings/language/", {"language": "de"})
    assert response.status_code == 400
    assert 'id="id_language_errors"' in response.content.decode()
    user.refresh_from_db()
    assert user.language == "pl"
    assert client.get("/accounts/settings/language/").status_code == 405


def test_the_footer_switch_shows_in_the_settings() -> None:
    client = logged_in(account_create(language="pl"))
    client.post("/i18n/setlang/", {"language": "eu", "next": "/accounts/settings/"})
    assert 'value="eu" selected' in settings_select(client)


def test_the_language_setting_needs_a_login() -> None:
    response = Client().post("/accounts/settings/language/", {"language": "pl"})
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize(
    ("language", "error"),
    [
        ("pl", "Nieprawidłowa nazwa użytkownika, e-mail lub hasło."),
        ("ru", "Неверное имя пользователя, адрес эл. почты или пароль."),
        ("eu", "Erabiltzaile-izena, helbide elektronikoa edo pasahitza okerra da."),
    ],
)
def test_form_errors_are_translated(language: str, error: str) -> None:
    account_create()
    response = Client().post(
        "/accounts/login/", {"username": "anna", "password": "wrong-password"},
        headers={"accept-language": language},
    )
    assert error in response.content.decode()


def test_a_missing_page_says_so_in_the_players_language() -> None:
    response = Client().get("/@/nobody-here", headers={"accept-language": "ru"})
    assert response.status_code == 404
    assert response["Content-Language"] == "ru"


def scope(user: object = None, cookie: str = "", accept_language: str = "") -> dict[str, object]:
    headers = [(b"cookie", cookie.encode()), (b"accept-language", accept_language.encode())]
    return {"type": "websocket", "user": user, "headers": headers}


@pytest.mark.parametrize(
    ("saved", "cookie", "accept_language", "expected"),
    [
        ("pl", "django_language=eu", "ru", "pl"),
        ("", "django_language=eu; sessionid=x", "ru", "eu"),
        ("", "django_language=xx", "ru-RU,ru;q=0.9", "ru"),
        ("", "", "de-DE,de;q=0.9,eu;q=0.4", "eu"),
        ("de", "", "*", "en"),
        ("", "", "", "en"),
    ],
)
def test_a_websocket_gets_the_language_a_page_would(
    saved: str, cookie: str, accept_language: str, expected: str
) -> None:
    from accounts.languages import language_for_scope

    user = account_create(language=saved)
    assert language_for_scope(scope(user, cookie, accept_language)) == expected


def test_a_guests_websocket_uses_cookie_or_browser() -> None:
    from django.contrib.auth.models import AnonymousUser

    from accounts.languages import language_for_scope

    assert language_for_scope(scope(AnonymousUser(), "", "pl")) == "pl"
    assert language_for_scope(scope(None, "django_language=ru", "pl")) == "ru"
    assert language_for_scope({"type": "websocket"}) == "en"
