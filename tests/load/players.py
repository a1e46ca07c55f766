"""The bots of the load tool: each plays one seat over a real match socket, with think time.

A player connects to one of the servers, plays until the game ends (then offers a rematch and
follows it to the new match) or until the run's end. If its socket breaks it reconnects, to the
next server in its list, and carries on from the state it is sent: a move that was in flight
when the socket broke is found in the move list if it was played, and sent again if not.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from dataclasses import dataclass
from typing import Any

import websockets

from tests.load.client import MatchClient
from tests.load.stats import Stats

RECONNECT_PAUSE = 0.5
CONNECT_ATTEMPTS = 60  # with the pause: half a minute to find a live server
REPLY_TIMEOUT = 20.0
SLOW_AI_REPORT = float(os.environ.get("LOAD_SLOW_AI_REPORT", "inf"))  # seconds


@dataclass
class Seat:
    """One bot's place: the match it plays now, its seat, and how it reaches the servers."""

    match_id: int
    seat: int
    cookie: str
    servers: list[str]
    server_index: int = 0
    ai_level: int | None = None  # the opponent's level, in a game against the AI
    table_ai_level: int | None = None  # the AI seats' level, at a table of one person


@dataclass
class Timing:
    think_min: float
    think_max: float
    stop_at: float  # time.monotonic() after which no new move is started
    rematch: bool = True
    max_games: int = 1_000_000
    ramp: float = 0.0  # the players start spread over this many seconds
    measure_from: float = 0.0  # time.monotonic() from which latencies are recorded


class Broken(Exception):
    """The socket closed or stopped answering: reconnect."""


