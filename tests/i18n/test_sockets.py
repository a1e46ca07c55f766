"""The site's socket on a real daphne refuses in the language a page would be in: the
player's saved language, else the footer's cookie, else the browser's (the limits shared by
every socket, such as a message nested too deeply, too). The game's socket sends codes: the
board has words for each, in every language."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from django.test import Client
from django.utils import translation

from accounts.services import user_create
from games.play import errors
from games.play.views import board_labels
from infra import ws_limits

pytestmark = pytest.mark.django_db(transaction=True)


async def refusal(server, message: str, **headers: str) -> dict:  # type: ignore[no-untyped-def]
    url = server.extra["url"]
    socket = await websockets.connect(
        f"{url.replace('http', 'ws')}/ws/site/", origin=url, additional_headers=headers
    )
    try:
        await socket.send(message)
        while True:  # a signed-in player's socket first sends their notifications, friends
            answer = json.loads(await asyncio.wait_for(socket.recv(), 10))
            if answer["type"] not in ("notifications", "friends"):
                return answer
    finally:
        await socket.close()


def test_the_site_socket_refuses_in_the_language_of_the_pages(asgi_server) -> None:
    staff = user_create(username="announcer", email="a@example.com", password="x-Pw-4471-q")
    staff.is_staff = True
    staff.language = "ru"
    staff.save(update_fields=["is_staff", "language"])
    client = Client()
    client.force_login(staff)
    session = f"sessionid={client.cookies['sessionid'].value}"
    announce = json.dumps({"type": "announce", "text": "hello"})
    too_long = json.dumps({"type": "announce", "text": "x" * 501})

    async def scenario():
        return (
            await refusal(asgi_server, announce, **{"Accept-Language": "pl-PL,pl;q=0.9"}),
            await refusal(asgi_server, "not json", Cookie="django_language=eu",
                          **{"Accept-Language": "pl"}),
            await refusal(asgi_server, too_long, Cookie=session, **{"Accept-Language": "eu"}),
            await refusal(asgi_server, "[" * 40 + "]" * 40, **{"Accept-Language": "ru"}),
        )

    visitor, basque, staff_refused, nested = asyncio.run(scenario())

    assert visitor == {"type": "error", "code": "forbidden",
                       "detail": "Ogłoszenia mogą publikować tylko administratorzy strony."}
    assert (basque["code"], basque["detail"]) == ("bad_json", "Zerbitzariak ez du hori ulertu.")
    assert (staff_refused["code"], staff_refused["detail"]) == (
        "invalid", "В объявлении должно быть от 1 до 500 символов.")  # noqa: RUF001
    assert (nested["code"], nested["detail"]) == ("bad_message", "Сервер не понял запрос.")


def socket_codes() -> set[str]:
    """Every code the game's socket can refuse with: the play errors and the limits'."""
    play = {value for name, value in vars(errors).items()
            if name.isupper() and isinstance(value, str)}
    return play | {ws_limits.RATE_LIMITED, ws_limits.UNAVAILABLE}


@pytest.mark.parametrize("language", ["pl", "ru", "eu"])
def test_every_refusal_of_the_game_socket_has_translated_words(language: str) -> None:
    english = board_labels()["errors"]
    assert socket_codes() <= set(english), "codes without words on the board"
    with translation.override(language):
        translated = board_labels()["errors"]
    untranslated = [code for code in socket_codes() if translated[code] == english[code]]
    assert not untranslated
