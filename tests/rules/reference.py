"""A deliberately simple second implementation of docs/rules.md, to check the engine against.

Written straight from the text, with strings and frozensets and no shared code with
games.rules: if both agree on legal moves, results and perft over many positions, a
mistake would have to be made twice in two different ways. Slow on purpose (clarity).
"""

from __future__ import annotations

from dataclasses import dataclass

RANKS = "6789TJQKA"
SUITS = "CDHS"


def rank(card: str) -> int:
    return RANKS.index(card[0])


def suit(card: str) -> str:
    return card[1]


def cards_of(text: str) -> list[str]:
    return [] if text == "-" else [text[i : i + 2] for i in range(0, len(text), 2)]


def card_sort_key(card: str) -> tuple[int, int]:
    return SUITS.index(suit(card)), rank(card)


def beats(b: str, t: str, own_trump: str) -> bool:
    """docs/rules.md: same suit and higher, or of the mover's own trump suit while t is not."""
    if suit(b) == suit(t) and rank(b) > rank(t):
        return True
    return suit(b) == own_trump and suit(t) != own_trump


@dataclass(frozen=True)
class Position:
    trumps: str
    hands: tuple[frozenset[str], ...]
    pile: tuple[str, ...]
    to_move: int
    out: tuple[int, ...]

    @staticmethod
    def parse(tpn: str) -> Position:
        trumps, hands, pile, to_move, out = tpn.split(" ")
        return Position(
            trumps,
            tuple(frozenset(cards_of(h)) for h in hands.split("/")),
            tuple(cards_of(pile)),
            int(to_move),
            tuple(int(c) for c in out if c != "-"),
        )

    def tpn(self) -> str:
        hands = "/".join("".join(sorted(h, key=card_sort_key)) or "-" for h in self.hands)
        return " ".join([self.trumps, hands, "".join(self.pile) or "-", str(self.to_move),
                         "".join(map(str, self.out)) or "-"])


def finished(p: Position) -> bool:
    return sum(1 for hand in p.hands if hand) <= 1


def take_size(p: Position) -> int:
    top = p.pile[-1]
    trump = p.trumps[p.to_move]
    if suit(top) != trump:
        return min(3, len(p.pile))
    if rank(top) == RANKS.index("A"):
        return len(p.pile)
    return min(5, len(p.pile))


def legal_moves(p: Position, strict: bool = False) -> list[str]:
    if finished(p):
        return []
    hand = p.hands[p.to_move]
    if not p.pile:
        return sorted(hand)
    trump = p.trumps[p.to_move]
    moves = []
    for b in hand:
        if not beats(b, p.pile[-1], trump):
            continue
        rest = hand - {b}
        if not rest:
            moves.append(b)
        moves.extend(f"{b}-{x}" for x in rest)
    if not (strict and moves):
        moves.append(f"+{take_size(p)}")
    return sorted(moves)


def play(p: Position, move: str) -> Position:
    """The position after a move assumed legal."""
    mover = p.to_move
    hands = list(p.hands)
    pile = list(p.pile)
    out = list(p.out)
    if move.startswith("+"):
        count = int(move[1:])
        hands[mover] = hands[mover] | frozenset(pile[len(pile) - count :])
        pile = pile[: len(pile) - count]
    else:
        played = move.split("-")
        hands[mover] = hands[mover] - frozenset(played)
        pile.extend(played)
        if not hands[mover]:
            out.append(mover)
    seat = (mover + 1) % len(hands)
    while not hands[seat]:
        seat = (seat + 1) % len(hands)
    return Position(p.trumps, tuple(hands), tuple(pile), seat, tuple(out))


def result(p: Position) -> str:
    if not finished(p):
        return "ongoing"
    last = next(seat for seat, hand in enumerate(p.hands) if hand)
    hand = p.hands[last]
    if len(hand) == 1 and p.pile and beats(next(iter(hand)), p.pile[-1], p.trumps[last]):
        return "draw"
    return f"loser {last}"


def perft(p: Position, depth: int, strict: bool = False) -> int:
    if depth == 0:
        return 1
    return sum(perft(play(p, m), depth - 1, strict) for m in legal_moves(p, strict))
