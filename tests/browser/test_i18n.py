"""The site in Polish, Russian and Basque in a real Chromium: the rules page and the game page
in each language (the board's labels, trump badges, take button and card names come from the
catalogues), the footer's switch, which keeps the page and is remembered for a player, the
language setting of the account, and clocks and seconds written the language's way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from games.play import services
from games.play.services import Player
from games.play.time_control import TimeControl
from games.replays.selectors import replay_of_match
from tests.games.replays.conftest import play_match
from tests.support.processes import ManagedProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("sockets_settled")]
expect.set_options(timeout=15_000)

# Seat 0 (trump spades) is to move with 7C 9D; the pile's top card is 8S, seat 0's own trump and
# not its ace, and seat 0 holds no higher spade: it must take the top five of six cards.
TAKE_FIVE = "SH 7C9D/6D8CKD 6CTC9HJDQH8S 0 -"

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "rules_title": "How to play Svoi Kozyri",
        "jack_of_hearts": "jack of hearts",
        "spades": "spades",
        "hearts": "hearts",
        "take": "Take 5 cards",
        "pile": "6 cards in the pile",
        "trump_0": "Trump: spades",
        "trump_1": "Trump: hearts",
        "status": "Your turn: beat the top card or take",
        "seven_of_clubs": "seven of clubs",
        "moves": "Moves",
        "opponent_to_move": "{name} to move",
    },
    "pl": {
        "rules_title": "Jak grać w Svoi Kozyri",
        "jack_of_hearts": "walet kier",
        "spades": "pik",
        "hearts": "kier",
        "take": "Weź 5 kart",
        "pile": "6 kart na stosie",
        "trump_0": "Atut: pik",
        "trump_1": "Atut: kier",
        "status": "Twój ruch: przebij wierzchnią kartę albo weź",
        "seven_of_clubs": "siódemka trefl",
        "moves": "Ruchy",
        "opponent_to_move": "Ruch: {name}",
    },
    "ru": {
        "rules_title": "Как играть в «Свои козыри»",
        "jack_of_hearts": "валет червей",
        "spades": "пики",
        "hearts": "черви",
        "take": "Взять 5 карт",
        "pile": "6 карт в стопке",
        "trump_0": "Козырь: пики",
        "trump_1": "Козырь: черви",
        "status": "Ваш ход: побейте верхнюю карту или возьмите",
        "seven_of_clubs": "семёрка треф",
        "moves": "Ходы",
        "opponent_to_move": "Ходит {name}",
    },
    "eu": {
        "rules_title": "Nola jokatu Svoi Kozyri",
        "jack_of_hearts": "txanka bihotza",
        "spades": "pikak",
        "hearts": "bihotzak",
        "take": "Hartu 5 karta",
        "pile": "6 karta pilan",
        "trump_0": "Tronfoa: pikak",
        "trump_1": "Tronfoa: bihotzak",
        "status": "Zure txanda: gainditu goiko karta edo hartu",
        "seven_of_clubs": "zazpiko hirusta",
        "moves": "Jokaldiak",
        "opponent_to_move": "Txanda: {name}",
    },
}
BROWSER_LOCALE = {"en": "en-US", "pl": "pl-PL", "ru": "ru-RU", "eu": "eu-ES"}
# A 1+1 game's first move took 51.2 s: the mover's clock then reads 9.8 s (with its tenths).
TIMES: dict[str, dict[str, str]] = {
    "en": {"clock": "0:09.8", "spent": "51.2 sec",
           "time_control": "1 minute, plus 1 second a move"},
    "pl": {"clock": "0:09,8", "spent": "51,2 sek.",
           "time_control": "1 minuta plus 1 sekunda na ruch"},
    "ru": {"clock": "0:09,8", "spent": "51,2 с",  # noqa: RUF001
           "time_control": "1 минута плюс 1 секунда за ход"},
    # Chromium's Intl has no Basque numbers: they are written as Spanish ones (decimal comma).
    "eu": {"clock": "0:09,8", "spent": "51,2 s",
           "time_control": "1 minutu, gehi 1 segundo jokaldiko"},
}


@pytest.fixture(scope="module", autouse=True)
def _catalogues_compiled() -> None:
    """`make test` compiles the catalogues; this keeps `pytest tests/browser` alone right too."""
    call_command("compilemessages", ignore_patterns=[".venv", "tests"], verbosity=0)


@pytest.fixture(scope="module", autouse=True)
def _servers_then_orm(
    _catalogues_compiled: None, asgi_server: ManagedProcess, celery_worker: ManagedProcess,
    orm_beside_playwright: None,
) -> None:
    """Start the servers first, then let the ORM run beside sync Playwright's event loop."""


