"""The AI levels as bot accounts (`manage.py ai_accounts`): made once, seeded from the
arena's calibration until they have played, each with a fresh token for its reference bot,
and shown with their ratings on "Play the AI"."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from accounts.models import PlayerRating, User
from accounts.tokens import token_authenticate
from games.ai import LEVEL_RATINGS

pytestmark = pytest.mark.django_db


def made() -> list[list[str]]:
    out = StringIO()
    call_command("ai_accounts", stdout=out)
    return [line.split() for line in out.getvalue().splitlines()]


def test_the_ai_levels_get_accounts_seeded_ratings_and_tokens(make_user):
    first = made()
    assert [(level, name) for level, name, _token in first] == [
        (str(n), f"ai-level-{n}") for n in (1, 2, 3, 4)]
    for level, name, token in first:
        account = token_authenticate(text=token)
        assert account is not None
        assert account.user.username == name
        assert (account.user.is_bot, account.user.ai_level) == (True, int(level))
        assert not account.user.has_usable_password()
    ratings = dict(PlayerRating.objects.filter(user__ai_level__isnull=False)
                   .values_list("user__ai_level", "rating"))
    assert ratings == LEVEL_RATINGS
    # Once a level has played, its rating is its own; a second run only renews the tokens.
    PlayerRating.objects.filter(user__ai_level=4).update(rating=1900.0, games=3)
    second = made()
    assert all(token_authenticate(text=token) is None for _l, _n, token in first)
    assert all(token_authenticate(text=token) is not None for _l, _n, token in second)
    assert PlayerRating.objects.get(user__ai_level=4).rating == 1900.0
    assert User.objects.filter(ai_level__isnull=False).count() == 4
    page = Client().get("/play/ai/").content.decode()
    assert 'data-testid="ai-ratings"' in page
    assert "ai-level-4" in page
    assert "1900" in page
    assert "1150?" in page


def test_a_person_of_that_name_is_not_taken_over(make_user):
    make_user("ai-level-1")
    with pytest.raises(CommandError, match="is not the site's AI at level 1"):
        call_command("ai_accounts", stdout=StringIO())


def test_the_seeds_can_be_measured_by_duels_in_the_arena():
    err = StringIO()
    call_command("ai_accounts", arena_deals=1, movetime=5, stdout=StringIO(), stderr=err)
    reported = {int(level): float(rating) for level, rating in
                re.findall(r"level (\d) (-?\d+)", err.getvalue())}
    ratings = dict(PlayerRating.objects.filter(user__ai_level__isnull=False)
                   .values_list("user__ai_level", "rating"))
    assert ratings == reported
    assert sorted(ratings) == [1, 2, 3, 4]
    assert ratings[2] == LEVEL_RATINGS[2]  # the anchor: greedy play is a newcomer
    for bad, message in (({"arena_deals": 0}, "--arena-deals"), ({"movetime": 0}, "--movetime"),
                         ({"jobs": 0}, "--jobs")):
        with pytest.raises(CommandError, match=message):
            call_command("ai_accounts", stdout=StringIO(), **bad)
