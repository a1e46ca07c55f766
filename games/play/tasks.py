"""Celery tasks of play. Each carries the ply it was made for and calls a service; it
does nothing if the match has moved on, so running one twice (acks late, a worker that died
mid-task) is harmless.

- `ai_move(match_id, ply)`: the AI chooses and plays its move through `services.move_apply`.
- `ai_draw_answer(match_id, ply)`: the AI seats of a table answer a standing draw offer.

What the clock makes happen (flags, trump-choice timeouts, a late AI's task sent again) is no
task: every worker runs the deadline watch (`games.play.deadline_watch`), started here when the
worker is ready.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import worker_ready, worker_shutdown
from django.utils import timezone

from games.play import checks, deadline_watch, selectors, services
from games.play.errors import PlayError
from games.play.models import Match, Seat, Status
from games.rules import Game, Move

logger = logging.getLogger(__name__)

AI_SOFT_TIME_LIMIT = 20
AI_TIME_LIMIT = 30
# The AI's tasks run again if their worker dies mid-way: each is idempotent by its ply.
AI_TASK_OPTIONS: dict[str, Any] = {
    "acks_late": True, "reject_on_worker_lost": True, "soft_time_limit": AI_SOFT_TIME_LIMIT,
    "time_limit": AI_TIME_LIMIT, "ignore_result": True,
}
# The AI's thinking time per move: at most this, and a small share of its clock.
AI_MAX_MOVETIME = 2.0
AI_MIN_MOVETIME = 0.05


def _choose(game: Game, level: int, movetime: float | None,
            should_stop: Callable[[], bool]) -> Move:
    """The AI's move (`games.ai.choose_move`)."""
    from games.ai import choose_move

    return choose_move(game, level, movetime=movetime, should_stop=should_stop)


def ai_movetime(*, level: int, clock_ms: int | None, increment: int, players: int = 2
                ) -> float | None:
    """Seconds the AI may think, or None for its level's own budget at a table of `players`:
    less only when its clock is short (a small share of the time left, plus half the
    increment)."""
    from games.ai import level_budget

    budget = min(float(level_budget(level, players)), AI_MAX_MOVETIME)
    if clock_ms is None:
        return None if budget < AI_MAX_MOVETIME else budget
    share = clock_ms / 1000 / 25 + increment * 0.5
    if share >= budget:
        return None if budget < AI_MAX_MOVETIME else budget
    return max(AI_MIN_MOVETIME, share)


@shared_task(name="games.ai_move", **AI_TASK_OPTIONS)
def ai_move(match_id: int, ply: int) -> str | None:
    """Play the AI's move at `ply`; nothing if the match is over or has moved on."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Status.PLAYING or match.ply != ply:
        return None
    seat = Seat.objects.get(match=match, index=match.to_move)
    if not seat.is_ai:
        return None
    game = selectors.match_game(match=match)
    assert game is not None  # playing: there is a deal
    movetime = ai_movetime(
        level=seat.ai_level or 1,
        clock_ms=checks.remaining_ms(match, seat, timezone.now()),
        increment=match.clock_increment,
        players=match.n_players,
    )
    # Stop a little before the soft limit so that the best move so far is still played.
    hard_stop = time.monotonic() + AI_SOFT_TIME_LIMIT - 1.5
    try:
        move = _choose(game, seat.ai_level or 1, movetime, lambda: time.monotonic() > hard_stop)
    except SoftTimeLimitExceeded:
        logger.warning("AI move for match %s ply %s hit the soft time limit", match_id, ply)
        move = game.legal_moves()[0]
    try:
        services.move_apply(
            match_id=match_id, seat=seat.index, move=str(move), expected_ply=ply, by_ai=True
        )
    except PlayError as error:  # the match moved on meanwhile (resigned, flagged, aborted)
        logger.info("AI move for match %s ply %s not played: %s", match_id, ply, error.code)
        return None
    return str(move)


@shared_task(name="games.ai_draw_answer", **AI_TASK_OPTIONS)
def ai_draw_answer(match_id: int, ply: int) -> list[tuple[int, bool]]:
    """The AI seats' answers to the draw offer standing at `ply`, each from its own seat's
    observation (`games.ai.draw_answer`): one decline ends the offer, so it alone is sent;
    otherwise every AI seat accepts. Nothing once the match moved on (its next change asks
    again). Returns the answers given, as (seat, accepted)."""
    from games.ai import draw_answer

    match = Match.objects.filter(pk=match_id).first()
    if (match is None or match.status != Status.PLAYING or match.ply != ply
            or match.draw_offer_seat is None):
        return []
    seats = selectors.match_seats(match=match)
    game = selectors.match_game(match=match)
    assert game is not None  # playing: there is a deal
    awaited = checks.draw_awaited(match.draw_offer_seat, match.draw_accepted,
                                  n_players=match.n_players, out=game.state.out)
    answers = []
    for index in awaited:
        seat = seats[index]
        if seat.ai_level is None:
            continue
        # Seeded by the position: asked again at the same ply, the seat answers alike.
        rng = random.Random(f"{match.seed}:{ply}:{index}")
        answers.append((index, draw_answer(game, index, seat.ai_level, rng=rng).accept))
    declines = [answer for answer in answers if not answer[1]]
    given = []
    for index, accept in declines[:1] or answers:
        act = services.match_draw_accept if accept else services.match_draw_decline
        try:
            act(match_id=match_id, seat=index, by_ai=True, expected_ply=ply)
        except PlayError as error:  # the game moved on, or the offer ended meanwhile
            logger.info("AI draw answer for match %s ply %s not given: %s", match_id, ply,
                        error.code)
            break
        given.append((index, accept))
    return given


@worker_ready.connect
def _watch_deadlines(**_: Any) -> None:
    deadline_watch.start()


@worker_shutdown.connect
def _stop_watching_deadlines(**_: Any) -> None:
    deadline_watch.stop()
