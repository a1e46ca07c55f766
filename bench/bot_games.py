"""Two reference bots (`python -m games.ai.bot`) play rated duels against each other over the
Bot API of the real servers, and every game they leave is checked against its record.

    DATABASE_URL=postgres://... REDIS_URL=redis://... CHANNEL_LAYER_PREFIX=... \\
        python bench/bot_games.py --games 20 --levels 2 4

It migrates the database it is given, makes two bot accounts (`botgames-level2`,
`botgames-level4`: those of an earlier run are deleted with their games) with tokens, and
starts `--servers` daphne processes as `bench/api_streams.py` does. The bot at the first level
challenges the other, rated, at `--time-control`, game after game, until each has played
`--games`; each bot is its own process, talking to its own server in turn. Then it prints each
game's result, the two duel ratings before and after, and checks every game through the
public API (`GET /api/game/{id}`): its record must read (the moves lead to its stated result),
hold the game's moves, and agree with the stored result, loser and termination; each seat's
result must follow from the loser, and each bot's rating after one game must be its rating
before the next. Any mismatch is printed and the command exits with status 1.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from api_streams import daphne_servers  # noqa: E402  (sets Django up)
from django.core.management import call_command  # noqa: E402

from accounts import ratings  # noqa: E402
from accounts.models import PlayerRating, RatingMode, TokenScope, User  # noqa: E402
from accounts.tokens import token_create  # noqa: E402
from games.play.models import Match, Status  # noqa: E402
from games.replays.services import record_import  # noqa: E402
from games.rules import RecordError  # noqa: E402

PREFIX = "botgames-level"


def duel_rating(user: User) -> str:
    row = PlayerRating.objects.filter(user=user, mode=RatingMode.DUEL).first()
    if row is None:
        return f"unrated (starts at {ratings.START_RATING:.0f} ±{ratings.START_DEVIATION:.0f})"
    return f"{row.rating:.0f} ±{row.deviation:.0f} ({row.games} games)"


def api_game(port: int, game_id: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/game/{game_id}",
                                timeout=30) as answer:
        return dict(json.loads(answer.read()))


def game_faults(game: dict[str, Any]) -> list[str]:
    """What in a game's stored record disagrees with its stored result (nothing if all do)."""
    faults = []
    if game["status"] != Status.FINISHED:
        return [f"status {game['status']}, not finished"]
    if not game["rated"]:
        faults.append("not rated")
    if game["record"] is None:
        return [*faults, "no record"]
    try:
        record = record_import(text=game["record"])
    except RecordError as error:
        return [*faults, f"the record does not read: {error}"]
    replayed = record.game
    if [str(move) for move in replayed.moves] != game["moves"]:
        faults.append("the record's moves are not the game's")
    outcome = replayed.outcome()
    if outcome is None:
        # Resignation and time out end a game between moves: the record says so in its
        # headers, and the moves must leave the game open.
        if game["termination"] not in ("resignation", "timeout"):
            faults.append(f"the moves end nothing, yet the game ended by {game['termination']}")
    else:
        if outcome.termination.value != game["termination"]:
            faults.append(f"the moves end by {outcome.termination.value}, "
                          f"the game by {game['termination']}")
        if outcome.loser != game["loser"]:
            faults.append(f"the moves' loser is {outcome.loser}, the game's {game['loser']}")
    for player in game["players"]:
        expected = ("draw" if game["loser"] is None
                    else "loss" if player["seat"] == game["loser"] else "win")
        if player["result"] != expected:
            faults.append(f"{player['name']}'s result is {player['result']}, not {expected}")
        if player["rating_before"] is None or player["rating_after"] is None:
            faults.append(f"{player['name']} has no rating before or after")
    return faults


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="rated games to play")
    parser.add_argument("--levels", type=int, nargs=2, default=[2, 4], metavar=("A", "B"),
                        help="the two bots' AI levels (1 to 4, different)")
    parser.add_argument("--time-control", default="1+1",
                        help="the games' time control (one the site offers)")
    parser.add_argument("--servers", type=int, default=2, help="daphne processes")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds allowed per game before giving up")
    args = parser.parse_args()
    if args.games < 1 or args.servers < 1:
        parser.error("--games, --servers: at least 1")
    if len(set(args.levels)) != 2 or not all(1 <= level <= 4 for level in args.levels):
        parser.error("--levels: two different levels of 1 to 4")
    call_command("migrate", verbosity=0)
    stale = User.objects.filter(username__startswith=PREFIX)
    Match.objects.filter(seats__user__in=stale).delete()
    stale.delete()
    users, tokens = [], []
    for level in args.levels:
        user = User.objects.create_user(f"{PREFIX}{level}", password=None)
        user.is_bot = True
        user.save(update_fields=["is_bot"])
        users.append(user)
        tokens.append(token_create(user=user, name="bench",
                                   scopes=[TokenScope.BOT, TokenScope.CHALLENGE]).text)
    before = [duel_rating(user) for user in users]
    began = time.monotonic()
    with daphne_servers(args.servers) as (_servers, ports):
        bots = []
        for index, level in enumerate(args.levels):
            command = [sys.executable, "-m", "games.ai.bot", "--token", tokens[index],
                       "--url", f"http://127.0.0.1:{ports[index % len(ports)]}",
                       "--level", str(level), "--games", str(args.games), "--quiet"]
            if index == 0:
                command += ["--challenge", users[1].username, "--rated",
                            "--time-control", args.time_control]
            bots.append(subprocess.Popen(command, cwd=ROOT))
        try:
            for bot in bots:
                bot.wait(timeout=args.timeout * args.games)
        except subprocess.TimeoutExpired:
            print("the bots did not finish in time", file=sys.stderr)
        finally:
            for bot in bots:
                if bot.poll() is None:
                    bot.terminate()
                    bot.wait(10)
        took = time.monotonic() - began
        matches = list(Match.objects.filter(seats__user=users[0])
                       .filter(seats__user=users[1]).order_by("pk").values_list("pk", flat=True))
        games = [api_game(ports[0], game_id) for game_id in matches]
    print(f"levels {args.levels[0]} and {args.levels[1]}, time control {args.time_control}: "
          f"{len(games)} games in {took:.0f} s")
    mismatches = 0
    wins = {user.username: 0 for user in users}
    draws = 0
    last_after: dict[str, float] = {}
    for game in games:
        names = {player["seat"]: player["name"] for player in game["players"]}
        if game["loser"] is None:
            outcome = "draw"
            draws += game["status"] == Status.FINISHED
        else:
            winner = names[1 - game["loser"]]
            wins[winner] += 1
            outcome = f"{winner} wins"
        print(f"  game {game['id']}: {names[0]} - {names[1]}, {game['plies']} plies, "
              f"{outcome} ({game['termination']})")
        faults = game_faults(game)
        for player in game["players"]:
            previous = last_after.get(player["name"])
            if previous is not None and player["rating_before"] != previous:
                faults.append(f"{player['name']}'s rating before is {player['rating_before']}, "
                              f"after the game before {previous}")
            if player["rating_after"] is not None:
                last_after[player["name"]] = player["rating_after"]
        for fault in faults:
            print(f"    MISMATCH: {fault}")
        mismatches += len(faults)
    if len(games) != args.games:
        print(f"MISMATCH: {len(games)} games played, not {args.games}")
        mismatches += 1
    print("results: " + ", ".join(f"{name} {count} wins" for name, count in wins.items())
          + f", {draws} draws")
    for user, rating in zip(users, before, strict=True):
        print(f"{user.username} duel rating: {rating} -> {duel_rating(user)}")
    print(f"load average {Path('/proc/loadavg').read_text().split()[:3]}")
    if mismatches:
        print(f"{mismatches} mismatches")
        sys.exit(1)
    print("every game's record replays to its stored result")


if __name__ == "__main__":
    main()
