"""Numbers inside markup are never localised: every page of the site, in every language, as
a guest and as a player with a rating history, has its numeric attributes (SVG geometry,
sizes, numeric inputs, `data-` numbers) written with a decimal point. A Polish, Russian or
Basque decimal comma (`cx="434,7"`) would break the rating chart."""

from __future__ import annotations

import re
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from accounts.models import PlayerRating
from accounts.services import user_create
from games.matchmaking import services as matchmaking
from games.play.services import Player
from tests.accounts.conftest import finish_game
from tests.games.replays.conftest import play_match
from tests.support.site_map import routes

pytestmark = pytest.mark.django_db

NUMBER = r"[-+]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?"
UNIT = r"(?:px|%|em|rem)?"
# Attributes that hold one number (a length may carry its unit).
SINGLE = {"x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "rx", "ry", "width", "height",
          "stroke-width", "font-size", "min", "max", "step", "offset", "opacity", "tabindex",
          "colspan", "rowspan", "maxlength", "minlength", "size"}
# Attributes that hold a list of numbers separated by spaces (`points`: pairs joined by commas).
LISTS = {"viewbox": rf"{NUMBER}(?:[ ,]+{NUMBER}){{3}}",
         "points": rf"{NUMBER},{NUMBER}(?: {NUMBER},{NUMBER})*"}
# A decimal comma anywhere a number is expected: digits, a comma, digits, and nothing else.
DECIMAL_COMMA = re.compile(r"^[-+]?\d+,\d+$")


class NumericAttributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.wrong: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        numeric_input = tag == "input" and dict(attrs).get("type") in {"number", "range"}
        for name, value in attrs:
            if value is None or "{" in value:
                continue
            value = value.strip()
            if name in LISTS:
                ok = re.fullmatch(LISTS[name], value) is not None
            elif (name in SINGLE and tag != "option") or (numeric_input and name == "value"):
                ok = value == "" or re.fullmatch(NUMBER + UNIT, value) is not None
            else:
                ok = DECIMAL_COMMA.match(value) is None
            if not ok:
                self.wrong.append(f"<{tag} {name}={value!r}>")


@pytest.fixture
def world():
    """A player with a rating history whose chart has fractional coordinates, a finished and
    a live duel, an open challenge."""
    anna = user_create(username="anna", email="anna@example.com", password="x-Pw-4471-q")
    bob = user_create(username="bob", email="bob@example.com", password="x-Pw-4471-q")
    now = timezone.now()
    for i, rating in enumerate([1513.3, 1477.8, 1530.1, 1561.6, 1542.9, 1588.2, 1570.4]):
        finish_game(anna, bob, "win" if i % 2 else "loss", rated=True,
                    finished_at=now - timedelta(days=10 - i), rating_before=1500.0,
                    rating_after=rating)
    PlayerRating.objects.filter(user=anna).update(rating=1570.4, deviation=87.3, games=7)
    finished = play_match([Player(user=anna), Player(user=bob)], moves=8, end="resign")
    live = play_match([Player(user=anna), Player(user=bob)], seed=3, moves=4)
    challenge = matchmaking.challenge_create(challenger=bob, challenged=None,
                                             time_control="3+2", rated=False)
    values = {"username": "anna", "match_id": str(finished.pk), "token": challenge.token,
              "uidb64": "MQ"}
    paths = []
    for route in routes():
        if route.name.startswith("admin:") or route.parts is None:
            continue
        # A part not named above gets a plain value: its page is walked all the same (or
        # its 404 page is).
        path = route.fill({group: values.get(group, "1") for group in route.groups})
        if path is not None:
            paths.append(path)
    paths += [f"/game/{live.pk}/", f"/game/{live.pk}/replay", "/no-such-page/"]
    return {"anna": anna, "paths": paths}


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_no_page_writes_a_number_the_languages_way_inside_markup(world, language: str) -> None:
    wrong: dict[str, list[str]] = {}
    pages = 0
    for who in ("guest", "player"):
        client = Client(headers={"accept-language": language})
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        if who == "player":
            client.force_login(world["anna"])
        for path in world["paths"]:
            response = client.get(path)
            if not response.get("Content-Type", "").startswith("text/html"):
                continue
            pages += 1
            parser = NumericAttributes()
            parser.feed(response.content.decode())
            if parser.wrong:
                wrong[f"{who} {path}"] = parser.wrong[:5]
    assert pages > 30
    assert wrong == {}


def test_the_rating_chart_is_checked_and_would_fail_with_a_comma(world) -> None:
    """The check above sees the chart: its circles are there, and a comma is caught."""
    client = Client(headers={"accept-language": "pl"})
    client.force_login(world["anna"])
    page = client.get("/@/anna").content.decode()
    assert page.count('<circle class="dot"') == 7
    assert re.search(r'cx="\d+\.\d"', page)
    parser = NumericAttributes()
    parser.feed('<svg viewBox="0 0 640 220"><circle cx="434,7" cy="12"/>'
                '<polyline points="48.0,20.5 434,7,120,3"/></svg>')
    assert parser.wrong == ["<circle cx='434,7'>", "<polyline points='48.0,20.5 434,7,120,3'>"]
