"""E-mail from a real Celery worker: a challenge reaches the challenged player's mailbox in
their language, with a one-click unsubscribe link that needs no log-in; a game mails at most
once an hour. The worker writes its mail to files (`worker_outbox`)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.test import Client

from games.matchmaking import services as matchmaking
from games.play import services as play
from games.play.services import Player
from notifications import selectors, services
from notifications.models import Notification

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_challenge_is_mailed_in_the_players_language_and_one_click_unsubscribes(
    make_user, worker_outbox
):
    alice = make_user("mailalice")
    bob = make_user("mailbob", language="ru")
    matchmaking.challenge_create(challenger=alice, challenged=bob, time_control="3+2",
                                 rated=True)

    [mail] = worker_outbox.wait_for("mailbob@example.com", 1)
    assert "mailalice" in mail["Subject"]
    assert "Свои козыри" in mail["Subject"]  # the site's name in Russian
    body = mail.get_content()
    link = re.search(r"http://\S+/notifications/unsubscribe/\S+/", body)
    assert link is not None
    assert str(mail["List-Unsubscribe"]).strip() == f"<{link.group(0)}>"
    assert Notification.objects.get(user=bob).emailed_at is not None

    page = Client().get(urlsplit(link.group(0)).path)  # no session: not logged in
    assert page.status_code == 200
    assert "email" not in selectors.preferences_of(user_id=bob.pk)["challenge"]

    # Told again (a challenge from someone else), but by e-mail no more. A turn after it is
    # mailed, and the worker runs its tasks in order: once that mail is in, the challenge's
    # task has run.
    carol = make_user("mailcarol")
    again = matchmaking.challenge_create(challenger=carol, challenged=bob, time_control="3+2",
                                         rated=False)
    duel = play.match_create(players=[Player(user=carol), Player(user=bob)], seed=3, dealer=1,
                             trumps="SH")
    duel.refresh_from_db()
    services.notification_turn(match_id=duel.pk, user_id=bob.pk, ply=duel.ply)
    mails = worker_outbox.wait_for("mailbob@example.com", 2)
    assert len(mails) == 2
    assert Notification.objects.get(challenge=again).emailed_at is None
    assert Notification.objects.get(match=duel).emailed_at is not None


def test_a_game_mails_a_player_at_most_once_an_hour(make_user, worker_outbox):
    alice, dora = make_user("gapalice"), make_user("gapdora")
    first = play.match_create(players=[Player(user=alice), Player(user=dora)], seed=5, dealer=1,
                              trumps="SH")
    second = play.match_create(players=[Player(user=alice), Player(user=dora)], seed=6,
                               dealer=1, trumps="SH")
    for match in (first, second):
        match.refresh_from_db()
    # Two moments of the first game, then one of the second: two mails, one per game. (The
    # first is read once mailed: an unread "your turn" of a game stands for its next ones.)
    services.notification_turn(match_id=first.pk, user_id=dora.pk, ply=first.ply)
    worker_outbox.wait_for("gapdora@example.com", 1)
    services.notifications_mark_read(user_id=dora.pk)
    services.notification_turn(match_id=first.pk, user_id=dora.pk, ply=first.ply, reminder=True)
    services.notification_turn(match_id=second.pk, user_id=dora.pk, ply=second.ply)

    mails = worker_outbox.wait_for("gapdora@example.com", 2)
    assert len(mails) == 2, worker_outbox.messages()
    emailed = Notification.objects.filter(user=dora, emailed_at__isnull=False)
    assert sorted(emailed.values_list("match_id", flat=True)) == sorted([first.pk, second.pk])
    assert Notification.objects.filter(user=dora).count() == 3
