"""Log-in abuse: django-axes locks an address or an account out after 5 failures, with a clear
page, for 15 minutes."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db

LOGIN = reverse("accounts:login")


def attempt(client: Client, username: str, password: str, ip: str = "10.0.0.1"):  # type: ignore[no-untyped-def]
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=ip)


def assert_locked(response) -> None:  # type: ignore[no-untyped-def]
    assert response.status_code == 429
    page = response.content.decode()
    assert 'data-testid="locked-out"' in page
    assert "After 5 failed log-ins" in page
    assert "blocked for 15 minutes" in page
    assert reverse("accounts:password_reset") in page


def test_five_failures_lock_the_account_even_for_the_right_password(
    client: Client, make_user: Callable[..., User]
) -> None:
    make_user("anna")
    for _ in range(4):
        response = attempt(client, "anna", "wrong password 1")
        assert response.status_code == 200  # the form again, with its error
    # The fifth failure is answered with the lock-out page, and so is every try after it.
    assert_locked(attempt(client, "anna", "wrong password 1"))
    assert_locked(attempt(client, "anna", PASSWORD))
    assert "_auth_user_id" not in client.session


def test_fewer_failures_then_success_resets_the_count(
    client: Client, make_user: Callable[..., User]
) -> None:
    make_user("anna")
    for _ in range(4):
        attempt(client, "anna", "wrong password 1")
    assert attempt(client, "anna", PASSWORD).status_code == 302
    client.post(reverse("accounts:logout"))
    for _ in range(4):
        attempt(client, "anna", "wrong password 1")
    assert attempt(client, "anna", PASSWORD).status_code == 302


def test_one_account_is_locked_whatever_the_address_and_the_spelling(
    client: Client, make_user: Callable[..., User]
) -> None:
    make_user("anna")
    spellings = ["anna", "ANNA", "anna@example.com", "Anna", "ANNA@example.com"]
    for number, name in enumerate(spellings):
        attempt(client, name, "wrong password 1", ip=f"10.0.1.{number}")
    assert_locked(attempt(client, "anna", PASSWORD, ip="10.0.2.1"))


def test_one_address_is_locked_whatever_the_account(
    client: Client, make_user: Callable[..., User]
) -> None:
    make_user("anna")
    for number in range(5):
        attempt(client, f"nobody{number}", "wrong password 1", ip="10.0.3.1")
    assert_locked(attempt(client, "anna", PASSWORD, ip="10.0.3.1"))
    # The account itself is not locked: from elsewhere it logs in.
    assert attempt(Client(), "anna", PASSWORD, ip="10.0.3.2").status_code == 302


def test_the_lock_lifts_after_the_cool_off(client: Client, make_user: Callable[..., User]) -> None:
    make_user("anna")
    for _ in range(5):
        attempt(client, "anna", "wrong password 1")
    assert_locked(attempt(client, "anna", PASSWORD))
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert attempt(client, "anna", PASSWORD).status_code == 302


def test_setting_a_new_password_by_email_lifts_the_accounts_lock(
    client: Client, make_user: Callable[..., User]
) -> None:
    from django.core import mail

    make_user("anna")
    for _ in range(5):
        attempt(client, "anna", "wrong password 1", ip="10.0.4.1")
    assert_locked(attempt(client, "anna", PASSWORD, ip="10.0.4.2"))
    client.post(reverse("accounts:password_reset"), {"email": "anna@example.com"})
    path = re.search(r"(/accounts/password-reset/\S+/\S+/)", mail.outbox[0].body).group(1)
    form_url = client.get(path)["Location"]
    client.post(form_url, {"new_password1": "brand new horse 9",
                           "new_password2": "brand new horse 9"})
    assert attempt(client, "anna", "brand new horse 9", ip="10.0.4.2").status_code == 302
