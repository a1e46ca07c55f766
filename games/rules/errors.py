"""Typed errors of the rules engine; both are ``ValueError`` so callers may catch either.

The message of each says what is wrong in one line, ready to show to a user or print on
standard error (``illegal move QS-7D: QS does not beat KH``).
"""

from __future__ import annotations


class InvalidNotationError(ValueError):
    """Text that is not valid notation: a card, a move, a TPN, an observation or a record."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow in the position it was played in."""

    def __init__(self, move: str, reason: str) -> None:
        super().__init__(f"illegal move {move}: {reason}")
        self.move = move
        self.reason = reason
