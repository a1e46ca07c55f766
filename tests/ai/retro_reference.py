"""An independent reference for the exact solver: the rules of a duel (docs/rules.md) and a
retrograde analysis, written plainly, with nothing from ``games.ai`` or ``games.rules``.

The reference reads a position in its notation (TPN) and names moves in the move notation
(``9C``, ``AS-9H``, ``TH``, ``+3``), so that it shares no code with the solver, not even
the move generator: the tests hold its rules to the engine's separately
(tests/ai/test_solver_reference.py).

Cards are ``(suit, rank)`` pairs, suits ``C D H S`` = 0..3 and ranks ``6`` .. ``A`` = 0..8;
a position is ``(hand of seat 0, hand of seat 1, pile, mover)``, hands sorted tuples of
cards, the pile a tuple from bottom to top.

The values, with the game's history (docs/rules.md): a move into a position the game has
seen twice is a draw (its third occurrence), and the game is a draw at the move limit.
``Analysis`` works out, round by round, for k = 1, 2, ..., the positions the mover wins
within k plies and those the mover loses within k plies: won within k if some move wins at
once or leads to a position lost within k - 1, lost within k if every move leads to a
position won within k - 1. A position's status can only change in round k if one of its
moves leads to a position decided in round k - 1, so each round looks at those only; the
rounds stop when nothing changes. With ``plies`` plies left a position is won if it is won
within that many plies, lost likewise, and a draw otherwise. Positions of the game seen once
do not matter: along a winner's fastest line the plies left to the end fall at every ply,
so no position occurs twice on it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

SUITS = "CDHS"
RANKS = "6789TJQKA"
ACE = 8

Card = tuple[int, int]
Hand = tuple[Card, ...]
Position = tuple[Hand, Hand, tuple[Card, ...], int]
Target = tuple[str, int | Position]
"""A move's result: ``("end", value for the mover)`` or ``("pos", the position after)``."""


def card_text(card: Card) -> str:
    return RANKS[card[1]] + SUITS[card[0]]


def parse_cards(text: str) -> list[Card]:
    if text == "-":
        return []
    return [(SUITS.index(text[i + 1]), RANKS.index(text[i])) for i in range(0, len(text), 2)]


def parse_position(tpn: str) -> tuple[tuple[int, int], Position]:
    """The trumps (by seat) and the position of a duel's TPN with nobody out."""
    trumps, hands, pile, mover, out = tpn.split(" ")
    assert out == "-", "the game is over"
    hand0, hand1 = hands.split("/")
    return ((SUITS.index(trumps[0]), SUITS.index(trumps[1])),
            (tuple(sorted(parse_cards(hand0))), tuple(sorted(parse_cards(hand1))),
             tuple(parse_cards(pile)), int(mover)))


def position_tpn(trumps: tuple[int, int], position: Position) -> str:
    """The TPN of a position with nobody out."""
    hand0, hand1, pile, mover = position

    def cards(group: tuple[Card, ...]) -> str:
        return "".join(card_text(card) for card in group) or "-"

    return (f"{SUITS[trumps[0]]}{SUITS[trumps[1]]} {cards(hand0)}/{cards(hand1)} "
            f"{cards(pile)} {mover} -")


def beats(card: Card, top: Card, trump: int) -> bool:
    """``card`` beats ``top`` for a player of trump suit ``trump``."""
    if card[0] == top[0]:
        return card[1] > top[1]
    return card[0] == trump


def take_size(pile: tuple[Card, ...], trump: int) -> int:
    top = pile[-1]
    if top[0] != trump:
        return min(3, len(pile))
    if top[1] == ACE:
        return len(pile)
    return min(5, len(pile))


def after(position: Position, mover_hand: Hand, pile: tuple[Card, ...],
          trumps: tuple[int, int]) -> Target:
    """What a move that leaves the mover ``mover_hand`` and the pile ``pile`` comes to."""
    hand0, hand1, _pile, mover = position
    other_hand = hand1 if mover == 0 else hand0
    if not mover_hand:
        # The mover went out: the other seat loses, unless its one card beats the top.
        other_trump = trumps[1 - mover]
        if len(other_hand) == 1 and beats(other_hand[0], pile[-1], other_trump):
            return ("end", 0)
        return ("end", 1)
    if mover == 0:
        return ("pos", (mover_hand, other_hand, pile, 1))
    return ("pos", (other_hand, mover_hand, pile, 0))


