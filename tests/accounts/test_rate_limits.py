"""Sign-ups and password-reset mails are limited per address, reset mails also per account,
with a clear message, and the refused form keeps what was typed."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _low_limits(settings):
    cache.clear()
    settings.ACCOUNT_RATE_LIMITS = {"signup": (2, 3600), "password_reset": (2, 3600),
                                    "password_reset_account": (3, 3600)}


def sign_up(client, name):
    return client.post(
        "/accounts/signup/",
        {"username": name, "email": f"{name}@example.com", "password": "a-Long-pass-8812"},
    )


def test_sign_ups_past_the_limit_are_refused_with_the_wait_and_keep_the_input(client):
    for name in ("first1", "second2"):
        client.logout()
        assert sign_up(client, name).status_code == 302
    client.logout()

    refused = sign_up(client, "third3")

    assert refused.status_code == 429
    page = refused.content.decode()
    # The wait is counted to the end of the limit's hour by the clock, so near that end it is
    # given in seconds.
    assert re.search(r"Too many attempts\. Please wait \d+ (minutes?|seconds?) and try again\.",
                     page)
    assert 'value="third3"' in page
    assert not get_user_model().objects.filter(username="third3").exists()


def test_a_sign_up_from_another_address_is_not_held_back(client):
    for name in ("first1", "second2", "third3"):
        client.logout()
        sign_up(client, name)
    client.logout()

    response = client.post(
        "/accounts/signup/",
        {"username": "fourth4", "email": "f4@example.com", "password": "a-Long-pass-8812"},
        REMOTE_ADDR="10.1.2.3",
    )

    assert response.status_code == 302


def test_password_reset_mails_past_the_limit_are_refused(client):
    get_user_model().objects.create_user("anna", "anna@example.com", "a-Long-pass-8812")
    for _attempt in range(2):
        response = client.post("/accounts/password-reset/", {"email": "anna@example.com"})
        assert response.status_code == 302

    refused = client.post("/accounts/password-reset/", {"email": "anna@example.com"})

    assert refused.status_code == 429
    assert "Too many attempts. Please wait" in refused.content.decode()
    assert len(mail.outbox) == 2


def test_password_reset_mails_to_one_account_are_limited_from_any_addresses(client):
    get_user_model().objects.create_user("anna", "anna@example.com", "a-Long-pass-8812")
    for number, spelling in enumerate(["anna@example.com", "ANNA@example.com",
                                       " anna@example.com"]):
        response = client.post("/accounts/password-reset/", {"email": spelling},
                               REMOTE_ADDR=f"10.2.0.{number}")
        assert response.status_code == 302

    refused = client.post("/accounts/password-reset/", {"email": "anna@example.com"},
                          REMOTE_ADDR="10.2.0.9")

    assert refused.status_code == 429
    assert len(mail.outbox) == 3
    # Another account is not held back by it.
    get_user_model().objects.create_user("bert", "bert@example.com", "a-Long-pass-8812")
    assert client.post("/accounts/password-reset/", {"email": "bert@example.com"},
                       REMOTE_ADDR="10.2.0.9").status_code == 302
