"""The reference bot: our AI on a site of Your Trumps, over the Bot API alone.

    python -m games.ai.bot --token TOKEN --url https://site --level 4
        [--challenge NAME [--time-control 3+2] [--rated]] [--games N] [--quiet]

It needs nothing of the site's code: the standard library's HTTP client, the rules
(`games.rules`) and the AI (`games.ai`). It is the example for engine authors, and the test of
the API (docs/api.md):

- the account's event stream (`GET /api/stream/event`): every challenge to it is accepted,
  every game that starts is played in a thread of its own; with `--challenge` it challenges
  that player (a person or a bot) and again after each game, until `--games` are played;
- a game's stream (`GET /api/bot/game/stream/ID`): on each state where it is to act it
  chooses a trump (a free suit at random) or a move (`games.ai.choose_move` at its level,
  from what the state shows it: the seat's own view, hidden cards as `?N`) and posts it
  with the ply it saw, so that a late answer to an old state is refused, never played.

A stream that breaks (a server restarted) is opened again after a short wait: the server
sends the present first, so nothing is missed. Exit status 0 once `--games` games have
ended, 2 for a bad argument or a token the site refuses.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.client import HTTPException
from typing import Any

from games.ai import LEVELS, choose_move, level_budget
from games.rules import Observation, State
from games.rules.state import PositionKey

RECONNECT_SECONDS = (0.5, 1.0, 2.0, 4.0)
READ_TIMEOUT = 30.0  # the site sends an empty line every few seconds
OVER = ("finished", "aborted")


class Refused(Exception):
    """The site answered an error: its status, code and sentence."""

    def __init__(self, status: int, code: str, detail: str, retry_after: float = 0) -> None:
        super().__init__(f"{status} {code}: {detail}")
        self.status = status
        self.code = code
        self.retry_after = retry_after


class Site:
    """The Bot API of one site, for one token."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url.rstrip("/")
        self.token = token

    def _request(self, path: str, method: str = "GET",
                 form: dict[str, str] | None = None) -> urllib.request.Request:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        return request

    def post(self, path: str, form: dict[str, str] | None = None) -> dict[str, Any]:
        try:
            with urllib.request.urlopen(self._request(path, "POST", form or {}),
                                        timeout=READ_TIMEOUT) as response:
                answer: dict[str, Any] = json.loads(response.read())
                return answer
        except urllib.error.HTTPError as error:
            raise _refusal(error) from None

    def get(self, path: str) -> dict[str, Any]:
        try:
            with urllib.request.urlopen(self._request(path), timeout=READ_TIMEOUT) as response:
                answer: dict[str, Any] = json.loads(response.read())
                return answer
        except urllib.error.HTTPError as error:
            raise _refusal(error) from None

    def stream(self, path: str) -> Iterator[dict[str, Any] | None]:
        """The objects of an NDJSON stream, until the server ends it; None for each
        keep-alive line. Raises OSError (or HTTPException) when the connection breaks."""
        try:
            response = urllib.request.urlopen(self._request(path), timeout=READ_TIMEOUT)
        except urllib.error.HTTPError as error:
            raise _refusal(error) from None
        with response:
            for raw in response:
                yield json.loads(raw) if raw.strip() else None


def _refusal(error: urllib.error.HTTPError) -> Refused:
    try:
        body = json.loads(error.read())
    except ValueError:
        body = {}
    retry = float(error.headers.get("Retry-After") or 0)
    return Refused(error.code, str(body.get("error", "")), str(body.get("detail", "")), retry)


def position_of(state: dict[str, Any]) -> State | Observation:
    """The position a state shows its seat: the whole duel (both hands are open), or at a
    table of 3-4 the seat's observation, with the cards it cannot know as `?N`."""
    seats = state["seats"]
    hands = []
    for seat in seats:
        cards = "".join(seat["hand"] or [])
        hidden = f"?{seat['hidden']}" if seat["hidden"] else ""
        hands.append(cards + hidden or "-")
    out = sorted((seat for seat in seats if seat["place"] is not None and not seat["hand_size"]),
                 key=lambda seat: seat["place"])
    tpn = " ".join([
        "".join(seat["trump"] for seat in seats),
        "/".join(hands),
        "".join(state["pile"]) or "-",
        str(state["to_move"]),
        "".join(str(seat["index"]) for seat in out) or "-",
    ])
    strict = state["variant"] == "strict"
    if "?" in tpn:
        return Observation.from_tpn(tpn, seat=state["you"], strict=strict)
    return State.from_tpn(tpn, strict=strict)


