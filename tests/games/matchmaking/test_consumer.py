"""The lobby socket on a real daphne (PostgreSQL, Redis): pools, seeks, being told of a match."""

from __future__ import annotations

import asyncio
import time

import pytest

from games.matchmaking import services, tables
from games.matchmaking.errors import MatchmakingError
from games.play.models import Seat
from tests.games.matchmaking.conftest import wait_until_servers_are_quiet
from tests.games.matchmaking.sockets import LobbySocket
from tests.games.sockets import session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lobby_settled():
    """After the test: let the servers finish handling the closed sockets (see
    `wait_until_servers_are_quiet`)."""
    yield
    wait_until_servers_are_quiet()


def test_two_players_joining_a_pool_are_both_sent_to_one_match(
    asgi_server, make_player, lobby_settled
):
    anna, boris = make_player("anna", 1500), make_player("boris", 1520)
    url = asgi_server.extra["url"]
    cookie_a, cookie_b = session_cookie_for(anna), session_cookie_for(boris)

    async def scenario():
        a = await LobbySocket.open(url, cookie_a)
        b = await LobbySocket.open(url, cookie_b)
        try:
            await a.next("lobby")
            await b.next("lobby")
            await a.send({"type": "pool_join", "pool": "3+2"})
            searching = await a.next("lobby")
            while searching["me"]["searching"] is None:
                searching = await a.next("lobby")
            await b.send({"type": "pool_join", "pool": "3+2"})
            return searching, await a.next("paired"), await b.next("paired")
        finally:
            await a.close()
            await b.close()

    searching, paired_a, paired_b = asyncio.run(scenario())

    assert searching["me"]["searching"]["pool"] == "3+2"
    assert paired_a["match_id"] == paired_b["match_id"]
    assert paired_a["url"].endswith(f"/{paired_a['match_id']}/")
    assert set(Seat.objects.filter(match_id=paired_a["match_id"])
               .values_list("user__username", flat=True)) == {"anna", "boris"}


def test_a_seek_is_listed_live_and_vanishes_when_its_creator_leaves(
    asgi_server, make_player, lobby_settled
):
    anna, boris = make_player("anna"), make_player("boris")
    url = asgi_server.extra["url"]
    cookie_a, cookie_b = session_cookie_for(anna), session_cookie_for(boris)

    async def scenario():
        a = await LobbySocket.open(url, cookie_a)
        b = await LobbySocket.open(url, cookie_b)
        try:
            await a.next("lobby")
            await b.next("lobby")
            await a.send({"type": "seek_create", "time_control": "5+3", "rated": False})
            listed = await b.next("lobby")
            while not listed["seeks"]:
                listed = await b.next("lobby")
            await a.close()
            emptied = await b.next("lobby")
            while emptied["seeks"]:
                emptied = await b.next("lobby")
            return listed, emptied
        finally:
            await a.close()
            await b.close()

    listed, emptied = asyncio.run(scenario())

    [seek] = listed["seeks"]
    assert (seek["player"], seek["time_control"], seek["rated"]) == ("anna", "5+3", False)
    assert emptied["seeks"] == []


def test_refusals_come_back_as_errors_with_a_message(asgi_server, make_player, lobby_settled):
    anna = make_player("anna")
    url = asgi_server.extra["url"]
    cookie_a = session_cookie_for(anna)

    async def scenario():
        a = await LobbySocket.open(url, cookie_a)
        try:
            await a.next("lobby")
            await a.send({"type": "pool_join", "pool": "7+0"})
            unknown = await a.next("error")
            await a.send({"type": "fly"})
            bad = await a.next("error")
            return unknown, bad
        finally:
            await a.close()

    unknown, bad = asyncio.run(scenario())

    assert (unknown["code"], unknown["for"]) == ("unknown_time_control", "pool_join")
    assert unknown["detail"] == "There is no such time control."
    assert bad["code"] == "bad_message"


def test_a_visitor_is_refused(asgi_server):
    async def scenario():
        socket = await LobbySocket.open(asgi_server.extra["url"], "")
        try:
            return await socket.next("error")
        finally:
            await socket.close()

    assert asyncio.run(scenario())["code"] == "not_logged_in"


def test_a_bot_account_is_refused_the_lobby(asgi_server, make_player):
    bot = make_player("droid")
    bot.is_bot = True
    bot.save(update_fields=["is_bot"])
    cookie = session_cookie_for(bot)

    async def scenario():
        socket = await LobbySocket.open(asgi_server.extra["url"], cookie)
        try:
            return await socket.next("error")
        finally:
            await socket.close()

    refusal = asyncio.run(scenario())
    assert (refusal["code"], refusal["detail"]) == (
        "bot_account", "A bot account plays only through the API.")
    # Nor do the lobby's services take it, whatever the way in.
    for act in (lambda: services.pool_join(user=bot, pool="3+2"),
                lambda: services.seek_create(user=bot, time_control="3+2", rated=True),
                lambda: tables.table_create(user=bot, players=3, time_control="3+2",
                                            rated=False, public=True)):
        with pytest.raises(MatchmakingError, match="bot_account"):
            act()


