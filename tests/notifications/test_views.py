"""The pages and endpoints of the notifications: refusals are clear answers, never errors."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.matchmaking import services as matchmaking
from notifications import delivery, selectors
from notifications.management.commands.vapid_keys import vapid_key_pair
from notifications.models import Notification, PushSubscription
from tests.notifications.push_service import Browser, b64url

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_every_page_shows_the_badge_of_unread_notifications(alice, bob):
    matchmaking.challenge_create(challenger=alice, challenged=bob, time_control="3+2", rated=True)
    page = logged_in(bob).get("/").content.decode()
    assert 'data-testid="notify-badge">1</span>' in page
    assert 'id="notifications-config"' in page
    other = logged_in(alice).get("/").content.decode()
    assert 'data-testid="notify-badge" hidden>0</span>' in other


def test_the_list_and_marking_read(alice, bob):
    matchmaking.challenge_create(challenger=alice, challenged=bob, time_control="3+2", rated=True)
    client = logged_in(bob)
    listing = client.get("/notifications/").content.decode()
    assert "alice" in listing
    assert "/accept/" in listing
    told = Notification.objects.get(user=bob)
    answer = client.post(f"/notifications/{told.pk}/read/", HTTP_ACCEPT="application/json")
    assert answer.json() == {"unread": 0}
    assert client.post("/notifications/read/").status_code == 302
    assert logged_in(alice).post(f"/notifications/{told.pk}/read/").status_code == 302
    assert client.get("/notifications/read/").status_code == 405
    assert Client().get("/notifications/").status_code == 302  # to the log-in


def test_the_settings_page_saves_the_channels_and_offers_push_only_with_keys(bob, settings):
    client = logged_in(bob)
    settings.WEBPUSH_VAPID_PUBLIC_KEY = settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    page = client.get("/notifications/settings/").content.decode()
    assert "push-panel" not in page
    assert client.post("/notifications/settings/", {"turn__email": "on"}).status_code == 302
    chosen = selectors.preferences_of(user_id=bob.pk)
    assert chosen["turn"] == {"email", "push"}  # push kept as it was (not offered here)
    assert chosen["challenge"] == {"push"}
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = vapid_key_pair()
    page = client.get("/notifications/settings/").content.decode()
    assert "push-panel" in page
    assert settings.WEBPUSH_VAPID_PUBLIC_KEY in page


def test_a_push_subscription_is_checked_before_it_is_kept(bob, settings):
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = vapid_key_pair()
    client = logged_in(bob)
    browser = Browser()
    good = {"endpoint": "https://push.example.net/send/abc",
            "keys": {"p256dh": b64url(browser.public), "auth": b64url(browser.auth)}}

    def post(body, path="/notifications/push/subscribe/"):
        data = body if isinstance(body, str) else json.dumps(body)
        return client.post(path, data, content_type="application/json")

    for bad in ({**good, "endpoint": "http://127.0.0.1:9/steal"},
                {**good, "keys": {"p256dh": "AAAA", "auth": good["keys"]["auth"]}},
                {**good, "keys": {"p256dh": good["keys"]["p256dh"], "auth": "%%%"}},
                {"endpoint": good["endpoint"]}, [1, 2], "not json"):
        assert post(bad).status_code == 400, bad
    assert not PushSubscription.objects.exists()
    assert post(good).json() == {"ok": True}
    assert post(good).status_code == 200  # again: the same subscription, kept once
    assert PushSubscription.objects.get().user == bob
    assert post({"endpoint": good["endpoint"]}, "/notifications/push/unsubscribe/").json() == {
        "ok": True, "removed": True}
    assert post("nope", "/notifications/push/unsubscribe/").status_code == 400
    settings.WEBPUSH_VAPID_PUBLIC_KEY = settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    assert post(good).status_code == 404


def test_the_unsubscribe_link_needs_no_log_in_and_refuses_a_forged_token(bob):
    token = delivery.unsubscribe_token(user_id=bob.pk, kind="turn")
    client = Client(enforce_csrf_checks=True)
    page = client.get(f"/notifications/unsubscribe/{token}/")
    assert page.status_code == 200
    assert "email" not in selectors.preferences_of(user_id=bob.pk)["turn"]
    csrf = client.cookies["csrftoken"].value
    assert client.post(f"/notifications/unsubscribe/{token}/",
                       {"action": "resubscribe"}).status_code == 403  # no token: refused
    client.post(f"/notifications/unsubscribe/{token}/",
                {"action": "resubscribe", "csrfmiddlewaretoken": csrf})
    assert "email" in selectors.preferences_of(user_id=bob.pk)["turn"]
    client.post(f"/notifications/unsubscribe/{token}/",
                {"action": "all", "csrfmiddlewaretoken": csrf})
    assert all("email" not in kinds for kinds in selectors.preferences_of(user_id=bob.pk).values())
    forged = token[:-3] + ("abc" if not token.endswith("abc") else "xyz")
    assert client.get(f"/notifications/unsubscribe/{forged}/").status_code == 400
    other_kind = delivery.unsubscribe_token(user_id=bob.pk, kind="nonsense")
    assert client.get(f"/notifications/unsubscribe/{other_kind}/").status_code == 400


def test_the_service_worker_is_served_from_the_root():
    answer = Client().get("/notifications-sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert b"showNotification" in answer.content
