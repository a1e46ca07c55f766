"""Numbers, times and counts written each language's way on the server: time controls,
the challenge's expiry time, the counts of the game history and of the lobby's script."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone, translation
from django.utils.translation import ngettext

from games.matchmaking import services as matchmaking
from games.play.services import Player
from games.play.time_control import UNTIMED, TimeControl
from games.replays.services import record_export
from infra.i18n import plural_labels
from tests.games.replays.conftest import play_match
from tests.games.replays.test_history import finished
from tests.support.users import account_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "three_plus_two", "half_a_minute", "one_plus_one"),
    [
        ("en", "3 minutes, plus 2 seconds a move", "30 seconds, plus 0 seconds a move",
         "1 minute, plus 1 second a move"),
        ("pl", "3 minuty plus 2 sekundy na ruch", "30 sekund plus 0 sekund na ruch",
         "1 minuta plus 1 sekunda na ruch"),
        ("ru", "3 минуты плюс 2 секунды за ход", "30 секунд плюс 0 секунд за ход",
         "1 минута плюс 1 секунда за ход"),
        ("eu", "3 minutu, gehi 2 segundo jokaldiko", "30 segundo, gehi 0 segundo jokaldiko",
         "1 minutu, gehi 1 segundo jokaldiko"),
    ],
)
def test_a_time_control_in_words_and_figures(
    language: str, three_plus_two: str, half_a_minute: str, one_plus_one: str
) -> None:
    with translation.override(language):
        assert TimeControl(180, 2).label == "3+2"
        assert TimeControl(30, 0).label == ("0.5+0" if language == "en" else "0,5+0")
        assert TimeControl(180, 2).words == three_plus_two
        assert TimeControl(30, 0).words == half_a_minute
        assert TimeControl(60, 1).words == one_plus_one
        assert UNTIMED.label == UNTIMED.words == str(translation.gettext("Untimed"))


def time_control_shown(html: str) -> str:
    found = re.search(r'<abbr title="([^"]*)" data-testid="time-control">([^<]*)</abbr>', html)
    assert found is not None
    return f"{found.group(2)} ({found.group(1)})"


def test_a_replay_and_its_imported_record_show_the_time_control_alike() -> None:
    """The imported record's clock was written "180s+2s"; both pages now say "3+2"."""
    match = play_match([Player(user=account_create("alice")), Player(user=account_create("bob"))],
                       moves=6, time_control=TimeControl(180, 2))
    client = Client(headers={"accept-language": "ru"})
    replay = client.get(f"/game/{match.pk}/replay").content.decode()
    imported = client.post("/replay/import", {"text": record_export(match=match)})
    assert imported.status_code == 200
    expected = "3+2 (3 минуты плюс 2 секунды за ход)"
    assert time_control_shown(replay) == time_control_shown(imported.content.decode()) == (
        expected)
    assert "180s" not in imported.content.decode()
    page = client.get(f"/game/{match.pk}/").content.decode()
    assert time_control_shown(page) == expected


@pytest.mark.parametrize(
    ("language", "shown"),
    [("en", "3:07 p.m."), ("pl", "15:07"), ("ru", "15:07"), ("eu", "15:07")],
)
def test_the_challenge_expires_at_a_time_written_the_languages_way(
    language: str, shown: str
) -> None:
    anna = account_create("anna")
    challenge = matchmaking.challenge_create(challenger=anna, challenged=None,
                                             time_control="1+1", rated=False)
    tomorrow = timezone.now() + timedelta(days=1)
    challenge.expires_at = tomorrow.replace(hour=15, minute=7, second=0, microsecond=0)
    challenge.save(update_fields=["expires_at"])
    client = Client(headers={"accept-language": language})
    client.force_login(anna)
    html = client.get(f"/challenge/{challenge.token}/").content.decode()
    with translation.override(language):
        sentence = translation.gettext("The challenge expires at %(time)s") % {"time": shown}
    assert sentence in html
    assert f"{sentence}." not in html  # "3:07 p.m." ends the sentence: no second stop


@pytest.mark.parametrize(
    ("language", "count", "players", "more_than"),
    [
        ("en", "2 games", "3 players", "More than 1 game"),
        ("pl", "2 partie", "3 graczy", "Ponad 1 partia"),
        ("ru", "2 партии", "3 игрока", "Более 1 партии"),
        ("eu", "2 partida", "3 jokalari", "1 partida baino gehiago"),
    ],
)
def test_the_history_counts_in_each_languages_plural_forms(
    language: str, count: str, players: str, more_than: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob, carol = account_create("alice"), account_create("bob"), account_create("carol")
    finished(alice, bob)
    finished(alice, bob, carol, n=3, days=1)
    client = Client(headers={"accept-language": language})
    html = client.get("/games/").content.decode()
    assert re.search(r'data-testid="history-count">\s*' + re.escape(count) + r"\s*<", html)
    assert f" · {players}</small>" in html
    monkeypatch.setattr("games.replays.history.HISTORY_COUNT_CAP", 1)
    html = client.get("/games/").content.decode()
    assert re.search(r'data-testid="history-count">\s*' + re.escape(more_than) + r"\s*<", html)


def test_a_count_for_a_script_comes_in_every_plural_form_of_the_language() -> None:
    """The lobby's script picks the form with `Intl.PluralRules`, whose categories these are."""
    with translation.override("ru"):
        forms = plural_labels(lambda n: ngettext("%(n)s player", "%(n)s players", n))
    assert forms == {"one": "%(n)s игрок", "few": "%(n)s игрока", "many": "%(n)s игроков",
                     "other": "%(n)s игроков"}
    with translation.override("eu"):
        forms = plural_labels(lambda n: ngettext("%(n)s player", "%(n)s players", n))
    assert forms["one"] == forms["other"] == "%(n)s jokalari"
