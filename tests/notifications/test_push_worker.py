"""Web Push through the suite's real workers (`celery_worker`): the outbound worker refuses
to connect to this machine's addresses, and push services that take the connection and never
answer cost it a few seconds each on its own queue while the default queue's worker plays the
AI's moves.

The silent push service (`silent_push_service`) is the one local origin the workers take as a
push service (`TEST_WEBPUSH_LOCAL_ORIGINS`); the workers have VAPID keys of their own."""

from __future__ import annotations

import time

import pytest
from django.utils import timezone

from games.play import selectors as play_selectors
from games.play import services as play
from games.play.models import Match
from games.play.services import Player
from notifications import services
from notifications.models import Kind, PushSubscription
from tests.notifications.push_service import Browser, b64url
from tests.support.silent_service import SilentService

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("celery_worker")]

# Seat 0 (the person) leads; the AI at seat 1 answers.
START = "SH 7C9DJSQD/6H8CKDTS - 0 -"


def subscribe(user, endpoint: str) -> PushSubscription:
    """Kept as the table may hold it: stored before the check, or its name moved since."""
    browser = Browser()
    return PushSubscription.objects.create(
        user=user, endpoint=endpoint, p256dh=b64url(browser.public), auth=b64url(browser.auth),
        created_at=timezone.now())


def tell(user, n: int) -> None:
    """A notification for `user`: its push task goes to the outbound queue once committed."""
    assert services.notification_create(user_id=user.pk, kind=Kind.FINISHED,
                                        key=f"finished:push-test:{user.pk}:{n}") is not None


def wait_until(condition, what, timeout: float = 90) -> None:
    """`what`: the words of the failure, or a function that says them at that moment."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"never: {what() if callable(what) else what}"
        time.sleep(0.1)


def test_the_worker_never_connects_to_an_address_of_this_machine(make_user):
    """Subscriptions already stored for loopback endpoints (an IP literal, `localhost`, a name
    leading to 127.0.0.1): the worker refuses each at send time and connects to none."""
    bob = make_user("loopbob")
    with SilentService() as local:
        literal = subscribe(bob, f"https://127.0.0.1:{local.port}/push/redis")
        named = subscribe(bob, f"https://localhost:{local.port}/push/named")
        with_password = subscribe(bob, f"https://user:pw@localhost:{local.port}/push/pw")
        rebound = subscribe(bob, "https://rebound.example.net/push/rebound")
        tell(bob, 1)

        # Refused URLs are removed; a name leading inside counts a failure (it may change).
        wait_until(lambda: PushSubscription.objects.filter(pk=rebound.pk, failures=1).exists(),
                   lambda: f"the rebound name's failure counted ({local.connections} "
                           "connections to this machine meanwhile)", timeout=60)
        wait_until(lambda: not PushSubscription.objects.filter(
            pk__in=[literal.pk, named.pk, with_password.pk]).exists(), "the loopback URLs removed")
        assert local.connections == 0


@pytest.mark.slow
def test_silent_push_services_never_hold_up_the_ai(make_user, silent_push_service):
    """Forty browsers of eight people at a push service that never answers, each person told
    something: the AI answers a move while their push tasks still wait on the service; then
    each subscription is tried once and costs one failure."""
    before = silent_push_service.connections
    people = [make_user(f"silent{n}") for n in range(8)]
    for person in people:
        for browser in range(5):
            subscribe(person, f"{silent_push_service.origin}/push/{person.pk}/{browser}")
    for person in people:
        tell(person, 1)

    player = make_user("silentplayer")
    match = play.match_create(players=[Player(user=player), Player(ai_level=1)],
                              start_tpn=START, dealer=1)
    game = play_selectors.match_game(match=match)
    assert game is not None
    play.move_apply(match_id=match.pk, seat=0, move=str(game.legal_moves()[0]), expected_ply=0)
    wait_until(lambda: Match.objects.get(pk=match.pk).ply >= 2, "the AI's answer", timeout=60)

    tried = PushSubscription.objects.filter(user__in=people, failures__gt=0).count()
    print(f"\nthe AI answered with {tried} of 40 silent subscriptions tried")
    assert tried < 40  # the push tasks were still waiting on the silent service
    wait_until(lambda: PushSubscription.objects.filter(user__in=people, failures=1).count() == 40,
               "each silent subscription tried once", timeout=120)
    assert silent_push_service.connections - before == 40