def test_players_on_two_daphne_processes_are_paired_by_waves_their_sockets_drive(
    start_asgi_server, make_player, lobby_settled
):
    # A gap of 230: too wide at first (200), met once each has missed 2 waves (200 + 2 * 24).
    # No beat process runs: the waiting sockets ask for the waves.
    low, high = make_player("low", 1500), make_player("high", 1730)
    servers = [start_asgi_server(), start_asgi_server()]
    cookies = [session_cookie_for(low), session_cookie_for(high)]

    async def scenario():
        sockets = [await LobbySocket.open(server.extra["url"], cookie)
                   for server, cookie in zip(servers, cookies, strict=True)]
        try:
            for socket in sockets:
                await socket.next("lobby")
                await socket.send({"type": "pool_join", "pool": "5+3"})
            start = time.monotonic()
            paired = [await socket.next("paired", timeout=40) for socket in sockets]
            return paired, time.monotonic() - start
        finally:
            for socket in sockets:
                await socket.close()

    paired, waited = asyncio.run(scenario())

    assert paired[0]["match_id"] == paired[1]["match_id"]
    assert waited >= 5  # not at once: the range had to widen over two 3-second waves


def test_a_flood_of_messages_closes_the_lobby_socket(asgi_server, make_player, lobby_settled):
    import websockets

    cookie = session_cookie_for(make_player("flooder"))

    async def scenario():
        socket = await LobbySocket.open(asgi_server.extra["url"], cookie)
        try:
            await socket.next("lobby")
            for _ in range(200):  # understood messages, sent faster than the bucket refills
                await socket.send({"type": "sync"})
            while True:
                await socket.next("error")
        except websockets.exceptions.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None
        finally:
            await socket.close()

    assert asyncio.run(scenario()) == 4429


def test_junk_on_the_lobby_socket_closes_it_with_4008(asgi_server, make_player, lobby_settled):
    import websockets

    cookie = session_cookie_for(make_player("junker"))

    async def scenario():
        socket = await LobbySocket.open(asgi_server.extra["url"], cookie)
        try:
            await socket.next("lobby")
            for _ in range(20):
                await socket.send({"type": "fly"})
            while True:
                await socket.next("error")
        except websockets.exceptions.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None
        finally:
            await socket.close()

    assert asyncio.run(scenario()) == 4008


def test_the_lobby_sees_how_many_wait_in_each_pool(asgi_server, make_player, lobby_settled):
    anna, boris = make_player("anna"), make_player("boris")
    url = asgi_server.extra["url"]
    cookie_a, cookie_b = session_cookie_for(anna), session_cookie_for(boris)

    async def scenario():
        a = await LobbySocket.open(url, cookie_a)
        b = await LobbySocket.open(url, cookie_b)
        try:
            await a.next("lobby")
            await b.next("lobby")
            await a.send({"type": "pool_join", "pool": "10+5"})
            counts = await b.next("pools")
            while dict((p["key"], p["waiting"]) for p in counts["pools"])["10+5"] != 1:
                counts = await b.next("pools")
            await a.send({"type": "pool_leave"})
            while dict((p["key"], p["waiting"]) for p in counts["pools"])["10+5"] != 0:
                counts = await b.next("pools")
            return True
        finally:
            await a.close()
            await b.close()

    assert asyncio.run(scenario())


def test_refusals_are_in_the_players_language(asgi_server, make_player, lobby_settled):
    anna = make_player("anna")
    anna.language = "pl"
    anna.save(update_fields=["language"])
    cookie = session_cookie_for(anna)

    async def scenario():
        socket = await LobbySocket.open(asgi_server.extra["url"], cookie)
        try:
            await socket.next("lobby")
            await socket.send({"type": "pool_join", "pool": "7+0"})
            return await socket.next("error")
        finally:
            await socket.close()

    from django.utils import translation

    with translation.override("pl"):
        expected = translation.gettext("There is no such time control.")
    assert asyncio.run(scenario())["detail"] == expected


def test_without_a_saved_language_refusals_follow_the_cookie_then_the_browser(
    asgi_server, make_player, lobby_settled
):
    """As a page would: the footer's cookie, else the browser's Accept-Language (a visitor,
    who is refused at once, too)."""
    cookie = session_cookie_for(make_player("anna"))

    async def refusal(cookie: str, accept_language: str, message: dict | None) -> dict:
        socket = await LobbySocket.open(asgi_server.extra["url"], cookie,
                                        accept_language=accept_language)
        try:
            if message is None:
                return await socket.next("error")
            await socket.next("lobby")
            await socket.send(message)
            return await socket.next("error")
        finally:
            await socket.close()

    async def scenario():
        unknown = {"type": "pool_join", "pool": "7+0"}
        return (
            await refusal(cookie, "eu-ES,eu;q=0.9", unknown),
            await refusal(f"{cookie}; django_language=ru", "pl", {"type": "fly"}),
            await refusal("", "pl-PL", None),
        )

    basque, russian, visitor = asyncio.run(scenario())

    assert basque["detail"] == "Ez dago denbora-kontrol hori."
    assert (russian["code"], russian["detail"]) == ("bad_message", "Сервер не понял запрос.")
    assert (visitor["code"], visitor["detail"]) == (
        "not_logged_in", "Zaloguj się, aby grać partie rankingowe."
    )


