"""What may be said in game chat and what the staff see and do: the rules of free text,
repeats, mutes that say until when, and a report that reaches the admin's queue."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts import moderation
from accounts.models import Follow, User
from games.matchmaking import pairing, tables
from games.matchmaking.errors import MatchmakingError
from games.play import services
from games.play.chat import errors
from games.play.chat.errors import ChatError
from games.play.chat.models import ChatReport, ReportStatus
from games.play.chat.selectors import Speaker
from games.play.chat.services import chat_post
from games.play.services import Player
from games.play.time_control import TimeControl

pytestmark = pytest.mark.django_db


def _old(user: User) -> User:
    User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(days=30))
    user.refresh_from_db()
    return user


_CLOCK = itertools.count()


def _refusal(match_id: int, speaker: Speaker, kind: str, body: str) -> str | None:
    # Three seconds apart: within the rate of five lines in ten seconds.
    now = timezone.now() + timedelta(seconds=3 * next(_CLOCK))
    try:
        chat_post(match_id=match_id, speaker=speaker, kind=kind, body=body, now=now)
    except ChatError as error:
        return error.code
    return None


def test_free_text_links_repeats_and_mutes(make_user):
    alice, bob = make_user("alice"), _old(make_user("bob"))
    casual = services.match_create(players=[Player(user=alice), Player(user=bob)], seed=1)
    rated = services.match_create(players=[Player(user=alice), Player(user=bob)], seed=2,
                                  rated=True, time_control=TimeControl(300, 3))
    with_guest = services.match_create(players=[Player(user=alice), Player(guest_id="g1")],
                                       seed=3)
    young, old = Speaker(user=alice, guest_id="", seat=0), Speaker(user=bob, guest_id="", seat=1)
    guest = Speaker(user=None, guest_id="g1", seat=1)

    # A week-old account may give a link; a new one may not (nor an address or a number).
    assert _refusal(casual.pk, young, "text", "see www.example.com") == errors.REFUSED
    assert _refusal(casual.pk, young, "text", "mail me: a@b.org") == errors.REFUSED
    assert _refusal(casual.pk, young, "text", "call +7 (912) 555-12-34") == errors.REFUSED
    assert _refusal(casual.pk, old, "text", "see www.example.com") is None
    assert _refusal(casual.pk, old, "text", "See  WWW.example.com ") == errors.REFUSED  # repeat
    assert _refusal(casual.pk, young, "text", "nice move 👍 ещё?") is None
    # Rated against a stranger: phrases only, until both turn free text on (or are friends).
    assert _refusal(rated.pk, young, "text", "hi") == errors.NO_FREE_TEXT
    assert _refusal(rated.pk, young, "phrase", "hello") is None
    User.objects.filter(pk__in=[alice.pk, bob.pk]).update(chat_with_strangers=True)
    alice.refresh_from_db()
    assert _refusal(rated.pk, young, "text", "hi") is None
    # A guest says phrases and reactions; nobody writes free text to a guest.
    assert _refusal(with_guest.pk, guest, "emoji", "👍") is None
    assert _refusal(with_guest.pk, guest, "text", "hi") == errors.NO_FREE_TEXT
    assert _refusal(with_guest.pk, Speaker(user=alice, guest_id="", seat=0), "text",
                    "hi there") == errors.NO_FREE_TEXT
    assert _refusal(casual.pk, young, "phrase", "insult") == errors.REFUSED

    moderation.user_mute(users=User.objects.filter(pk=bob.pk), minutes=60)
    bob.refresh_from_db()
    with pytest.raises(ChatError) as muted:
        chat_post(match_id=casual.pk, speaker=old, kind="phrase", body="hello")
    assert muted.value.code == errors.MUTED
    assert "until" in muted.value.detail


def test_a_report_reaches_the_staff_queue_and_its_action_mutes(make_user):
    alice, bob = make_user("alice"), _old(make_user("bob"))
    staff = make_user("staff", is_staff=True, is_superuser=True)
    match = services.match_create(players=[Player(user=alice), Player(user=bob)], seed=4)
    chat_post(match_id=match.pk, speaker=Speaker(user=alice, guest_id="", seat=0),
              kind="phrase", body="hello")
    line = chat_post(match_id=match.pk, speaker=Speaker(user=bob, guest_id="", seat=1),
                     kind="text", body="you play like a potato")
    reporter = Client()
    reporter.force_login(alice)
    # The players' chat is kept with the game: its replay shows it to its players only.
    replay = reporter.get(f"/game/{match.pk}/replay").content.decode()
    assert "you play like a potato" in replay
    assert 'data-testid="replay-chat"' not in Client().get(
        f"/game/{match.pk}/replay").content.decode()

    for _ in range(2):  # a second press is the same report
        answer = reporter.post("/chat/report/", {"message": str(line.pk)},
                               HTTP_ACCEPT="application/json")
        assert answer.status_code == 200
    assert reporter.post("/chat/report/", {"message": "12x"},
                         HTTP_ACCEPT="application/json").status_code == 400
    report = ChatReport.objects.get()
    assert report.reported == bob
    assert "you play like a potato" in report.context
    assert "alice" in report.context  # the line before it

    # The game page offers its signed-in reader the other seated players to report.
    page = reporter.get(f"/game/{match.pk}/").content.decode()
    assert '<option value="bob">' in page
    assert '<option value="alice">' not in page
    assert 'data-testid="report-player-form"' not in Client().get(
        f"/game/{match.pk}/").content.decode()
    other = services.match_create(players=[Player(user=alice), Player(ai_level=1)], seed=5)
    assert reporter.post("/chat/report/", {"player": "bob", "match": str(other.pk)},
                         HTTP_ACCEPT="application/json").status_code == 400
    assert reporter.post("/chat/report/", {"player": "bob", "match": str(match.pk)},
                         HTTP_ACCEPT="application/json").status_code == 200
    player_report = ChatReport.objects.get(message=None)
    assert (player_report.reported, player_report.match) == (bob, match)
    report = ChatReport.objects.get(message=line)

    admin = Client()
    admin.force_login(staff)
    queue = admin.get("/admin/games/chatreport/").content.decode()
    assert "you play like a potato" in queue
    assert "alice" in queue
    answer = admin.post("/admin/games/chatreport/", {
        "action": "mute_day", "_selected_action": [str(report.pk)]})
    assert answer.status_code == 302
    bob.refresh_from_db()
    assert bob.chat_muted_until is not None
    assert bob.chat_muted_until > timezone.now() + timedelta(hours=23)
    assert ChatReport.objects.get(pk=report.pk).status == ReportStatus.ACTED


def test_profile_follow_block_and_challenge(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    first, second = Client(), Client()
    first.force_login(alice)
    second.force_login(bob)

    first.post("/accounts/people/bob/follow/")
    second.post("/accounts/people/alice/follow/")
    page = first.get("/@/bob").content.decode()
    assert 'data-testid="friends-badge"' in page
    assert Follow.objects.count() == 2

    first.post("/accounts/people/bob/block/")
    assert Follow.objects.count() == 0  # a block ends the follows
    answer = second.post("/people/alice/challenge/", follow=True)
    assert "You cannot challenge this player." in answer.content.decode()
    assert first.post("/accounts/people/bob/dance/").status_code == 404
    table = tables.table_create(user=alice, players=3, time_control="5+3", rated=False,
                                public=True)
    with pytest.raises(MatchmakingError) as refused:
        tables.table_join(user=bob, token=table.token)
    assert refused.value.code == "blocked"


def test_a_bio_is_held_to_chats_rules(make_user):
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    client.post("/accounts/settings/profile/", {"bio": "write me at a@b.org", "country": "PL"})
    alice.refresh_from_db()
    assert alice.bio == ""
    client.post("/accounts/settings/profile/", {"bio": "Kozyri since 1990", "country": "PL"})
    client.post("/accounts/settings/profile/", {"bio": "x", "country": "ZZ"})
    alice.refresh_from_db()
    assert (alice.bio, alice.country) == ("Kozyri since 1990", "PL")
    assert "🇵🇱" in client.get("/@/alice").content.decode()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.floats(1000, 2000)), max_size=10),
       st.sets(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=8))
def test_pairing_never_seats_two_players_kept_apart(players, blocks):
    avoid: dict[int, set[int]] = {}
    for a, b in blocks:
        if a == b:
            continue  # nobody blocks themselves (a constraint of the table)
        avoid.setdefault(a, set()).add(b)
        avoid.setdefault(b, set()).add(a)
    candidates = [pairing.Candidate(key=key, rating=rating, waves=40,
                                    avoid=frozenset(avoid.get(key, ())))
                  for key, rating in players]
    for a, b in pairing.pair(candidates):
        assert b.key not in avoid.get(a.key, set())
    for table in pairing.tables(candidates, 3):
        keys = [c.key for c in table]
        assert not any(other in avoid.get(key, set()) for key in keys for other in keys
                       if other != key)
