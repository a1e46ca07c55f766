"""A puzzle's positions as the live board draws them: the match socket's ``state`` message
(``games.play.schemas.State``), made by its builder (``games.play.state_message``), so the
puzzle page uses the game page's board as it is. The legal moves come from the rules engine,
for the player's turn only."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from games.play.schemas import SeatView, State
from games.play.state_message import hands_seen, last_move_view, seat_view, state_view
from games.puzzles.solving import Progress
from games.rules import State as Position


def _seats(position: Position, player: int) -> list[SeatView]:
    hands = hands_seen(position, player, 2)
    return [
        seat_view(index=index,
                  # The player's own seat is named "You" by the board itself.
                  name=_("You") if index == player else _("Defender"),
                  kind="user" if index == player else "ai", trump=str(position.trump(index)),
                  hand=hand, hidden=hidden, hand_size=position.hand_size(index))
        for index, (hand, hidden) in enumerate(hands)
    ]


def puzzle_board_state(*, puzzle_id: int, progress: Progress, ply: int,
                       over: bool) -> State:
    """The board's state after the first ``ply`` moves of ``progress``; ``over``: the
    puzzle has ended there, so nothing more may be played."""
    position = progress.plies[ply - 1].state if ply else progress.start
    playing = not over and not position.is_over()
    mine = playing and position.to_move == progress.player
    last = progress.plies[ply - 1] if ply else None
    return state_view(
        id=puzzle_id, version=ply, ply=ply, status="playing" if playing else "finished",
        n_players=2, dealer=1 - progress.player, you=progress.player,
        seats=_seats(position, progress.player),
        pile=[str(card) for card in position.pile],
        to_move=position.to_move if playing else None,
        legal_moves=[str(move) for move in position.legal_moves()] if mine else [],
        take_count=position.take_count() if playing else 0,
        moves=[(p.seat, p.move) for p in progress.plies[:ply]],
        last_move=(last_move_view(ply=ply, seat=last.seat, move=last.move, taken=last.taken)
                   if last is not None else None),
        now=timezone.now(),
    )


def puzzle_board_states(*, puzzle_id: int, progress: Progress, first: int,
                        ended: bool = False) -> list[State]:
    """The states from ply ``first`` to the last of ``progress``, in order: the last one
    over if the puzzle has ended, every one with ``ended`` (the solution shown)."""
    last = len(progress.plies)
    return [puzzle_board_state(puzzle_id=puzzle_id, progress=progress, ply=ply,
                               over=ended or (ply == last and progress.outcome != "playing"))
            for ply in range(first, last + 1)]
