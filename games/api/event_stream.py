"""A player's event stream: the challenges to and from them (`challenge`, then
`challengeDeclined` or `challengeCanceled`), their games starting (`gameStart`) and ending
(`gameFinish`), as lichess's Bot API streams them.

On opening it sends the present: a `gameStart` for each game under way and a `challenge` for
each open one; so a client that reconnects (after a restart of the server) misses nothing it
still needs. Then it hears the player's group (`user-<id>`: a match made for them, their
challenges changed) and the groups of their games under way (the end of each).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from django.conf import settings
from django.core.cache import cache

from games.api import selectors
from games.api.streams import Listener, ListenerLost, line
from games.matchmaking.core import user_group
from games.matchmaking.models import ChallengeStatus
from games.play import services
from games.play.models import Status
from games.play.snapshot_cache import event_snapshot
from infra.db_threads import db_call

OVER = (Status.FINISHED, Status.ABORTED)


def _challenges(user_id: int) -> dict[str, dict[str, Any]]:
    return {c.token: selectors.challenge_view(c)
            for c in selectors.challenges_open(user_id=user_id)}


def _closed_challenge(token: str) -> dict[str, Any] | None:
    challenge = selectors.challenge_get(token=token)
    return None if challenge is None else selectors.challenge_view(challenge)


def _present(user_id: int) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    games = [selectors.game_summary(match_id=match_id, user_id=user_id)
             for match_id in selectors.games_under_way(user_id=user_id)]
    return [game for game in games if game is not None], _challenges(user_id)


async def _mark_online(user_id: int) -> None:
    """The account's event stream is open (the bots page lists the bots so marked); the mark
    outlives a few keep-alives, so a stream cut off without a word drops off soon."""
    await cache.aset(selectors.online_key(user_id), 1,
                     timeout=3 * settings.API_STREAM_KEEPALIVE_SECONDS)


async def event_lines(*, user_id: int) -> AsyncIterator[bytes]:
    listener = Listener()
    try:
        await _mark_online(user_id)
        await listener.open(user_group(user_id))
        games, challenges = await db_call(_present, user_id)
        playing: set[int] = set()
        for game in games:
            playing.add(game["id"])
            await listener.join(services.group_name(game["id"]))
            yield line({"type": "gameStart", "game": game})
        for challenge in challenges.values():
            yield line({"type": "challenge", "challenge": challenge})
        while True:
            try:
                event = await listener.next()
            except ListenerLost:
                return
            if event is None:
                await _mark_online(user_id)
                yield b"\n"
                continue
            kind = event.get("type")
            if kind == "user.paired":
                match_id = int(event["match_id"])
                if match_id in playing:
                    continue
                game = await db_call(selectors.game_summary, match_id=match_id,
                                     user_id=user_id)
                if game is None:
                    continue
                playing.add(match_id)
                await listener.join(services.group_name(match_id))
                for token in [t for t, c in challenges.items() if c["game_id"] is None]:
                    # A challenge accepted became this game: it is no longer open.
                    closed = await db_call(_closed_challenge, token)
                    if closed is not None and closed["status"] == ChallengeStatus.ACCEPTED:
                        del challenges[token]
                yield line({"type": "gameStart", "game": game})
            elif kind == "user.changed":
                now_open = await db_call(_challenges, user_id)
                for token, challenge in now_open.items():
                    if token not in challenges:
                        yield line({"type": "challenge", "challenge": challenge})
                for token in [t for t in challenges if t not in now_open]:
                    closed = await db_call(_closed_challenge, token)
                    if closed is not None and closed["status"] in (
                            ChallengeStatus.DECLINED, ChallengeStatus.CANCELLED):
                        name = ("challengeDeclined" if closed["status"]
                                == ChallengeStatus.DECLINED else "challengeCanceled")
                        yield line({"type": name, "challenge": closed})
                challenges = now_open
            elif kind == "match.changed":
                match_id = event.get("match_id")
                if match_id in playing and (event_snapshot(event) or {}).get("status") in OVER:
                    playing.discard(match_id)
                    await listener.leave(services.group_name(match_id))
                    game = await db_call(selectors.game_summary, match_id=match_id,
                                         user_id=user_id)
                    if game is not None:
                        yield line({"type": "gameFinish", "game": game})
    finally:
        await listener.close()
        await cache.adelete(selectors.online_key(user_id))
