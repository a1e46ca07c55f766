"""The AI's answer to a draw offer at a table: from its own seat's view only, accepting unless
it is winning (docs/ai.md, "Draw offers at tables")."""

from __future__ import annotations

import random

import pytest

from games.ai import DrawAnswer, draw_answer
from games.rules import State
from games.rules.game import Game

# Seat 0 is to move with its last card; seat 2 holds ten.
BEHIND = "SHD AS/KH/6C7C8C9CTC6D7D8D9DTD - 0 -"
# Seat 1 is to lead its last card and go out.
AHEAD = "SHD 6C7C8C9CTC6D/AS/JCQCKC7D8D9S - 1 -"


def answer(tpn: str, seat: int, level: int, seed: int = 1) -> DrawAnswer:
    return draw_answer(Game(State.from_tpn(tpn)), seat, level, rng=random.Random(seed),
                       seconds=30)


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_a_seat_likely_to_lose_accepts_and_one_about_to_go_out_declines(level):
    behind = answer(BEHIND, 2, level)
    assert behind.accept
    assert behind.loss_chance >= behind.fair_share == pytest.approx(1 / 3)
    ahead = answer(AHEAD, 1, level)
    assert not ahead.accept
    assert ahead.loss_chance == 0.0


def test_the_stronger_level_looks_at_more_playouts():
    assert answer(BEHIND, 2, 1).samples < answer(BEHIND, 2, 4).samples


def test_the_answer_reads_only_what_the_seat_may_know():
    # Seats 0 and 1 have swapped their hands, which seat 2 cannot see: it answers the same.
    one = answer("SHD 7C8C/9CTC/JCQCKC - 0 -", 2, 3, seed=5)
    other = answer("SHD 9CTC/7C8C/JCQCKC - 0 -", 2, 3, seed=5)
    assert one == other


def test_there_is_no_answer_in_a_duel_a_finished_game_or_for_a_seat_out():
    with pytest.raises(ValueError, match="tables of 3-4"):
        draw_answer(Game(State.from_tpn("SH 7C9D/6D8CKD - 0 -")), 1, 2)
    with pytest.raises(ValueError, match="over"):
        draw_answer(Game(State.from_tpn("SHD -/-/AC 9C 2 01")), 2, 2)
    with pytest.raises(ValueError, match="holds no cards"):
        draw_answer(Game(State.from_tpn("SHDC 7C/-/9C6D/TCJC 8C 2 1")), 1, 2)
    with pytest.raises(ValueError, match="level"):
        draw_answer(Game(State.from_tpn(BEHIND)), 2, 5)