@pytest.fixture
def make_user() -> Callable[..., Any]:
    numbers = iter(range(1, 1000))

    def make(name: str, language: str = "") -> Any:
        user = get_user_model().objects.create_user(
            f"{name}{next(numbers)}", password="pw-Xk39-long"
        )
        user.language = language
        user.save(update_fields=["language"])
        return user

    return make


@pytest.fixture
def open_page(new_page: Callable[..., Any], asgi_server: ManagedProcess) -> Callable[..., Any]:
    """A page in a browser whose preferred language is `locale`, logged in as `user` if given."""

    def open_as(user: Any = None, locale: str = "en-US", **options: Any) -> Any:
        page = new_page(locale=locale, **options)
        if user is not None:
            client = Client()
            client.force_login(user)
            page.context.add_cookies([{
                "name": "sessionid", "value": client.cookies["sessionid"].value,
                "url": asgi_server.extra["url"],
            }])
        return page

    return open_as


def trump_words(page: Any, seat: int) -> Any:
    """The words of a seat's trump badge (beside the suit's symbol)."""
    return page.get_by_test_id(f"trump-{seat}").locator(".suit-words")


@pytest.mark.parametrize("language", list(WORDS))
def test_the_rules_page_in_the_browsers_language(open_page, language: str) -> None:
    words = WORDS[language]
    page = open_page(locale=BROWSER_LOCALE[language])
    page.goto("/rules/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("h1")).to_have_text(words["rules_title"])
    # The card pictures are drawn by the script, named with the translated labels.
    example = page.get_by_test_id("rules-example-beat")
    expect(example.locator('.card[data-card="JH"]')).to_have_attribute(
        "aria-label", words["jack_of_hearts"]
    )
    badges = page.locator(".rules .suit-badge .suit-words")
    expect(badges).to_have_text([words["spades"], words["hearts"]])
    expect(page.get_by_test_id("house-rules")).to_contain_text("2000")
    expect(page.get_by_test_id("language-select")).to_have_value(language)


@pytest.mark.parametrize("language", list(WORDS))
def test_the_game_page_in_the_players_saved_language(open_page, make_user, language: str) -> None:
    """The player chose the language once (saved on the account); the browser prefers English."""
    words = WORDS[language]
    alice, bob = make_user("alice", language=language), make_user("bob")
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], dealer=1, start_tpn=TAKE_FIVE
    )
    page = open_page(alice, locale="en-US")
    page.goto(f"/game/{match.pk}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(trump_words(page, 0)).to_have_text(words["trump_0"])
    expect(trump_words(page, 1)).to_have_text(words["trump_1"])
    expect(page.get_by_test_id("status")).to_have_text(words["status"])
    expect(page.get_by_test_id("pile-count")).to_have_text(words["pile"])
    expect(page.locator('[data-part=bottom] button.card[data-card="7C"]')).to_have_attribute(
        "aria-label", words["seven_of_clubs"]
    )
    expect(page.locator(".moves-title")).to_have_text(words["moves"])
    take = page.get_by_test_id("take")
    expect(take).to_have_text(words["take"])

    take.click()
    expect(page.locator("#game")).to_have_attribute("data-ply", "1")
    expect(page.get_by_test_id("status")).to_have_text(
        words["opponent_to_move"].format(name=bob.username)
    )


def test_switching_language_keeps_the_page(open_page) -> None:
    page = open_page(locale="en-US")
    page.goto("/rules/?from=footer")
    expect(page.locator("h1")).to_have_text(WORDS["en"]["rules_title"])
    address = page.url
    for language in ("pl", "ru", "eu", "en"):
        page.get_by_test_id("language-select").select_option(language)
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("h1")).to_have_text(WORDS[language]["rules_title"])
        assert page.url == address
    # The visitor's choice stays on the next page, whatever the browser prefers.
    page.get_by_test_id("language-select").select_option("ru")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "ru")