class Bot:
    def __init__(self, site: Site, level: int, *, quiet: bool = False) -> None:
        self.site = site
        self.level = level
        self.quiet = quiet
        self.rng = random.Random()
        self.name = ""
        self.playing: set[int] = set()
        self.finished: set[int] = set()
        self.lock = threading.Lock()
        self.done = threading.Event()

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, file=sys.stderr, flush=True)

    # --- the event stream ------------------------------------------------------------------

    def run(self, *, challenge: str | None, time_control: str, rated: bool,
            games: int | None) -> None:
        self.name = str(self.site.get("/api/account")["name"])
        attempt = 0
        challenged = False
        while not self.done.is_set():
            try:
                for event in self.site.stream("/api/stream/event"):
                    attempt = 0
                    if challenge is not None and not challenged:
                        challenged = self._challenge(challenge, time_control, rated)
                    if event is None:
                        continue
                    kind = event["type"]
                    if kind == "challenge":
                        self._answer(event["challenge"])
                    elif kind == "gameStart":
                        self._start(int(event["game"]["id"]))
                    elif kind == "gameFinish":
                        self._finished(int(event["game"]["id"]), games)
                        if challenge is not None and not self.done.is_set():
                            challenged = self._challenge(challenge, time_control, rated)
                    if self.done.is_set():
                        return
            except (OSError, HTTPException, ValueError) as error:
                self.say(f"event stream broken ({error}); reconnecting")
            time.sleep(RECONNECT_SECONDS[min(attempt, len(RECONNECT_SECONDS) - 1)])
            attempt += 1

    def _challenge(self, name: str, time_control: str, rated: bool) -> bool:
        with self.lock:
            if self.playing:
                return False
        try:
            made = self.site.post(f"/api/challenge/{urllib.parse.quote(name)}",
                                  {"time_control": time_control,
                                   "rated": "true" if rated else "false"})
        except Refused as error:
            self.say(f"challenge refused: {error}")
            if error.retry_after:
                time.sleep(error.retry_after)
            return False
        self.say(f"challenged {name}: {made['id']}")
        return True

    def _answer(self, challenge: dict[str, Any]) -> None:
        if challenge["challenger"]["name"] == self.name:
            return  # our own, waiting for its answer
        try:
            self.site.post(f"/api/challenge/{challenge['id']}/accept")
        except Refused as error:
            self.say(f"could not accept {challenge['id']}: {error}")

    def _start(self, game_id: int) -> None:
        with self.lock:
            if game_id in self.playing or game_id in self.finished:
                return
            self.playing.add(game_id)
        threading.Thread(target=self.play, args=(game_id,), name=f"game-{game_id}",
                         daemon=True).start()

    def _finished(self, game_id: int, games: int | None) -> None:
        with self.lock:
            self.finished.add(game_id)
            self.playing.discard(game_id)
            count = len(self.finished)
        self.say(f"game {game_id} over ({count} played)")
        if games is not None and count >= games:
            self.done.set()

    # --- one game --------------------------------------------------------------------------

    def play(self, game_id: int) -> None:
        acted = -1  # the version of the last state acted on
        history: list[PositionKey] = []
        attempt = 0
        while True:
            try:
                for state in self.site.stream(f"/api/bot/game/stream/{game_id}"):
                    attempt = 0
                    if state is None:
                        continue
                    if state["status"] in OVER:
                        return
                    if state["version"] > acted and self._act(game_id, state, history):
                        acted = state["version"]
                # The server ends the stream after a game's last state; an end before that
                # is a connection cut short (a server stopped): open it again.
                self.say(f"game {game_id} stream ended early; reconnecting")
            except Refused as error:
                self.say(f"game {game_id}: {error}")
                return
            except (OSError, HTTPException, ValueError) as error:
                self.say(f"game {game_id} stream broken ({error}); reconnecting")
            time.sleep(RECONNECT_SECONDS[min(attempt, len(RECONNECT_SECONDS) - 1)])
            attempt += 1

    def _act(self, game_id: int, state: dict[str, Any], history: list[PositionKey]) -> bool:
        """Act on the state if it is this seat's turn; True if it acted (or need not)."""
        you = state["you"]
        choice = state.get("trump_choice")
        if state["status"] == "trumps" and choice is not None and choice["chooser"] == you:
            return self._send(f"/api/bot/game/{game_id}/trump/{self.rng.choice(choice['free'])}")
        if state["status"] != "playing":
            return True
        position = position_of(state)
        if isinstance(position, State):
            history.append(position.key())
        if state["to_move"] != you or not state["legal_moves"]:
            return True
        move = str(choose_move(position, self.level, movetime=self._movetime(state),
                               rng=self.rng, history=tuple(history)))
        if move not in state["legal_moves"]:  # never: the rules are the site's
            move = state["legal_moves"][0]
        return self._send(f"/api/bot/game/{game_id}/move/{move}?ply={state['ply']}")

    def _movetime(self, state: dict[str, Any]) -> float:
        budget = level_budget(self.level, state["n_players"])
        clock = state["seats"][state["you"]]["clock_ms"]
        if clock is None:
            return budget
        return max(0.05, min(budget, float(clock) / 1000 / 30))

    def _send(self, path: str) -> bool:
        try:
            self.site.post(path)
        except Refused as error:
            if error.status == 429:
                time.sleep(error.retry_after or 1)
                return False  # try again on the next state
            # A state moved on meanwhile (stale ply, not our turn): the stream brings the next.
            self.say(f"{path}: {error}")
        return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.ai.bot",
                                     description="Our AI on a site, over its Bot API.")
    parser.add_argument("--token", required=True, help="a bot account's token (bot:play, "
                        "challenge:write)")
    parser.add_argument("--url", required=True, help="the site, e.g. https://example.org")
    parser.add_argument("--level", type=int, default=4, choices=[level.number for level in LEVELS])
    parser.add_argument("--challenge", metavar="NAME", help="challenge this player")
    parser.add_argument("--time-control", default="3+2")
    parser.add_argument("--rated", action="store_true")
    parser.add_argument("--games", type=int, help="stop after this many games")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if not args.url.startswith(("http://", "https://")):
        parser.error("--url must start with http:// or https://")
    bot = Bot(Site(args.url, args.token), args.level, quiet=args.quiet)
    try:
        bot.run(challenge=args.challenge, time_control=args.time_control, rated=args.rated,
                games=args.games)
    except Refused as error:
        print(f"the site refused: {error}", file=sys.stderr)
        return 2
    except (OSError, HTTPException) as error:  # before the first stream: nothing to resume
        print(f"cannot reach the site: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
