"""The rules of Svoi Kozyri: pure Python, no Django (see RULES.md)."""

from games.rules.cards import ALL_CARDS, RANKS, SUITS, Card, Rank, Suit, beats
from games.rules.errors import IllegalMoveError, InvalidNotationError
from games.rules.moves import Move, MoveKind
from games.rules.outcome import Outcome, Termination
from games.rules.perft import perft, perft_divide
from games.rules.state import State

__all__ = [
    "ALL_CARDS",
    "RANKS",
    "SUITS",
    "Card",
    "IllegalMoveError",
    "InvalidNotationError",
    "Move",
    "MoveKind",
    "Outcome",
    "Rank",
    "State",
    "Suit",
    "Termination",
    "beats",
    "perft",
    "perft_divide",
]
