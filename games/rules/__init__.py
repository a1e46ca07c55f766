"""The rules of Svoi Kozyri (docs/rules.md) as a pure Python library: no Django anywhere below.

The public API, by module (each module's docstring has the details):

- ``cards``: ``Suit``, ``Rank``, ``Card``, ``SUITS``, ``RANKS``, ``ALL_CARDS``, ``beats``,
  ``parse_cards``, ``format_cards`` -- cards are codes 0..35, sets of cards int masks.
- ``moves``: ``Move``, ``MoveKind`` -- notation ``9H``, ``QH-7D``, ``QH``, ``+3``; int codes.
- ``errors``: ``IllegalMoveError``, ``InvalidNotationError`` (both ``ValueError``).
- ``state``: ``State`` -- a position: ``from_tpn``/``tpn``, ``legal_moves``, ``is_legal``,
  ``apply`` (checked), ``apply_unchecked``/``apply_code`` (fast), each returning a token
  for ``undo`` (takes the move back), ``clone``, ``outcome``, ``key``,
  ``known_text`` (the cards known to all, which a TPN cannot carry).
- ``outcome``: ``Outcome`` (loser, places), ``Termination`` (why a game ended).
- ``deal``: ``deal`` (seeded deal with the sixes rule), ``TrumpChoice`` (choosing trumps),
  ``first_dealer``, ``next_dealer`` (who deals).
- ``game``: ``Game`` -- history (``moves``, ``position_keys``), ``undo`` of the last move,
  repetition and move-limit draws, resignation, time loss, ``position_at`` for replays;
  ``MOVE_LIMIT``.
- ``observation``: ``Observation`` -- what a seat may know (``Observation.of_state``); TPN
  with ``?N``; ``play`` to follow the game from that seat; ``sample_state`` to fill in
  hidden cards for search;
  ``visible_hands`` -- the one rule of which cards a seat or a spectator may see.
- ``record``: ``GameRecord``, ``parse_record``, ``format_record``, ``RecordError`` -- our PGN.
- ``perft``: ``perft``, ``perft_divide``.
- ``playout``: ``random_move_code``, ``random_playout`` -- uniform random moves, fast.
- ``bench``: ``bench``; ``cli``: ``main`` (``python -m games.rules``, docs/interfaces.md).
"""

from games.rules.bench import BenchResult, bench
from games.rules.cards import (
    ALL_CARDS,
    RANKS,
    SUITS,
    Card,
    Rank,
    Suit,
    beats,
    format_cards,
    parse_cards,
)
from games.rules.deal import TrumpChoice, deal, first_dealer, next_dealer
from games.rules.errors import IllegalMoveError, InvalidNotationError
from games.rules.game import MOVE_LIMIT, Game
from games.rules.moves import Move, MoveKind
from games.rules.observation import Observation, visible_hands
from games.rules.outcome import Outcome, Termination
from games.rules.perft import perft, perft_divide
from games.rules.playout import random_move_code, random_playout
from games.rules.record import GameRecord, RecordError, format_record, parse_record
from games.rules.state import State

__all__ = [
    "ALL_CARDS",
    "MOVE_LIMIT",
    "RANKS",
    "SUITS",
    "BenchResult",
    "Card",
    "Game",
    "GameRecord",
    "IllegalMoveError",
    "InvalidNotationError",
    "Move",
    "MoveKind",
    "Observation",
    "Outcome",
    "Rank",
    "RecordError",
    "State",
    "Suit",
    "Termination",
    "TrumpChoice",
    "beats",
    "bench",
    "deal",
    "first_dealer",
    "format_cards",
    "format_record",
    "next_dealer",
    "parse_cards",
    "parse_record",
    "perft",
    "perft_divide",
    "random_move_code",
    "random_playout",
    "visible_hands",
]