class Player:
    def __init__(self, place: Seat, timing: Timing, stats: Stats, rng: random.Random,
                 seen: dict[tuple[int, int], float] | None = None) -> None:
        self.place = place
        self.timing = timing
        self.stats = stats
        self.rng = rng
        self.client: MatchClient | None = None
        # (match, ply) -> when its mover sent it: the opponent in this process reports when
        # the new state reached it (the move's delivery across processes).
        self.sent_at = seen if seen is not None else {}
        self.pending: tuple[int, str] | None = None  # (ply, move) sent, no reply yet
        # (the ply the AI's answer makes, since when: None until our move's "ok" arrives)
        self.ai_wait_from: tuple[int, float | None] | None = None
        self.last_ok_at: float | None = None
        # At a table of one person: the ply and arrival of the last state (an AI seat's move
        # took from there to the state of the next ply).
        self.last_state: tuple[int, int, float] | None = None
        self.games = 0

    @property
    def counts_games(self) -> bool:
        """One player of each game counts it: seat 0 of a duel, the human against the AI."""
        return self.place.seat == 0 or self.place.ai_level is not None

    def count_game(self) -> None:
        if self.counts_games:
            self.stats.games_started += 1

    # --- connection ----------------------------------------------------------------------

    async def connect(self) -> None:
        last: Exception | None = None
        for attempt in range(CONNECT_ATTEMPTS):
            url = self.place.servers[self.place.server_index % len(self.place.servers)]
            try:
                self.client = await MatchClient.open(url, self.place.match_id, self.place.cookie,
                                                     max_size=2**22)
                self.stats.opened()
                return
            except (OSError, websockets.exceptions.WebSocketException, TimeoutError) as error:
                last = error
                self.stats.errors[f"connect:{type(error).__name__}"] += 1
                self.place.server_index += 1
                # Exponential back-off with jitter: retrying at once into an overloaded server
                # is what turns an overload into a collapse.
                pause = min(10.0, RECONNECT_PAUSE * 2**attempt)
                await asyncio.sleep(pause * self.rng.uniform(0.5, 1.5))
        raise RuntimeError(f"no server accepted match {self.place.match_id}: {last}")

    async def disconnect(self) -> None:
        if self.client is not None:
            client, self.client = self.client, None
            self.stats.closed()
            with contextlib.suppress(Exception):
                await client.close()

    async def read(self, timeout: float) -> dict[str, Any] | None:
        """The next message (observed), or None if none came within `timeout`."""
        assert self.client is not None
        try:
            message = await self.client.recv(timeout)
        except TimeoutError:
            return None
        except (websockets.exceptions.ConnectionClosed, OSError) as error:
            raise Broken(type(error).__name__) from error
        if message.get("type") == "ok":
            self.last_ok_at = time.monotonic()
        self.observe(message)
        return message

    async def recv(self, timeout: float = REPLY_TIMEOUT) -> dict[str, Any]:
        """The next message; a socket silent for `timeout` counts as broken."""
        message = await self.read(timeout)
        if message is None:
            raise Broken("TimeoutError")
        return message

    async def send(self, message: dict[str, Any]) -> None:
        assert self.client is not None
        try:
            await self.client.send(message)
        except (websockets.exceptions.ConnectionClosed, OSError) as error:
            raise Broken(type(error).__name__) from error

    def observe(self, message: dict[str, Any]) -> None:
        if message.get("type") != "state":
            return
        now = time.monotonic()
        ply, you = message["ply"], message["you"]
        last = message.get("last_move")
        if self.place.table_ai_level is not None:
            self.observe_table_ai(message, now)
        if last is not None and last["seat"] != you:
            sent = self.sent_at.pop((message["id"], last["ply"]), None)
            if sent is not None and sent >= self.timing.measure_from:
                self.stats.seen_by_opponent.append(now - sent)
        if self.ai_wait_from is not None:
            target, since = self.ai_wait_from
            # The AI's answer may come in the very state that follows our "ok".
            since = since if since is not None else self.last_ok_at
            if since is not None and (ply >= target or message["result"] is not None):
                if ply >= target and self.place.ai_level is not None and (
                    since >= self.timing.measure_from
                ):
                    self.stats.ai_latency.setdefault(self.place.ai_level, []).append(now - since)
                    if now - since > SLOW_AI_REPORT:
                        print(f"slow AI move: match {message['id']} ply {target} took "
                              f"{now - since:.2f} s (at {time.time():.3f})", flush=True)
                self.ai_wait_from = None

    def observe_table_ai(self, message: dict[str, Any], now: float) -> None:
        before, self.last_state = self.last_state, (message["id"], message["ply"], now)
        last = message.get("last_move")
        if before is None or last is None or before[0] != message["id"]:
            return
        if message["ply"] == before[1] + 1 and message["seats"][last["seat"]]["kind"] == "ai" \
                and before[2] >= self.timing.measure_from:
            self.stats.table_ai_latency.append(now - before[2])

    # --- play ----------------------------------------------------------------------------

    async def run(self) -> None:
        # Spread the starts over the ramp, if there is one, duel by duel: the players of a
        # match arrive together (as after a pairing), a moment apart.
        spread = max(self.timing.ramp, self.timing.think_max)
        start = random.Random(self.place.match_id).uniform(0, spread)
        await asyncio.sleep(start + self.rng.uniform(0, min(1.0, spread / 10)))
        self.count_game()
        while True:
            try:
                if self.client is None:
                    await self.connect()
                    self.reconcile()
                more = await self.play_game()
            except Broken as error:
                self.stats.errors[f"socket:{error}"] += 1
                self.stats.reconnects += 1
                await self.disconnect()
                self.place.server_index += 1
                continue
            if not more:
                break
        if time.monotonic() >= self.timing.stop_at:
            # The run is over: stay until every player has stopped (one who was thinking
            # still plays its move), so that no measured move meets the others' leaving.
            await asyncio.sleep(self.timing.stop_at + self.timing.think_max + 2
                                - time.monotonic())
        await self.disconnect()

    def reconcile(self) -> None:
        """After a reconnect: was the move in flight played? (It is in the move list if so.)"""
        if self.pending is None or self.client is None or self.client.state is None:
            return
        ply, move = self.pending
        moves = self.client.state["moves"]
        if len(moves) > ply and moves[ply] == [self.place.seat, move]:
            self.stats.applied_unacked.append((self.place.match_id, ply + 1, self.place.seat,
                                               move))
        self.pending = None

    async def play_game(self) -> bool:
        """Play on until the game ends (True: go on with the rematch) or the run ends."""
        assert self.client is not None
        while True:
            state = self.client.state
            assert state is not None
            if state["result"] is not None:
                if self.counts_games:
                    self.stats.games_finished += 1
                self.games += 1
                return await self.follow_rematch()
            if time.monotonic() >= self.timing.stop_at:
                return False
            if state["status"] == "trumps":
                choice = state["trump_choice"] or {}
                if choice.get("chooser") == state["you"]:
                    await self.think()
                    if self.client.state is state:  # nothing changed meanwhile
                        await self.act({"type": "trump",
                                        "suit": self.rng.choice(choice["free"])})
                    continue
            elif state["to_move"] == state["you"] and state["legal_moves"]:
                await self.think()
                if self.client.state is state:  # nothing changed meanwhile
                    await self.move(state)
                continue
            await self.wait_for_others()

    def patience(self) -> float:
        """How long to wait for the others: REPLY_TIMEOUT, and once the run is over only
        until every player has made its last move (the others stop too)."""
        now = time.monotonic()
        if now < self.timing.stop_at:
            return REPLY_TIMEOUT
        return max(0.1, self.timing.stop_at + self.timing.think_max + 1 - now)

    async def wait_for_others(self) -> None:
        """Read until the others' move (or the AI's) arrives. After a long quiet (a player who
        has not come back, or a state the channel layer dropped) ask for the state, as the
        browser does, before counting the socket as broken."""
        if await self.read(self.patience()) is not None:
            return
        if time.monotonic() >= self.timing.stop_at:
            return  # the run is over and the others have stopped
        self.stats.quiet_syncs += 1
        await self.send({"type": "sync"})
        await self.recv()  # the state (or the news that came meanwhile)

    async def think(self) -> None:
        """Think, reading what arrives meanwhile (so the state stays fresh)."""
        assert self.client is not None
        deadline = time.monotonic() + self.rng.uniform(self.timing.think_min,
                                                       self.timing.think_max)
        while (remaining := deadline - time.monotonic()) > 0:
            if await self.read(remaining) is None:
                return

    async def move(self, state: dict[str, Any]) -> None:
        move = self.rng.choice(state["legal_moves"])
        ply = state["ply"]
        sent = time.monotonic()
        self.pending = (ply, move)
        self.sent_at[(state["id"], ply + 1)] = sent
        self.last_ok_at = None
        if self.place.ai_level is not None:
            self.ai_wait_from = (ply + 2, None)
        reply = await self.act({"type": "move", "move": move, "ply": ply})
        self.pending = None
        if reply["type"] == "ok":
            assert self.last_ok_at is not None
            if sent >= self.timing.measure_from:
                self.stats.move_rtt.append(self.last_ok_at - sent)
                self.stats.move_sent_at.append(sent)
            self.stats.acks.append((state["id"], ply + 1, state["you"], move))
            self.stats.moved(self.last_ok_at)
        else:
            self.sent_at.pop((state["id"], ply + 1), None)
            self.ai_wait_from = None

    async def act(self, message: dict[str, Any]) -> dict[str, Any]:
        await self.send(message)
        while True:
            reply = await self.recv()
            if reply["type"] == "ok" and reply.get("for") == message["type"]:
                # The new state follows the ok: play on from it, not from the old one.
                while self.client.state is None or (
                    self.client.state["version"] < reply["version"]
                ):
                    await self.recv()
                return reply
            if reply["type"] == "error":
                self.stats.errors[f"{message['type']}:{reply['code']}"] += 1
                return reply

    async def follow_rematch(self) -> bool:
        """Offer a rematch and move to the new match once both agreed (the AI always does)."""
        if not self.timing.rematch or self.games >= self.timing.max_games or (
            time.monotonic() >= self.timing.stop_at
        ):
            return False
        assert self.client is not None
        state = self.client.state
        assert state is not None
        deadline = time.monotonic() + 30
        if state.get("rematch_id") is None:
            reply = await self.act({"type": "rematch"})
            if reply["type"] == "ok" and reply.get("match_id"):
                state = {**state, "rematch_id": reply["match_id"]}
            else:
                # The other's acceptance may have come with the state that followed our ok.
                state = self.client.state
        while (state.get("rematch_id") is None) and time.monotonic() < deadline:
            if await self.read(self.patience()) is None:
                if time.monotonic() >= self.timing.stop_at:
                    return False  # the run ended before the other offered the rematch
                raise Broken("TimeoutError")
            state = self.client.state
            assert state is not None
        if state.get("rematch_id") is None:
            self.stats.errors["rematch:timeout"] += 1
            return False
        await self.disconnect()
        self.place.match_id = int(state["rematch_id"])
        self.count_game()
        await self.connect()
        return True