def _wait_for(sock, predicate):
    async def waiting():
        lobby = sock.lobby
        while lobby is None or not predicate(lobby):
            lobby = await sock.next("lobby")
        return lobby

    return waiting()


def test_a_table_is_listed_live_as_people_sit_down_and_leave_and_starts_for_all(
    asgi_server, make_player, lobby_settled
):
    people = [make_player(name) for name in ("anna", "boris", "vera")]
    url = asgi_server.extra["url"]
    cookies = [session_cookie_for(user) for user in people]

    def seat_kinds(lobby):
        return [[seat["kind"] for seat in table["seats"]] for table in lobby["tables"]]

    async def scenario():
        a, b, v = [await LobbySocket.open(url, cookie) for cookie in cookies]
        try:
            for sock in (a, b, v):
                await sock.next("lobby")
            await a.send({"type": "table_create", "players": 3, "time_control": "untimed",
                          "rated": False, "public": True})
            listed = await _wait_for(b, lambda lobby: lobby["tables"])
            token = listed["tables"][0]["token"]
            await b.send({"type": "table_join", "table": token, "seat": 2})
            sat = await _wait_for(v, lambda lobby: seat_kinds(lobby) == [
                ["person", "empty", "person"]])
            mine = await _wait_for(b, lambda lobby: lobby["me"]["table"] is not None)
            await b.send({"type": "table_leave", "table": token})
            left = await _wait_for(v, lambda lobby: seat_kinds(lobby) == [
                ["person", "empty", "empty"]])
            await b.send({"type": "table_join", "table": token})
            await v.send({"type": "table_join", "table": token})
            paired = [await sock.next("paired") for sock in (a, b, v)]
            return listed, sat, mine, left, paired
        finally:
            for sock in (a, b, v):
                await sock.close()

    listed, sat, mine, left, paired = asyncio.run(scenario())

    assert listed["tables"][0]["creator"] == "anna"
    assert [s["player"] for s in sat["tables"][0]["seats"]] == ["anna", None, "boris"]
    assert mine["me"]["table"]["token"] == listed["tables"][0]["token"]
    assert mine["me"]["can_start"] is False
    assert left["tables"][0]["seats"][2]["player"] is None
    assert len({message["match_id"] for message in paired}) == 1
    seats = Seat.objects.filter(match_id=paired[0]["match_id"]).order_by("index")
    names = [seat.user.username for seat in seats]
    assert names[0] == "anna"  # the creator's seat; the other two sat down racing
    assert sorted(names[1:]) == ["boris", "vera"]


def test_the_creator_fills_a_private_table_with_the_ai_and_starts_it(
    asgi_server, make_player, lobby_settled
):
    anna, boris = make_player("anna"), make_player("boris")
    url = asgi_server.extra["url"]
    cookie_a, cookie_b = session_cookie_for(anna), session_cookie_for(boris)

    async def scenario():
        a = await LobbySocket.open(url, cookie_a)
        b = await LobbySocket.open(url, cookie_b)
        try:
            await a.next("lobby")
            await b.next("lobby")
            await a.send({"type": "table_create", "players": 4, "time_control": "1+1",
                          "rated": False, "public": False})
            own = await _wait_for(a, lambda lobby: lobby["me"]["table"] is not None)
            token = own["me"]["table"]["token"]
            await b.send({"type": "table_fill_ai", "table": token, "seat": 1, "level": 2})
            refused = await b.next("error")
            for seat in (1, 2, 3):
                await a.send({"type": "table_fill_ai", "table": token, "seat": seat,
                              "level": 2})
                await a.next("ok")
            ready = await _wait_for(a, lambda lobby: lobby["me"]["can_start"])
            await a.send({"type": "table_start", "table": token})
            paired = await a.next("paired")
            return own, refused, ready, paired, b.lobby
        finally:
            await a.close()
            await b.close()

    own, refused, ready, paired, seen_by_boris = asyncio.run(scenario())

    assert own["tables"] == []  # private: listed to nobody, shown to its creator
    assert seen_by_boris["tables"] == []
    assert refused["code"] == "not_creator"
    assert [s["kind"] for s in ready["me"]["table"]["seats"]] == ["person", "ai", "ai", "ai"]
    levels = list(Seat.objects.filter(match_id=paired["match_id"]).order_by("index")
                  .values_list("ai_level", flat=True))
    assert levels == [None, 2, 2, 2]
