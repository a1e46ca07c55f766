"""Perft: the move-generation check of RULES.md, run from tests/rules/data/perft.txt."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.rules import State, perft

DATA = Path(__file__).parent / "data" / "perft.txt"


def _rows() -> list[tuple[str, bool, list[int]]]:
    rows = []
    for line in DATA.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        variant, tpn, counts = (part.strip() for part in line.split("|"))
        assert variant in ("default", "strict"), line
        rows.append((tpn, variant == "strict", [int(c) for c in counts.split()]))
    return rows


ROWS = _rows()


@pytest.mark.parametrize(("tpn", "strict", "counts"), ROWS, ids=[r[0] for r in ROWS])
def test_perft_matches_the_table(tpn: str, strict: bool, counts: list[int]) -> None:
    state = State.from_tpn(tpn, strict=strict)
    assert [perft(state, depth) for depth in range(1, len(counts) + 1)] == counts


def test_perft_at_depth_zero_is_one() -> None:
    assert perft(State.from_tpn("SH -/JC 9C 1 0"), 0) == 1


def test_perft_of_a_finished_position_is_zero() -> None:
    state = State.from_tpn("SH -/JC 9C 1 0")
    assert [perft(state, depth) for depth in (1, 2, 3)] == [0, 0, 0]


def test_the_rules_md_table_is_in_the_data_file() -> None:
    rules_md_lines = {r[0] for r in ROWS}
    assert "SH 7C9HAS/KD6HTH 8S 1 -" in rules_md_lines
    assert len(rules_md_lines) >= 7
