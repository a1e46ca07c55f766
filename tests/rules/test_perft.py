"""Perft: the move-generation check of docs/rules.md, run from tests/rules/data/perft.txt.

The file starts with the reference table of docs/rules.md; the engine must reproduce it. The lines
added after it (strict variant, 3 and 4 players, middle games) were computed with the
engine, so they are cross-checked here against the simple reference implementation
wherever that is quick (up to ``REFERENCE_LIMIT`` leaves).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.rules import State, deal, perft, perft_divide
from tests.rules import reference

DATA = Path(__file__).parent / "data" / "perft.txt"
REFERENCE_LIMIT = 40_000


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
IDS = [f"{'strict' if strict else 'default'}: {tpn}" for tpn, strict, _ in ROWS]

RULES_MD_TABLE = [
    ("SH 7C8CTCJCAC6D9DTD8HTHJHKH6S7S8S9STSQS/6C9CQCKC7D8DJDQDKDAD6H7H9HQHAHJSKSAS - 0 -",
     [18, 2041, 199289, 16559888]),
    ("SH 7C9HAS/KD6HTH 8S 1 -", [5, 17, 35, 45]),
    ("SH 8S9C/6H - 0 -", [2, 4, 2, 0]),
    ("CDH 7CJD/8D9H/6HAC 9C 1 -", [2, 3, 5, 33]),
    ("SH 7H8H/AS TD6CQSJS9SKHAH 1 -", [1, 2, 30, 30]),
    ("SH 7H8H/AS TD6CQSJS9S8SKH 1 -", [1, 1, 6, 6]),
    ("SH 7H8H/AS TD6CQSJS9S8SKS 1 -", [2, 1, 4, 24]),
]


@pytest.mark.parametrize(("tpn", "strict", "counts"), ROWS, ids=IDS)
def test_perft_matches_the_data_file(tpn: str, strict: bool, counts: list[int]) -> None:
    state = State.from_tpn(tpn, strict=strict)
    assert [perft(state, depth) for depth in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize(("tpn", "strict", "counts"), ROWS, ids=IDS)
def test_perft_agrees_with_the_reference_implementation(
    tpn: str, strict: bool, counts: list[int]
) -> None:
    position = reference.Position.parse(tpn)
    depths = [d for d, count in enumerate(counts, 1) if count <= REFERENCE_LIMIT]
    assert depths, "every line has a depth cheap enough to cross-check"
    for depth in depths:
        assert reference.perft(position, depth, strict) == counts[depth - 1], depth


def test_the_rules_md_table_is_the_head_of_the_data_file() -> None:
    assert [(tpn, counts) for tpn, _, counts in ROWS[: len(RULES_MD_TABLE)]] == RULES_MD_TABLE
    assert not any(strict for _, strict, _ in ROWS[: len(RULES_MD_TABLE)])


def test_the_seeded_deals_of_the_data_file_are_those_of_deal() -> None:
    tpns = {tpn for tpn, _, _ in ROWS}
    assert deal(2, seed=7, dealer=1).tpn() in tpns
    assert deal(3, seed=11, dealer=2).tpn() in tpns
    assert deal(4, seed=5, dealer=0).tpn() in tpns


def test_perft_at_depth_zero_is_one() -> None:
    assert perft(State.from_tpn("SH -/JC 9C 1 0"), 0) == 1
    assert perft(State.from_tpn("SH 7C9HAS/KD6HTH 8S 1 -"), 0) == 1


def test_perft_of_a_finished_position_is_zero() -> None:
    state = State.from_tpn("SH -/JC 9C 1 0")
    assert [perft(state, depth) for depth in (1, 2, 3)] == [0, 0, 0]


def test_perft_divide_splits_the_count_by_first_move() -> None:
    divided = perft_divide(State.from_tpn("SH 7C9HAS/KD6HTH 8S 1 -"), 3)
    assert set(divided) == {"6H-KD", "6H-TH", "TH-KD", "TH-6H", "+1"}
    assert sum(divided.values()) == 35


def test_perft_rejects_a_negative_depth() -> None:
    with pytest.raises(ValueError, match="depth"):
        perft(State.from_tpn("SH 8S9C/6H - 0 -"), -1)
