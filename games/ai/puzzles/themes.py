"""What a puzzle's solution does, computed from its moves, and its first rating.

Public names: ``THEMES``, ``puzzle_themes``, ``line_theme``, ``puzzle_rating``.

The themes (their keys; the site translates their names):

- ``take_to_win``: one of the player's moves is a take.
- ``trump_ace``: one of the player's moves plays the ace of the player's own trump.
- ``last_card``: the player's last move plays their last card and wins.
- ``draw_rule``: at one of the player's moves another move goes out at once but only draws
  by the draw rule (the defender's last card beats it); the answer avoids the draw.
- ``long_line``: five moves or more, both sides counted.
- ``short_line``: three moves, both sides counted.
- ``one_move``: the player's one move wins.
- ``sacrifice``: one of the player's moves leaves on the pile a card the defender can beat,
  while another move would have left one they could not (and does not win).

A line has one, three, five or more moves (the player's first and last), so every puzzle
has one of ``one_move``, ``short_line``, ``long_line``: none is without a theme. New themes
go at the end of ``THEMES``: the site stores each theme as the bit of its index.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from games.ai.duel import DRAW, DuelTable
from games.ai.puzzles.lines import Step
from games.rules.cards import ace_of
from games.rules.moves import BEAT_BASE, TAKE_BASE
from games.rules.state import State

THEMES: Final = ("take_to_win", "trump_ace", "last_card", "draw_rule", "long_line",
                 "sacrifice", "one_move", "short_line")
LONG_LINE: Final = 5
"""The fewest moves of a long line, both sides counted."""
BASE_RATING: Final = 1100.0
LOWEST_RATING: Final = 600.0
HIGHEST_RATING: Final = 2600.0


def _cards(code: int) -> tuple[int, ...]:
    if code >= TAKE_BASE:
        return ()
    if code < BEAT_BASE:
        return (code,)
    return divmod(code - BEAT_BASE, 36)


def _beatable(table: DuelTable, defender_hand: int, pile: tuple[int, ...],
              defender: int) -> bool:
    return bool(pile) and bool(defender_hand & table.rows[defender][pile[-1]])


def puzzle_themes(table: DuelTable, start: State, steps: Sequence[Step]) -> tuple[str, ...]:
    """The themes of a solution from ``start`` (in the order of ``THEMES``)."""
    found: set[str] = set()
    h0, h1 = start.hand_masks
    player = start.to_move
    hands = [h0, h1]
    pile = start.pile_codes
    mover = player
    last_player_step = max(i for i, step in enumerate(steps) if step.player)
    for index, step in enumerate(steps):
        me, opp = hands[mover], hands[1 - mover]
        if step.player:
            if step.move >= TAKE_BASE:
                found.add("take_to_win")
            if ace_of(table.trumps[mover]) in _cards(step.move):
                found.add("trump_ace")
            others = [code for code in table.ordered_moves(me, opp, pile, mover)
                      if code not in step.accepted]
            for code in others:
                mine, after = table.play(me, pile, code)
                if not mine and table.out_value(opp, after, mover) == DRAW:
                    found.add("draw_rule")
            mine, after = table.play(me, pile, step.move)
            if step.move < TAKE_BASE and mine and _beatable(table, opp, after, 1 - mover):
                for code in others:
                    rest, other = table.play(me, pile, code)
                    if code < TAKE_BASE and rest and not _beatable(table, opp, other,
                                                                   1 - mover):
                        found.add("sacrifice")
                        break
            if index == last_player_step and not mine:
                found.add("last_card")
        hands[mover], pile = table.play(me, pile, step.move)
        mover = 1 - mover
    found.add(line_theme(len(steps)))
    return tuple(theme for theme in THEMES if theme in found)


def line_theme(moves: int) -> str:
    """The theme of a line's length (``moves``: both sides counted)."""
    if moves >= LONG_LINE:
        return "long_line"
    return "one_move" if moves == 1 else "short_line"


def puzzle_rating(start: State, steps: Sequence[Step], wrong_classes: int,
                  themes: Sequence[str]) -> float:
    """A first guess at the puzzle's Glicko rating, before anyone has played it: longer
    lines, more tempting wrong moves, more cards and the counter-intuitive themes
    (a take, a sacrifice) make it harder. Plays then move it to its real strength."""
    h0, h1 = start.hand_masks
    cards = (h0 | h1).bit_count()
    player_moves = sum(step.player for step in steps)
    rating = (BASE_RATING + 150.0 * (player_moves - 1) + 30.0 * min(10, wrong_classes)
              + 25.0 * max(0, cards - 6))
    rating += 120.0 * sum(theme in themes for theme in ("take_to_win", "sacrifice"))
    return round(max(LOWEST_RATING, min(HIGHEST_RATING, rating)), 1)
