"""The settings page of API tokens, as a player uses it: a token made there is shown on that
answer only and kept as its digest, works as `Authorization: Bearer`, and stops working once
revoked; only its owner revokes it; making tokens is rate limited; and the player chooses
whether bots may challenge them."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from accounts.models import ApiToken, TokenScope
from accounts.tokens import token_digest

pytestmark = pytest.mark.django_db(transaction=True)

PAGE = reverse("accounts:api_tokens")
TOKEN_TEXT = re.compile(r"yt_[A-Za-z0-9_-]{40}")


def made_on_the_page(client: Client, name: str, scopes: list[str]) -> str:
    response = client.post(PAGE, {"name": name, "scopes": scopes})
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    found = TOKEN_TEXT.findall(response.content.decode())
    assert len(found) == 1, response.content
    return found[0]


def account_status(token: str) -> int:
    return Client().get("/api/account", HTTP_AUTHORIZATION=f"Bearer {token}").status_code


def test_a_token_is_made_shown_once_used_and_revoked_on_the_settings_page(make_user):
    assert Client().get(PAGE).status_code == 302  # a login first
    anna = make_user("anna")
    client = Client()
    client.force_login(anna)
    assert 'data-testid="token-none"' in client.get(PAGE).content.decode()
    text = made_on_the_page(client, "engine", [TokenScope.BOT, TokenScope.CHALLENGE])
    stored = ApiToken.objects.get(user=anna)
    assert (stored.name, stored.scope_list) == ("engine", ["bot:play", "challenge:write"])
    assert stored.digest == token_digest(text)
    assert text not in (stored.digest, stored.prefix, stored.name, stored.scopes)
    listed = client.get(PAGE).content.decode()
    assert text not in listed  # shown once, on the answer that made it
    assert stored.prefix in listed
    answer = Client().get("/api/account", HTTP_AUTHORIZATION=f"Bearer {text}").json()
    assert (answer["name"], answer["scopes"]) == ("anna", ["bot:play", "challenge:write"])
    # A token needs a scope; a refused form makes none.
    refused = client.post(PAGE, {"name": "none"})
    assert refused.status_code == 400
    assert TOKEN_TEXT.search(refused.content.decode()) is None
    assert ApiToken.objects.filter(user=anna).count() == 1
    # Someone else cannot revoke it; its owner can, and it is refused at once.
    revoke = reverse("accounts:api_token_revoke", args=[stored.pk])
    other = Client()
    other.force_login(make_user("boris"))
    assert other.post(revoke).status_code == 302
    assert account_status(text) == 200
    assert client.post(revoke).status_code == 302
    assert not ApiToken.objects.filter(pk=stored.pk).exists()
    assert account_status(text) == 401


def test_making_tokens_is_rate_limited(make_user):
    client = Client()
    client.force_login(make_user("hasty"))
    with override_settings(API_RATE_LIMITS={"request": (600, 60), "auth_failure": (30, 60),
                                            "token_create": (2, 3600)}):
        made_on_the_page(client, "one", [TokenScope.READ])
        made_on_the_page(client, "two", [TokenScope.READ])
        refused = client.post(PAGE, {"name": "three", "scopes": [TokenScope.READ]})
    assert refused.status_code == 400
    assert TOKEN_TEXT.search(refused.content.decode()) is None
    assert ApiToken.objects.filter(user__username="hasty").count() == 2


def ticked(page: str) -> bool:
    """Whether the page's box "Accept challenges from bots" is ticked."""
    box = re.search(r'<input type="checkbox" name="accept"[^>]*>', page)
    assert box is not None
    return " checked" in box.group(0)


def test_a_player_turns_off_challenges_from_bots(make_user):
    anna = make_user("anna")
    client = Client()
    client.force_login(anna)
    change = reverse("accounts:bot_challenges")
    assert client.post(change, {}).status_code == 302  # the box unticked
    anna.refresh_from_db()
    assert not anna.bot_challenges
    assert not ticked(client.get(PAGE).content.decode())
    client.post(change, {"accept": "on"})
    anna.refresh_from_db()
    assert anna.bot_challenges
    assert ticked(client.get(PAGE).content.decode())
