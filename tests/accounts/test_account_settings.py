"""Settings (email, password), deletion, password reset, and staff deactivation."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.admin.sites import site
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import PlayerRating, User
from accounts.services import user_deactivate
from games.play.models import Match, Seat, Status
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db

SETTINGS = reverse("accounts:settings")
DELETE = reverse("accounts:delete")
LOGIN = reverse("accounts:login")


def test_settings_need_a_login(client: Client) -> None:
    for url in (SETTINGS, DELETE, reverse("accounts:password_change")):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(LOGIN)


def test_change_email(client: Client, make_user: Callable[..., User]) -> None:
    anna = make_user("anna")
    client.force_login(anna)
    response = client.post(SETTINGS, {"email": "new@example.com", "current_password": PASSWORD})
    assert response.status_code == 302
    anna.refresh_from_db()
    assert anna.email == "new@example.com"


def test_change_email_needs_the_password(client: Client, make_user: Callable[..., User]) -> None:
    anna = make_user("anna")
    client.force_login(anna)
    response = client.post(SETTINGS, {"email": "new@example.com", "current_password": "nope"})
    assert response.context["email_form"].errors == {
        "current_password": ["That is not your password."]
    }
    anna.refresh_from_db()
    assert anna.email == "anna@example.com"


def test_change_email_to_a_taken_one_is_refused(
    client: Client, make_user: Callable[..., User]
) -> None:
    anna = make_user("anna")
    make_user("boris", email="boris@example.com")
    client.force_login(anna)
    response = client.post(SETTINGS, {"email": "Boris@Example.com", "current_password": PASSWORD})
    assert response.context["email_form"].errors == {
        "email": ["A user with that email address already exists."]
    }
    assert 'id="id_email_errors"' in response.content.decode()
    anna.refresh_from_db()
    assert anna.email == "anna@example.com"


def test_change_password_keeps_the_session(
    client: Client, make_user: Callable[..., User]
) -> None:
    anna = make_user("anna")
    client.force_login(anna)
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": PASSWORD, "new_password1": "another horse 88",
         "new_password2": "another horse 88"},
    )
    assert response.status_code == 302
    anna.refresh_from_db()
    assert anna.check_password("another horse 88")
    assert client.get(SETTINGS).status_code == 200


def test_change_password_refuses_a_short_one(
    client: Client, make_user: Callable[..., User]
) -> None:
    client.force_login(make_user("anna"))
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": PASSWORD, "new_password1": "x1", "new_password2": "x1"},
    )
    errors = response.context["form"].errors
    assert "This password is too short" in str(errors["new_password1"])
    assert "new_password2" not in errors
    assert 'id="id_new_password1_errors"' in response.content.decode()


def test_delete_needs_the_password(client: Client, make_user: Callable[..., User]) -> None:
    anna = make_user("anna")
    client.force_login(anna)
    response = client.post(DELETE, {"current_password": "wrong"})
    assert response.context["form"].errors == {"current_password": ["That is not your password."]}
    assert User.objects.filter(pk=anna.pk).exists()


def test_delete_keeps_the_games_for_the_opponent(
    client: Client, make_user: Callable[..., User], game: Callable[..., Match]
) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    match = game(boris, anna, "win", rated=True, rating_before=1500, rating_after=1600)
    client.force_login(anna)
    response = client.post(DELETE, {"current_password": PASSWORD})
    assert response.status_code == 302
    assert not User.objects.filter(pk=anna.pk).exists()
    assert not PlayerRating.objects.filter(user_id=anna.pk).exists()
    assert "_auth_user_id" not in client.session
    seats = {seat.index: seat for seat in Seat.objects.filter(match=match)}
    assert seats[0].user == boris
    assert seats[1].user is None
    assert seats[1].display_name == "deleted user"
    page = client.get("/@/boris").content.decode()
    assert "deleted user" in page
    # The name is free again.
    assert client.get("/@/anna").status_code == 404


def test_delete_is_refused_during_a_game(
    client: Client, make_user: Callable[..., User], game: Callable[..., Match]
) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    game(anna, boris, "", status=Status.PLAYING)
    client.force_login(anna)
    response = client.post(DELETE, {"current_password": PASSWORD})
    assert "Finish or resign it first" in str(response.context["form"].errors)
    assert User.objects.filter(pk=anna.pk).exists()


def test_password_reset_by_email(client: Client, make_user: Callable[..., User]) -> None:
    anna = make_user("anna")
    response = client.post(reverse("accounts:password_reset"), {"email": "ANNA@example.com"})
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["anna@example.com"]
    assert message.subject == "Your Trumps: set a new password"
    link = re.search(r"https?://[^/\s]+(/accounts/password-reset/\S+/\S+/)", message.body)
    assert link
    response = client.get(link.group(1))  # redirects to the token-less "set-password" URL
    assert response.status_code == 302
    form_url = response["Location"]
    response = client.post(
        form_url, {"new_password1": "brand new horse 9", "new_password2": "brand new horse 9"}
    )
    assert response["Location"] == reverse("accounts:password_reset_complete")
    anna.refresh_from_db()
    assert anna.check_password("brand new horse 9")
    # The link works once only.
    assert "reset-link-invalid" in client.get(link.group(1), follow=True).content.decode()


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(
    client: Client,
) -> None:
    response = client.post(reverse("accounts:password_reset"), {"email": "who@example.com"})
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert mail.outbox == []


def test_a_deactivated_user_cannot_log_in_and_is_told_why(
    client: Client, make_user: Callable[..., User]
) -> None:
    anna = make_user("anna")
    user_deactivate(users=User.objects.filter(pk=anna.pk))
    response = client.post(LOGIN, {"username": "anna", "password": PASSWORD})
    assert response.status_code == 200
    assert response.context["form"].errors["password"] == ["This account has been closed."]
    assert "_auth_user_id" not in client.session
    # Without the right password nothing about the account is revealed.
    response = client.post(LOGIN, {"username": "anna", "password": "guess guess 1"})
    assert response.context["form"].errors["password"] == ["Wrong username, email or password."]


def test_an_open_session_stops_working_once_deactivated(
    client: Client, make_user: Callable[..., User]
) -> None:
    anna = make_user("anna")
    client.force_login(anna)
    assert client.get(SETTINGS).status_code == 200
    user_deactivate(users=User.objects.filter(pk=anna.pk))
    response = client.get(SETTINGS)
    assert response.status_code == 302
    assert response["Location"].startswith(LOGIN)
    assert 'data-testid="signed-in-as"' not in client.get("/").content.decode()


def test_the_admin_action_deactivates(admin_client: Client, make_user: Callable[..., User]) -> None:
    anna, boris = make_user("anna"), make_user("boris")
    response = admin_client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "deactivate", "_selected_action": [anna.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert "1 account deactivated" in response.content.decode()
    anna.refresh_from_db()
    boris.refresh_from_db()
    assert not anna.is_active
    assert boris.is_active
    assert site.is_registered(PlayerRating)


@pytest.mark.django_db(transaction=True)
async def test_a_deactivated_users_websocket_session_is_anonymous(
    make_user: Callable[..., User],
) -> None:
    """Game sockets authenticate with the same session: once deactivated, nobody plays."""
    from asgiref.sync import sync_to_async
    from channels.auth import get_user
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import connections

    try:
        anna = await sync_to_async(make_user)("anna")
        session = SessionStore()
        session[SESSION_KEY] = str(anna.pk)
        session[BACKEND_SESSION_KEY] = "accounts.backends.UsernameOrEmailBackend"
        session[HASH_SESSION_KEY] = anna.get_session_auth_hash()
        await sync_to_async(session.save)()
        assert (await get_user({"session": session})).pk == anna.pk
        await sync_to_async(user_deactivate)(users=User.objects.filter(pk=anna.pk))
        assert not (await get_user({"session": SessionStore(session.session_key)})).is_authenticated
    finally:
        await sync_to_async(connections.close_all)()


def test_the_sound_volume_is_kept_for_the_account(client: Client,
                                                   make_user: Callable[..., User]) -> None:
    user = make_user()
    client.force_login(user)
    url = reverse("accounts:sound")

    from_a_page = client.post(url, {"volume": "30"}, HTTP_ACCEPT="application/json")
    refused = client.post(url, {"volume": "101"}, HTTP_ACCEPT="application/json")
    not_a_number = client.post(url, {"volume": "loud"})
    from_settings = client.post(url, {"volume": "0"})

    assert from_a_page.json() == {"volume": 30}
    assert refused.status_code == 400
    assert "volume" in refused.json()["errors"]
    assert not_a_number.status_code == 400  # the settings page again, with the error
    assert from_settings.status_code == 302
    user.refresh_from_db()
    assert user.sound_volume == 0
    assert 'name="sound-volume" content="0"' in client.get(SETTINGS).content.decode()


def test_a_guest_keeps_the_volume_in_the_browser_only(client: Client) -> None:
    response = client.post(reverse("accounts:sound"), {"volume": "30"})

    assert response.status_code == 302
    assert response["Location"].startswith(LOGIN)
    assert 'name="sound-volume"' not in client.get("/").content.decode()
