"""Log-in abuse: django-axes locks an account out for an address after 5 failures, an account
everywhere after 30 from any addresses, an address for every account after 50, each with a
page that says which, for 15 minutes."""

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


def assert_locked(response, scope: str = "pair") -> None:  # type: ignore[no-untyped-def]
    assert response.status_code == 429
    page = response.content.decode()
    assert f'data-testid="locked-out" data-scope="{scope}"' in page
    words = {
        "pair": ["After 5 failed log-ins", "to this account from your address is blocked for "
                 "15 minutes", "From another network you can still log in"],
        "account": ["After 30 failed log-ins from several addresses", "blocked everywhere for "
                    "15 minutes"],
        "address": ["After 50 failed log-ins from your address", "blocked for 15 minutes, to "
                    "every account"],
    }[scope]
    title = {"pair": "This account is locked at your address",
             "account": "This account is locked", "address": "Your address is locked"}[scope]
    assert f'<h1 data-testid="locked-title">{title}</h1>' in page
    for phrase in words:
        assert phrase in " ".join(page.split())
    # A new password lifts the account's locks (its failures are forgotten), not the address's.
    assert (reverse("accounts:password_reset") in page) is (scope != "address")
    assert ("lifts the lock at once" in page) is (scope != "address")


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


def test_one_account_from_one_address_is_locked_whatever_the_spelling(
    client: Client, make_user: Callable[..., User]
) -> None:
    make_user("anna")
    for name in ["anna", "ANNA", "anna@example.com", "Anna", "ANNA@example.com"]:
        attempt(client, name, "wrong password 1", ip="10.0.1.1")
    assert_locked(attempt(client, "anna", PASSWORD, ip="10.0.1.1"))


def test_an_attacker_at_one_address_does_not_lock_the_owner_out_at_another(
    client: Client, make_user: Callable[..., User]
) -> None:
    make_user("anna")
    for _ in range(12):
        attempt(client, "anna", "wrong password 1", ip="10.0.6.6")
    assert_locked(attempt(client, "anna", PASSWORD, ip="10.0.6.6"))
    assert attempt(Client(), "anna", PASSWORD, ip="10.0.6.7").status_code == 302


def test_many_addresses_lock_the_account_everywhere_at_a_slower_limit(
    client: Client, make_user: Callable[..., User]
) -> None:
    make_user("anna")
    for number in range(29):  # 4 or fewer from each address: no pair is locked
        attempt(client, "anna", "wrong password 1", ip=f"10.0.2.{number // 4}")
    assert attempt(Client(), "anna", PASSWORD, ip="10.0.9.9").status_code == 302
    client.post(reverse("accounts:logout"))
    for number in range(30):
        attempt(client, "anna", "wrong password 1", ip=f"10.0.3.{number // 4}")
    assert_locked(attempt(Client(), "anna", PASSWORD, ip="10.0.9.8"), scope="account")


def test_one_address_is_locked_for_every_account_at_a_slower_limit(
    client: Client, make_user: Callable[..., User]
) -> None:
    make_user("anna")
    for number in range(5):
        attempt(client, f"nobody{number}", "wrong password 1", ip="10.0.3.1")
    assert attempt(Client(), "anna", PASSWORD, ip="10.0.3.1").status_code == 302
    for number in range(50):
        attempt(client, f"nobody{number}", "wrong password 1", ip="10.0.4.1")
    assert_locked(attempt(client, "anna", PASSWORD, ip="10.0.4.1"), scope="address")
    # The account itself is not locked: from elsewhere it logs in.
    assert attempt(Client(), "anna", PASSWORD, ip="10.0.4.2").status_code == 302


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
    assert_locked(attempt(client, "anna", PASSWORD, ip="10.0.4.1"))
    client.post(reverse("accounts:password_reset"), {"email": "anna@example.com"})
    path = re.search(r"(/accounts/password-reset/\S+/\S+/)", mail.outbox[0].body).group(1)
    form_url = client.get(path)["Location"]
    client.post(form_url, {"new_password1": "brand new horse 9",
                           "new_password2": "brand new horse 9"})
    assert attempt(client, "anna", "brand new horse 9", ip="10.0.4.1").status_code == 302
