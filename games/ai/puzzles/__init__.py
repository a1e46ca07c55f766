"""Puzzles of the duel, proved by the exact solver: "find the only winning move".

Pure Python, no Django. Public names: ``Puzzle``, ``Step``, ``PuzzleFinder``,
``find_puzzle``, ``THEMES``, ``puzzle_themes``, ``puzzle_rating``, ``move_signature``,
``card_labels``, ``puzzle_fault``, and from ``games.ai.puzzles.selfplay``: ``SelfPlay``,
``self_play_puzzles``.

Modules: ``equivalence`` (interchangeable cards: which moves are one answer), ``lines`` (a
puzzle's position and steps), ``finder``
(the positions that are puzzles and their lines), ``themes`` (what a solution does, and a
first rating), ``selfplay`` (AI duels to cut puzzles from), ``verify`` (a stored puzzle
proved again).
"""

from games.ai.puzzles.equivalence import card_labels, move_signature
from games.ai.puzzles.finder import PuzzleFinder, find_puzzle
from games.ai.puzzles.lines import Puzzle, Step
from games.ai.puzzles.selfplay import SelfPlay, self_play_puzzles
from games.ai.puzzles.themes import THEMES, puzzle_rating, puzzle_themes
from games.ai.puzzles.verify import puzzle_fault

__all__ = [
    "THEMES",
    "Puzzle",
    "PuzzleFinder",
    "SelfPlay",
    "Step",
    "card_labels",
    "find_puzzle",
    "move_signature",
    "puzzle_fault",
    "puzzle_rating",
    "puzzle_themes",
    "self_play_puzzles",
]
