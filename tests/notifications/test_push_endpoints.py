"""Which push endpoints the site takes and posts to (`notifications.endpoints`): only the https
URLs of push services' public hosts, checked when a browser subscribes and again at each send,
the send connecting to the address checked; each subscription is sent to on its own, a
failing one counted and in the end dropped, and a person keeps a few browsers at most.

The names resolve through the suite's table (`TEST_PUSH_NAMES` in `tests.settings`), every
other name as usual; the push services are local stand-ins (`PushService`)."""

from __future__ import annotations

import json
import logging

import pytest
from django.test import Client
from django.utils import timezone

from games.matchmaking import services as matchmaking
from notifications import delivery, services
from notifications.endpoints import (
    NOT_A_PUSH_URL,
    NOT_FOUND,
    NOT_PUBLIC,
    EndpointRefused,
    endpoint_check,
)
from notifications.management.commands.vapid_keys import vapid_key_pair
from notifications.models import Notification, PushSubscription
from tests.notifications.push_service import Browser, PushService, b64url

pytestmark = pytest.mark.django_db

REFUSED = [
    "https://127.0.0.1:6379/",  # this machine's Redis
    "https://127.0.0.1/push/1",
    "https://user:pw@push.example.net/push/1",  # a user and password (pywebpush's crash)
    "https://user@push.example.net/push/1",
    "https://push.example.net:8443/push/1",  # not the standard port
    "https://push.example.net:6379/push/1",
    "http://push.example.net/push/1",  # not https
    "https://localhost/push/1",  # resolves to loopback (the machine's own resolver)
    "https://10.0.0.1/push/1",
    "https://[::1]/push/1",
    "https://[::ffff:127.0.0.1]/push/1",
    "https://2130706433/push/1",  # 127.0.0.1 written as one number
    "https://0x7f.1/push/1",
    "https://93.184.215.14/push/1",  # a public address, but no push service's name
    "https://rebound.example.net/push/1",  # a name leading to 127.0.0.1
    "https://intranet.example.net/push/1",  # one of its addresses is private
    "https://metadata.example.net/push/1",  # link-local: a cloud's metadata service
    "https://mapped.example.net/push/1",  # loopback as an IPv4-mapped IPv6 address
    "https://no-such-name.invalid/push/1",  # resolves to nothing
]
# What the person is told (Django's own word for what is no URL at all).
SAID = {str(NOT_A_PUSH_URL), str(NOT_PUBLIC), str(NOT_FOUND), "Enter a valid URL."}
ACCEPTED = ["https://push.example.net/push/1", "https://fcm.example.net:443/send/abc"]


@pytest.fixture
def vapid(settings):
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = vapid_key_pair()


@pytest.fixture
def service(settings):
    """A push service on 127.0.0.1 this test's process takes as one (`WEBPUSH_LOCAL_ORIGINS`)."""
    with PushService() as service:
        settings.WEBPUSH_LOCAL_ORIGINS = (service.origin,)
        yield service


def keys() -> dict[str, str]:
    browser = Browser()
    return {"p256dh": b64url(browser.public), "auth": b64url(browser.auth)}


def stored(user, endpoint: str, **fields) -> PushSubscription:
    """A subscription as the table may hold it (kept before a check, or its name moved since)."""
    return PushSubscription.objects.create(user=user, endpoint=endpoint, created_at=timezone.now(),
                                           **{**keys(), **fields})


def challenged(alice, bob) -> Notification:
    made = matchmaking.challenge_create(challenger=alice, challenged=bob, time_control="5+3",
                                        rated=False)
    return Notification.objects.get(challenge=made)


def test_the_subscribe_endpoint_takes_only_public_push_services_and_says_why(
        vapid, bob):
    client = Client()
    client.force_login(bob)

    def post(endpoint: str):
        return client.post("/notifications/push/subscribe/",
                           json.dumps({"endpoint": endpoint, "keys": keys()}),
                           content_type="application/json")

    for endpoint in REFUSED:
        answer = post(endpoint)
        assert answer.status_code == 400, endpoint
        [error] = answer.json()["fields"]["endpoint"]
        assert error["message"] in SAID, (endpoint, error)
    assert not PushSubscription.objects.exists()
    for endpoint in ACCEPTED:
        assert post(endpoint).json() == {"ok": True}, endpoint
    assert PushSubscription.objects.filter(user=bob).count() == len(ACCEPTED)


def test_production_takes_no_local_origin_and_resolves_names_for_real():
    from yourtrumps_site import settings as production

    assert production.WEBPUSH_LOCAL_ORIGINS == ()
    assert production.WEBPUSH_RESOLVER == "notifications.endpoints.resolve"


def test_the_check_gives_the_addresses_it_checked():
    target = endpoint_check("https://fcm.example.net/send/abc")
    assert (target.host, target.port) == ("fcm.example.net", 443)
    assert set(target.addresses) == {"2606:2800:21f:cb07:6820:80da:af6b:8b2c", "93.184.215.14"}
    with pytest.raises(EndpointRefused) as refused:
        endpoint_check("https://user:pw@push.example.net/x")
    assert refused.value.lasting
    with pytest.raises(EndpointRefused) as refused:
        endpoint_check("https://rebound.example.net/x")
    assert not refused.value.lasting  # the name may lead elsewhere tomorrow


