"""docs/rules.md is checked against the engine: every position and move on the page parses,
and its tables (turns, observations, perft, endings, record headers) and its record example
are what the engine computes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.rules import (
    MOVE_LIMIT,
    Game,
    Observation,
    State,
    Termination,
    deal,
    parse_record,
    perft,
)
from games.rules.moves import format_move_code, parse_move_code
from games.rules.record import GAME_HEADERS
from games.rules.tpn import format_position, parse_position

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
TEXT = DOC.read_text()
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
SPAN = re.compile(r"`([^`\n]+)`")
MOVE = re.compile(r"\+[0-9]+|[6-9TJQKA][CDHS](-[6-9TJQKA][CDHS])?")


def _section(title: str) -> str:
    """The text of the ``## title`` section, up to the next ``## `` heading."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", TEXT, re.MULTILINE | re.DOTALL)
    assert match is not None, f"docs/rules.md has no section {title!r}"
    return match.group(1)


def _tables(text: str) -> list[list[list[str]]]:
    """The markdown tables of ``text``: rows of stripped cells, header and rule left out."""
    tables: list[list[list[str]]] = []
    rows: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        if line.strip().startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            tables.append(rows[2:])
            rows = []
    return tables


def _spans(cell: str) -> list[str]:
    return SPAN.findall(cell)


def _prose() -> str:
    """The page without its fenced blocks (a fence's backticks are not inline code)."""
    return FENCE.sub("", TEXT)


def _looks_like_tpn(span: str) -> bool:
    fields = span.split(" ")
    return len(fields) == 5 and re.fullmatch(r"[CDHS]{2,4}", fields[0]) is not None


def _places(game: Game) -> str:
    outcome = game.outcome()
    assert outcome is not None
    return " / ".join(" ".join(str(seat) for seat in group) for group in outcome.places)


POSITIONS = [span for span in _spans(_prose()) if _looks_like_tpn(span)]


def test_the_page_has_positions_and_moves_to_check() -> None:
    assert len(POSITIONS) >= 40
    assert len([s for s in _spans(_prose()) if MOVE.fullmatch(s)]) >= 20


@pytest.mark.parametrize("tpn", sorted(set(POSITIONS)))
def test_every_position_parses_and_is_written_canonically(tpn: str) -> None:
    if "?" in tpn:
        p = parse_position(tpn, allow_hidden=True)
        assert format_position(p.trumps, p.hands, p.hidden, p.pile, p.to_move, p.out) == tpn
    else:
        assert State.from_tpn(tpn).tpn() == tpn


def test_every_move_parses() -> None:
    for span in _spans(_prose()):
        if MOVE.fullmatch(span):
            assert format_move_code(parse_move_code(span)) == span


def test_the_turn_examples() -> None:
    (examples,) = _tables(_section("A turn"))[1:]
    assert len(examples) >= 8
    for position, move, after in examples:
        state = State.from_tpn(_spans(position)[0])
        state.apply(_spans(move)[0])
        assert state.tpn() == _spans(after)[0], (position, move)


def test_the_observation_examples() -> None:
    (examples,) = _tables(_section("Position notation (TPN)"))
    assert len(examples) >= 3
    for position, then, seat, observed in examples:
        (tpn,), (view,), observer = _spans(position), _spans(observed), int(seat)
        moves = " ".join(_spans(then)).split()
        assert moves or then == "—"
        state = State.from_tpn(tpn)
        followed = Observation.of_state(state, observer)
        for move in moves:
            state.apply(move)
            followed = followed.play(move)
        assert Observation.of_state(state, observer).tpn() == view, (position, then, seat)
        assert followed.tpn() == view
        assert Observation.from_tpn(view, seat=observer).tpn() == view


def test_the_perft_table() -> None:
    rows = _tables(_section("Perft"))[0]
    assert len(rows) >= 10
    for position, variant, moves, counts in rows:
        assert variant in ("standard", "strict")
        state = State.from_tpn(_spans(position)[0], strict=variant == "strict")
        legal = [format_move_code(code) for code in state.legal_move_codes()]
        leads = re.fullmatch(r"(\d+) leads", moves)
        if leads:
            assert not state.pile_codes, position
            assert len(legal) == int(leads.group(1)), position
        else:
            assert sorted(legal) == sorted(" ".join(_spans(moves)).split()), position
        expected = [int(count) for count in counts.split(",")]
        assert [perft(state, depth) for depth in range(1, len(expected) + 1)] == expected


def test_the_seeded_deals_named_under_the_perft_table() -> None:
    positions = {_spans(row[0])[0] for row in _tables(_section("Perft"))[0]}
    named = re.findall(r"seed (\d+) \((\d) players,\s+dealer (\d)\)", _section("Perft"))
    assert len(named) == 2
    for seed, players, dealer in named:
        assert deal(int(players), int(seed), int(dealer)).tpn() in positions


def test_the_endings_table() -> None:
    rows = _tables(_section("Perft"))[1]
    assert len(rows) >= 8
    for position, then, result, termination, places in rows:
        game = Game.from_tpn(_spans(position)[0])
        if (resigns := re.fullmatch(r"seat (\d) resigns", then)) is not None:
            game.resign(int(resigns.group(1)))
        elif (flags := re.fullmatch(r"seat (\d) loses on time", then)) is not None:
            game.timeout(int(flags.group(1)))
        elif (twice := re.fullmatch(r"`([^`]+)`, twice", then)) is not None:
            for move in twice.group(1).split() * 2:
                game.play(move)
        else:
            assert then == "—", then
        outcome = game.outcome()
        assert outcome is not None, position
        assert (outcome.result, outcome.termination.value, _places(game)) == (
            _spans(result)[0], termination, places), position


def test_the_record_example_reads_and_writes_back_the_same() -> None:
    blocks = [body for lang, body in FENCE.findall(_section("The game record")) if lang == "text"]
    assert len(blocks) == 1
    record = parse_record(blocks[0])
    assert record.format() == blocks[0]
    assert record.game.seed is not None
    assert record.game.outcome() is not None


def test_the_record_headers_and_their_values() -> None:
    game_headers, site_headers = _tables(_section("The game record"))
    names = [span for row in game_headers for span in _spans(row[0])]
    assert names == list(GAME_HEADERS)
    values = {row[0]: set(_spans(row[1])) for row in game_headers}
    assert values["`Termination`"] == {t.value for t in Termination}
    assert values["`Result`"] == {"ongoing", "draw", "loser SEAT", "aborted"}
    assert values["`Variant`"] == {"standard", "strict"}
    example = FENCE.findall(_section("The game record"))[0][1]
    # The players' headers are listed once, as `Seat0` .. `Seat3`.
    in_example = {re.sub(r"^Seat\d$", "Seat0", name)
                  for name in re.findall(r'^\[(\w+) "', example, re.MULTILINE)}
    site_names = {span for row in site_headers for span in _spans(row[0])}
    assert in_example - set(GAME_HEADERS) == site_names - {"Seat3", "SiteTermination"}


def test_the_move_limit() -> None:
    limits = re.findall(r"reaches (\d+) moves", TEXT)
    assert limits
    assert set(limits) == {str(MOVE_LIMIT)}