def test_switching_without_javascript_uses_the_button(open_page) -> None:
    page = open_page(locale="en-US", java_script_enabled=False)
    page.goto("/rules/?from=footer")
    address = page.url
    page.get_by_test_id("language-select").select_option("pl")
    page.get_by_test_id("language-submit").click()
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    assert page.url == address


def test_a_player_switches_in_a_game_and_keeps_the_choice_everywhere(
    open_page, make_user
) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(
        players=[Player(user=alice), Player(user=bob)], dealer=1, start_tpn=TAKE_FIVE
    )
    page = open_page(alice, locale="pl-PL")
    page.goto(f"/game/{match.pk}/")
    expect(page.get_by_test_id("take")).to_have_text(WORDS["pl"]["take"])
    address = page.url

    page.get_by_test_id("language-select").select_option("ru")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    assert page.url == address
    expect(page.get_by_test_id("take")).to_have_text(WORDS["ru"]["take"])
    alice.refresh_from_db()
    assert alice.language == "ru"

    # Another device, with a browser that prefers Basque: the saved choice wins.
    elsewhere = open_page(alice, locale="eu-ES")
    elsewhere.goto(f"/game/{match.pk}/")
    expect(elsewhere.locator("html")).to_have_attribute("lang", "ru")
    expect(trump_words(elsewhere, 0)).to_have_text(WORDS["ru"]["trump_0"])


def text_of(locator: Any) -> str:
    """The text as read, with Intl's no-break spaces ("51,2\u00a0s") as plain ones."""
    return str(locator.inner_text()).replace("\u00a0", " ").strip()


@pytest.mark.parametrize("language", list(TIMES))
def test_the_replay_writes_clocks_and_seconds_the_languages_way(
    open_page, make_user, language: str
) -> None:
    # Played from now on, as the replay tests do: no flag deadline of it falls in the past.
    match = play_match([Player(user=make_user("alice")), Player(user=make_user("bob"))],
                       moves=2, spent=[51_200, 2_500], end="resign",
                       time_control=TimeControl(60, 1), start=timezone.now())
    first = replay_of_match(match=match).data["positions"][1]
    assert (first["spent"], first["clocks"][first["seat"]]) == (51_200, 9_800)
    words = TIMES[language]
    page = open_page(locale=BROWSER_LOCALE[language])
    page.goto(f"/game/{match.pk}/replay?ply=1")
    page.wait_for_selector("[data-testid=replay][data-ready=true]")
    expect(page.locator("html")).to_have_attribute("lang", language)
    clock = page.locator(f"#replay-board [data-clock='{first['seat']}']")
    expect(clock).to_have_count(1)
    assert text_of(clock) == words["clock"]
    assert words["spent"] in text_of(page.get_by_test_id("spent"))
    time_control = page.get_by_test_id("time-control")
    expect(time_control).to_have_text("1+1")
    expect(time_control).to_have_attribute("title", words["time_control"])


def test_the_language_chosen_in_the_settings_follows_the_player(open_page, make_user) -> None:
    """Chosen on the settings page, the language is the player's on any device, whatever its
    browser prefers; the footer's switch changes the same setting."""
    alice = make_user("alice")
    page = open_page(alice, locale="en-US")
    page.goto("/accounts/settings/")
    page.get_by_test_id("settings-language").select_option("ru")
    page.get_by_test_id("language-save").click()
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("h1")).to_have_text("Настройки учётной записи")
    expect(page.get_by_test_id("settings-language")).to_have_value("ru")
    alice.refresh_from_db()
    assert alice.language == "ru"

    elsewhere = open_page(alice, locale="eu-ES")
    elsewhere.goto("/rules/")
    expect(elsewhere.locator("html")).to_have_attribute("lang", "ru")

    page.get_by_test_id("language-select").select_option("pl")
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(page.get_by_test_id("settings-language")).to_have_value("pl")
    elsewhere.reload()
    expect(elsewhere.locator("html")).to_have_attribute("lang", "pl")