def moves(position: Position, trumps: tuple[int, int], strict: bool) -> dict[str, Target]:
    """Every legal move of ``position`` by its notation, and what it comes to."""
    hand0, hand1, pile, mover = position
    hand = hand0 if mover == 0 else hand1
    trump = trumps[mover]
    result: dict[str, Target] = {}
    if not pile:
        for card in hand:
            rest = tuple(c for c in hand if c != card)
            result[card_text(card)] = after(position, rest, (card,), trumps)
        return result
    top = pile[-1]
    beaters = [card for card in hand if beats(card, top, trump)]
    for beater in beaters:
        if len(hand) == 1:
            result[card_text(beater)] = after(position, (), (*pile, beater), trumps)
            continue
        for second in hand:
            if second != beater:
                rest = tuple(c for c in hand if c not in (beater, second))
                result[f"{card_text(beater)}-{card_text(second)}"] = after(
                    position, rest, (*pile, beater, second), trumps)
    if not (strict and beaters):
        count = take_size(pile, trump)
        taken = tuple(sorted(hand + pile[-count:]))
        result[f"+{count}"] = after(position, taken, pile[:-count], trumps)
    return result


class Analysis:
    """The rounds above over every position reachable from ``root``; ``draws`` are the
    positions the game has seen twice (entering one is a draw).

    Positions are numbered as they are found (``number``), so that the rounds work on
    small integers: ``graph[i]`` holds each move of position ``i`` as ``(notation, -1,
    value)`` for a move that ends the game (or enters a position of ``draws``) and
    ``(notation, j, 0)`` for a move to position ``j``."""

    def __init__(self, root: Position, trumps: tuple[int, int], strict: bool,
                 draws: set[Position]) -> None:
        self.number: dict[Position, int] = {root: 0}
        self.positions: list[Position] = [root]
        self.graph: list[list[tuple[str, int, int]]] = []
        parents: list[list[int]] = [[]]
        for i, position in enumerate(self.positions):  # grows as positions are found
            edges = []
            for text, (kind, target) in moves(position, trumps, strict).items():
                if kind == "end":
                    assert isinstance(target, int)
                    edges.append((text, -1, target))
                    continue
                assert not isinstance(target, int)
                if target in draws:
                    edges.append((text, -1, 0))
                    continue
                j = self.number.get(target)
                if j is None:
                    j = self.number[target] = len(self.positions)
                    self.positions.append(target)
                    parents.append([])
                parents[j].append(i)
                edges.append((text, j, 0))
            self.graph.append(edges)
        # ``decided[i] = (1 won or -1 lost, the round k that decided it)``.
        self.decided: dict[int, tuple[int, int]] = {}
        candidates = set(range(len(self.positions)))
        k = 0
        while candidates:
            k += 1
            now: dict[int, tuple[int, int]] = {}
            for i in candidates:
                results = [self._result(j, value) for _text, j, value in self.graph[i]]
                if 1 in results:
                    now[i] = (1, k)
                elif all(result == -1 for result in results):
                    now[i] = (-1, k)
            self.decided.update(now)
            candidates = {parent for i in now for parent in parents[i]
                          if parent not in self.decided}

    def _result(self, j: int, value: int) -> int:
        """A move's value for its mover by the rounds so far (0 if not decided yet)."""
        if j < 0:
            return value
        status = self.decided.get(j)
        return 0 if status is None else -status[0]

    def value(self, i: int, plies: int) -> int:
        """The value for its mover of position ``i`` with ``plies`` plies left."""
        status = self.decided.get(i)
        return 0 if status is None or status[1] > plies else status[0]

    def move_values(self, position: Position, plies: int) -> dict[str, int]:
        """The value for the mover of each legal move of ``position`` (one of the graph),
        by its notation, with ``plies`` plies left."""
        values = {}
        for text, j, value in self.graph[self.number[position]]:
            if j < 0:
                values[text] = value if plies >= 1 else 0
            else:
                values[text] = -self.value(j, plies - 1)
        return values


def reference_values(tpn: str, strict: bool, history: Iterable[str] = (),
                     plies: int = 2000) -> dict[str, int]:
    """The value for the mover of each legal move of the duel position ``tpn`` (notation:
    value): ``history`` holds the TPNs of the positions the game has been in (the root's
    included), ``plies`` the plies left before the move limit."""
    trumps, root = parse_position(tpn)
    counts = Counter(parse_position(text)[1] for text in history)
    draws = {position for position, count in counts.items() if count >= 2}
    return Analysis(root, trumps, strict, draws).move_values(root, plies)