def test_a_name_that_leads_inside_since_it_subscribed_is_refused_at_send_time(
        vapid, alice, bob, settings, caplog):
    settings.TEST_PUSH_NAMES = {**settings.TEST_PUSH_NAMES, "moved.example.net": ["93.184.215.14"]}
    endpoint_check("https://moved.example.net/push/bob")  # taken when it subscribed
    moved = stored(bob, "https://moved.example.net/push/bob")
    settings.TEST_PUSH_NAMES = {**settings.TEST_PUSH_NAMES, "moved.example.net": ["127.0.0.1"]}

    with caplog.at_level(logging.WARNING, logger="notifications.delivery"):
        assert delivery.notification_push_send(notification_id=challenged(alice, bob).pk) == 0

    assert "refused" in caplog.text
    moved.refresh_from_db()
    assert moved.failures == 1  # counted: the name may lead back out


def test_the_send_connects_to_the_address_it_checked(vapid, alice, bob, settings, service):
    """The name below exists only in the suite's table: the message arrives because the
    connection goes to the address the check resolved, not to a second resolution."""
    port = service.server.server_address[1]
    settings.TEST_PUSH_NAMES = {**settings.TEST_PUSH_NAMES, "pinned.example.net": ["127.0.0.1"]}
    settings.WEBPUSH_LOCAL_ORIGINS = (f"http://pinned.example.net:{port}",)
    stored(bob, f"http://pinned.example.net:{port}/push/bob")

    assert delivery.notification_push_send(notification_id=challenged(alice, bob).pk) == 1
    [message] = service.wait_for(1)
    assert message.headers["host"] == f"pinned.example.net:{port}"


def test_one_bad_subscription_never_stops_the_others(vapid, alice, bob, service, caplog):
    """A user and password in the endpoint made pywebpush raise `VapidException` for the whole
    task; a key the browser never made raises in the encryption. Each costs its own
    subscription only."""
    stored(bob, "https://user:pw@push.example.net/push/old")
    broken = stored(bob, f"{service.origin}/push/broken", p256dh=b64url(b"\x04" + b"\x01" * 64))
    stored(bob, f"{service.origin}/push/good")

    with caplog.at_level(logging.WARNING, logger="notifications.delivery"):
        assert delivery.notification_push_send(notification_id=challenged(alice, bob).pk) == 1

    assert [message.path for message in service.wait_for(1)] == ["/push/good"]
    kept = dict(PushSubscription.objects.filter(user=bob).values_list("endpoint", "failures"))
    # The URL refused for good is removed; the broken key counts a failure.
    assert kept == {broken.endpoint: 1, f"{service.origin}/push/good": 0}


def test_a_subscription_failing_again_and_again_is_dropped_and_a_success_forgives(
        vapid, alice, make_user, settings, service):
    settings.WEBPUSH_MAX_FAILURES = 3
    bob = make_user("failbob")
    service.answer["/push/flaky"] = 500
    flaky = stored(bob, f"{service.origin}/push/flaky")
    carol = make_user("failcarol")

    def send(n: int) -> int:
        notification = services.notification_create(user_id=bob.pk, kind="turn",
                                                     key=f"turn:test:{n}", actor_id=carol.pk)
        assert notification is not None
        return delivery.notification_push_send(notification_id=notification.pk)

    assert send(1) == 0
    assert send(2) == 0
    flaky.refresh_from_db()
    assert flaky.failures == 2
    service.answer["/push/flaky"] = 201
    assert send(3) == 1
    flaky.refresh_from_db()
    assert flaky.failures == 0
    service.answer["/push/flaky"] = 502
    for n in (4, 5, 6):
        assert send(n) == 0
    assert not PushSubscription.objects.filter(pk=flaky.pk).exists()


def test_a_person_keeps_a_few_browsers_the_newest(bob, settings):
    settings.WEBPUSH_SUBSCRIPTIONS_PER_USER = 3
    for n in range(5):
        services.push_subscription_save(user_id=bob.pk,
                                         endpoint=f"https://push.example.net/push/{n}", **keys())
    assert sorted(PushSubscription.objects.filter(user=bob).values_list("endpoint", flat=True)) \
        == [f"https://push.example.net/push/{n}" for n in (2, 3, 4)]
    # A browser subscribing again is its newest, and its count of failures starts again.
    PushSubscription.objects.filter(endpoint="https://push.example.net/push/2").update(failures=4)
    services.push_subscription_save(user_id=bob.pk, endpoint="https://push.example.net/push/2",
                                    **keys())
    services.push_subscription_save(user_id=bob.pk, endpoint="https://push.example.net/push/5",
                                    **keys())
    kept = dict(PushSubscription.objects.filter(user=bob).values_list("endpoint", "failures"))
    assert kept == {"https://push.example.net/push/2": 0, "https://push.example.net/push/4": 0,
                    "https://push.example.net/push/5": 0}
