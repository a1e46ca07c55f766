"""Web Push through pywebpush against a local stand-in for the push service, which checks the
VAPID signature and decrypts the payload with the test browser's own keys (no mock)."""

from __future__ import annotations

import json
import time

import pytest

from games.matchmaking import services as matchmaking
from notifications import delivery, services
from notifications.management.commands.vapid_keys import vapid_key_pair
from notifications.models import Notification, PushSubscription
from tests.notifications.push_service import Browser, PushService, b64url, vapid_claims

pytestmark = pytest.mark.django_db


@pytest.fixture
def service(settings):
    """A `PushService` this test's process takes as a push service (`WEBPUSH_LOCAL_ORIGINS`)."""
    with PushService() as service:
        settings.WEBPUSH_LOCAL_ORIGINS = (service.origin,)
        yield service


@pytest.fixture
def vapid(settings):
    public, private = vapid_key_pair()
    settings.WEBPUSH_VAPID_PUBLIC_KEY = public
    settings.WEBPUSH_VAPID_PRIVATE_KEY = private
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:ops@example.com"
    return public


def subscribe(user, service: PushService, path: str, browser: Browser) -> PushSubscription:
    return services.push_subscription_save(
        user_id=user.pk, endpoint=f"{service.origin}{path}", p256dh=b64url(browser.public),
        auth=b64url(browser.auth),
    )


def challenged(alice, bob) -> Notification:
    made = matchmaking.challenge_create(challenger=alice, challenged=bob, time_control="5+3",
                                        rated=False)
    return Notification.objects.get(challenge=made)


def test_a_notification_is_pushed_signed_and_encrypted_for_the_browser(
    vapid, alice, make_user, settings, service
):
    bob = make_user("pushbob", language="pl")
    browser = Browser()
    subscribe(bob, service, "/push/bob-laptop", browser)
    notification = challenged(alice, bob)
    assert delivery.notification_push_send(notification_id=notification.pk) == 1
    [message] = service.wait_for(1)

    assert message.path == "/push/bob-laptop"
    assert message.headers["content-encoding"] == "aes128gcm"
    assert int(message.headers["ttl"]) == settings.WEBPUSH_TTL_SECONDS
    claims = vapid_claims(message.headers["authorization"], vapid)
    assert claims["aud"] == service.origin
    assert claims["sub"] == "mailto:ops@example.com"
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    payload = json.loads(browser.decrypt(message.body))
    assert payload["title"] == "Twoje atuty"  # in the player's language
    assert "alice" in payload["body"]
    assert payload["url"] == f"/challenge/{notification.challenge.token}/"
    assert payload["tag"] == notification.key


def test_a_subscription_the_service_says_is_gone_is_removed(vapid, alice, bob, service):
    service.answer["/push/old"] = 410
    subscribe(bob, service, "/push/old", Browser())
    kept = subscribe(bob, service, "/push/new", Browser())
    notification = challenged(alice, bob)
    assert delivery.notification_push_send(notification_id=notification.pk) == 1
    assert len(service.wait_for(2)) == 2
    assert list(PushSubscription.objects.filter(user=bob)) == [kept]


def test_nothing_is_pushed_without_keys_or_against_the_players_choice(
    vapid, alice, bob, settings, service
):
    subscribe(bob, service, "/push/bob", Browser())
    services.preferences_set(user_id=bob.pk, channels={"challenge": {"email"}})
    assert delivery.notification_push_send(notification_id=challenged(alice, bob).pk) == 0
    services.preferences_set(user_id=bob.pk, channels={"challenge": {"push"}})
    settings.WEBPUSH_VAPID_PUBLIC_KEY = settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    carol = type(alice).objects.create_user("pushcarol", password="pw-Xk39-long")
    assert delivery.notification_push_send(notification_id=challenged(carol, bob).pk) == 0
    assert service.received == []
