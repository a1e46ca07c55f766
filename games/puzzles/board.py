"""A puzzle's positions as the live board draws them: the shape of the match socket's
``state`` message (``games.play.schemas.State``), so the puzzle page uses the game page's
board as it is. The legal moves come from the rules engine, for the player's turn only."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games.puzzles.solving import Progress
from games.rules import State


def _seat(state: State, index: int, player: int) -> dict[str, Any]:
    mine = index == player
    return {
        "index": index,
        # The player's own seat is named "You" by the board itself.
        "name": _("You") if mine else _("Defender"),
        "kind": "user" if mine else "ai",
        "ai_level": None, "taken_over": False, "taken_over_ply": None,
        "trump": str(state.trump(index)),
        "hand": [str(card) for card in state.hand(index)], "hidden": 0,
        "hand_size": state.hand_size(index), "clock_ms": None, "connected": True,
        "place": None, "result": None, "rating_before": None, "rating_after": None,
        "rating": None, "provisional": None, "rating_delta": None,
    }


def puzzle_board_state(*, puzzle_id: int, progress: Progress, ply: int,
                       over: bool) -> dict[str, Any]:
    """The board's state after the first ``ply`` moves of ``progress``; ``over``: the
    puzzle has ended there, so nothing more may be played."""
    state = progress.plies[ply - 1].state if ply else progress.start
    playing = not over and not state.is_over()
    mine = playing and state.to_move == progress.player
    last = progress.plies[ply - 1] if ply else None
    return {
        "type": "state", "id": puzzle_id, "version": ply, "ply": ply,
        "status": "playing" if playing else "finished",
        "variant": "standard", "rated": False, "n_players": 2, "dealer": 1 - progress.player,
        "clock": None, "correspondence": False, "you": progress.player,
        "seats": [_seat(state, index, progress.player) for index in range(2)],
        "pile": [str(card) for card in state.pile],
        "to_move": state.to_move if playing else None,
        "running": None,
        "legal_moves": [str(move) for move in state.legal_moves()] if mine else [],
        "take_count": state.take_count() if playing else 0,
        "trump_choice": None,
        "moves": [[p.seat, p.move] for p in progress.plies[:ply]],
        "last_move": ({"ply": ply, "seat": last.seat, "move": last.move,
                       "taken": list(last.taken)} if last is not None else None),
        "draw_offer": None, "draw_agreed": [], "draw_awaited": [], "can_offer_draw": False,
        "rematch_offer": None, "rematch_agreed": [], "rematch_awaited": [],
        "rematch_id": None, "can_abort": False, "claim_at_ms": None, "result": None,
        "server_time_ms": int(timezone.now().timestamp() * 1000),
    }


def puzzle_board_states(*, puzzle_id: int, progress: Progress, first: int,
                        ended: bool = False) -> list[dict[str, Any]]:
    """The states from ply ``first`` to the last of ``progress``, in order: the last one
    over if the puzzle has ended, every one with ``ended`` (the solution shown)."""
    last = len(progress.plies)
    return [puzzle_board_state(puzzle_id=puzzle_id, progress=progress, ply=ply,
                               over=ended or (ply == last and progress.outcome != "playing"))
            for ply in range(first, last + 1)]
