"""Sign-up, log-in and log-out through the real views, and the bad inputs of each."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import PlayerRating, User
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db

SIGNUP = reverse("accounts:signup")
LOGIN = reverse("accounts:login")


def signup(client: Client, **fields: str):  # type: ignore[no-untyped-def]
    data = {"username": "anna", "email": "anna@example.com", "password": PASSWORD, **fields}
    return client.post(SIGNUP, data)


def field_errors(response, field: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The errors shown next to one field (and assert they are rendered beside it)."""
    errors = response.context["form"].errors.get(field, [])
    if errors:
        assert f'id="id_{field}_errors"' in response.content.decode()
    return list(errors)


def test_signup_logs_in_and_lands_on_the_profile(client: Client) -> None:
    response = signup(client)
    assert response.status_code == 302
    assert response["Location"] == "/@/anna"
    user = User.objects.get(username="anna")
    assert user.check_password(PASSWORD)
    assert PlayerRating.objects.filter(user=user).exists()
    page = client.get("/@/anna").content.decode()
    assert 'data-testid="signed-in-as"' in page
    assert 'href="/@/anna"' in page


@pytest.mark.parametrize("taken", ["ANNA", "Anna", "anna"])
def test_a_username_taken_in_another_case_is_refused(
    client: Client, make_user: Callable[..., User], taken: str
) -> None:
    make_user("anna")
    response = signup(client, username=taken, email="other@example.com")
    assert response.status_code == 200
    assert field_errors(response, "username") == ["A user with that username already exists."]
    assert User.objects.count() == 1


@pytest.mark.parametrize("name", ["admin", "Admin", "deleted", "BOT", "support"])
def test_a_reserved_username_is_refused(client: Client, name: str) -> None:
    response = signup(client, username=name)
    assert field_errors(response, "username") == ["This username is reserved."]
    assert not User.objects.exists()


@pytest.mark.parametrize("name", ["ab", "a" * 21, "anna smith", "anna!", "анна", "an.na"])
def test_a_malformed_username_is_refused(client: Client, name: str) -> None:
    response = signup(client, username=name)
    assert field_errors(response, "username")
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("short7", "This password is too short"),
        ("password", "This password is too common"),
        ("84736251940", "This password is entirely numeric"),
        ("anna@example", "The password is too similar"),
    ],
)
def test_a_weak_password_is_refused(client: Client, password: str, message: str) -> None:
    response = signup(client, password=password)
    errors = field_errors(response, "password")
    assert any(message in error for error in errors), errors
    assert field_errors(response, "username") == []
    assert not User.objects.exists()


def test_a_duplicate_email_is_refused_ignoring_case(
    client: Client, make_user: Callable[..., User]
) -> None:
    make_user("anna", email="anna@example.com")
    response = signup(client, username="boris", email="ANNA@Example.com")
    assert field_errors(response, "email") == ["A user with that email address already exists."]
    assert User.objects.count() == 1


def test_a_missing_email_is_refused(client: Client) -> None:
    response = signup(client, email="")
    assert field_errors(response, "email") == ["This field is required."]


def test_signup_without_csrf_token_is_forbidden() -> None:
    client = Client(enforce_csrf_checks=True)
    response = signup(client)
    assert response.status_code == 403
    assert not User.objects.exists()


def test_login_without_csrf_token_is_forbidden(make_user: Callable[..., User]) -> None:
    make_user("anna")
    client = Client(enforce_csrf_checks=True)
    response = client.post(LOGIN, {"username": "anna", "password": PASSWORD})
    assert response.status_code == 403
    assert "_auth_user_id" not in client.session


def test_signup_with_csrf_token_works() -> None:
    client = Client(enforce_csrf_checks=True)
    client.get(SIGNUP)
    token = client.cookies["csrftoken"].value
    response = client.post(
        SIGNUP,
        {"username": "anna", "email": "anna@example.com", "password": PASSWORD,
         "csrfmiddlewaretoken": token},
    )
    assert response.status_code == 302


@pytest.mark.parametrize("name", ["anna", "ANNA", "anna@example.com", "Anna@EXAMPLE.com"])
def test_login_by_username_or_email_ignoring_case(
    client: Client, make_user: Callable[..., User], name: str
) -> None:
    user = make_user("anna")
    response = client.post(LOGIN, {"username": name, "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_a_wrong_password_is_shown_at_the_password_field(
    client: Client, make_user: Callable[..., User]
) -> None:
    make_user("anna")
    response = client.post(LOGIN, {"username": "anna", "password": "not it at all"})
    assert response.status_code == 200
    assert field_errors(response, "password") == ["Wrong username, email or password."]
    assert "_auth_user_id" not in client.session


def test_logout_ends_the_session(client: Client, make_user: Callable[..., User]) -> None:
    client.force_login(make_user("anna"))
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_a_logged_in_visitor_is_sent_from_signup_to_the_profile(
    client: Client, make_user: Callable[..., User]
) -> None:
    client.force_login(make_user("anna"))
    assert client.get(SIGNUP)["Location"] == "/@/anna"
