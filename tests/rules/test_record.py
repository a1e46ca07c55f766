"""The game record (our PGN): lossless export and import, and errors that name the line."""

from __future__ import annotations

import random

import pytest

from games.rules import Game, GameRecord, RecordError, Termination, format_record, parse_record

HEADERS = {"Event": 'Club "night"', "Date": "2025.03.14", "Seat0": "alice", "Seat1": "bob\\"}

SEEDED = """\
[Variant "standard"]
[Trumps "SH"]
[Dealer "1"]
[Seed "42"]
[Position "SH 6C7C8C9CTCJCQCAC6D8DTDQDKDTH6S8S9STSJS/KC7D9DJDAD6H7H8H9HJHQHKHAH7SQSKSAS - 0 -"]
[Result "loser 0"]
[Termination "normal"]

1. AC 2. 8H-7D 3. 8S-TD 4. AH-7H 5. JS-6C 6. KC-7S 7. TS-6D 8. 9D-AD 9. 9S-JC
10. JH-JD 11. KD-6S 12. QH-KH 13. +3 14. 9H-AS 15. +22 16. QS 17. AS-6D
18. 6H-KS
"""


def _random_game(n_players: int, seed: int, plies: int, strict: bool = False) -> Game:
    game = Game.new(n_players, seed=seed, dealer=seed % n_players, strict=strict)
    rng = random.Random(seed)
    while game.ply < plies and not game.is_over():
        game.play(rng.choice(game.legal_moves()))
    return game


def _same_game(a: Game, b: Game) -> None:
    assert (a.start, a.moves, a.outcome(), a.seed, a.dealer, a.strict) == (
        b.start, b.moves, b.outcome(), b.seed, b.dealer, b.strict)


def test_a_finished_seeded_game_reads_back_exactly() -> None:
    record = parse_record(SEEDED)
    assert record.game.seed == 42
    assert record.game.ply == 18
    outcome = record.game.outcome()
    assert outcome is not None
    assert outcome.loser == 0
    assert record.format() == SEEDED


@pytest.mark.parametrize(("n_players", "seed", "plies", "strict"),
                         [(2, 1, 500, False), (3, 2, 80, True), (4, 3, 1000, False)])
def test_export_then_import_is_lossless(n_players: int, seed: int, plies: int,
                                        strict: bool) -> None:
    game = _random_game(n_players, seed, plies, strict)
    text = format_record(game, HEADERS)
    record = parse_record(text)
    _same_game(record.game, game)
    assert record.headers == HEADERS
    assert record.players[:2] == ["alice", "bob\\"]
    assert format_record(record.game, record.headers) == text
    assert all(len(line) <= 100 for line in text.splitlines())


def test_a_game_from_a_position_records_the_position_without_seed() -> None:
    game = Game.from_tpn("SH 7C9HAS/KD6HTH 8S 1 -", ["6H-KD"])
    text = format_record(game)
    assert "Seed" not in text
    assert "Dealer" not in text
    assert '[Position "SH 7C9HAS/KD6HTH 8S 1 -"]' in text
    assert '[Result "ongoing"]' in text
    assert "Termination" not in text
    _same_game(parse_record(text).game, game)


@pytest.mark.parametrize("how", ["resign", "timeout", "abort"])
def test_resignation_time_loss_and_abort_are_recorded(how: str) -> None:
    game = _random_game(3, 5, 20)
    if how == "abort":
        game.abort()
    else:
        getattr(game, how)(game.state.to_move)
    record = parse_record(format_record(game))
    _same_game(record.game, game)


def test_repetition_is_recorded_and_verified() -> None:
    game = Game.from_tpn("SH 8CKC/7C9C8D9D - 0 -", ["8C", "9C-8D", "+3", "7C", "9C-8D", "+3"] * 2)
    text = format_record(game)
    assert '[Termination "repetition"]' in text
    assert '[Result "draw"]' in text
    outcome = parse_record(text).game.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.REPETITION


def test_game_record_object_formats_itself() -> None:
    game = Game.from_tpn("SH 8S9C/6H - 0 -")
    assert GameRecord(game, {"Event": "x"}).format() == format_record(game, {"Event": "x"})


def test_headers_written_from_the_game_cannot_be_given() -> None:
    with pytest.raises(ValueError, match="written from the game"):
        format_record(Game.from_tpn("SH 8S9C/6H - 0 -"), {"Result": "draw"})
    with pytest.raises(ValueError, match="one line"):
        format_record(Game.from_tpn("SH 8S9C/6H - 0 -"), {"Event": "a\nb"})


def _broken(old: str, new: str) -> str:
    assert old in SEEDED
    return SEEDED.replace(old, new)


@pytest.mark.parametrize(
    ("text", "line", "fault"),
    [
        (_broken('[Dealer "1"]', "[Dealer 1]"), 3, 'a header must read [Name "value"]'),
        (_broken('[Dealer "1"]', '[Trumps "SH"]'), 3, "header Trumps appears twice"),
        (_broken('[Dealer "1"]', '[Dealer "x"]'), 3, "Dealer must be a seat number"),
        (_broken('[Seed "42"]', '[Seed "4x"]'), 4, "Seed must be an integer"),
        (_broken('[Seed "42"]', '[Seed "43"]'), 5, "Position does not match the deal of seed 43"),
        (_broken('[Variant "standard"]', '[Variant "fast"]'), 1, "Variant must be standard"),
        (_broken('[Trumps "SH"]', '[Trumps "SS"]'), 2, "cannot deal"),
        (_broken("1. AC 2. 8H-7D", "1. AC 3. 8H-7D"), 9, "expected the move number 2., found '3.'"),
        (_broken("3. 8S-TD", "3. 8S-T"), 9, "move 3: invalid move '8S-T'"),
        (_broken("3. 8S-TD", "3. 8S-9D"), 9, "illegal move 8S-9D: 9D is not in seat 0's"),
        (_broken("12. QH-KH", "12. QH-7H"), 10, "move 12: illegal move QH-7H"),
        (_broken("18. 6H-KS", "18."), 11, "move number 18. has no move after it"),
        (_broken('[Result "loser 0"]', '[Result "draw"]'), 6, "Result says 'draw' but the moves"),
        (_broken('"normal"]', '"checkmate"]'), 7, "Termination 'checkmate' is not one of"),
        (_broken('"normal"]', '"repetition"]'), 7, "Termination says 'repetition'"),
        (_broken("18. 6H-KS\n", ""), 6, "Result says 'loser 0' but the moves give 'ongoing'"),
        (_broken('"normal"]', '"resignation"]'), 7, "the game is already over"),
    ],
)
def test_import_errors_name_the_line_and_the_fault(text: str, line: int, fault: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_record(text)
    assert info.value.line == line
    assert str(info.value).startswith(f"line {line}: ")
    assert fault in str(info.value)


def test_a_record_without_position_or_seed_is_rejected() -> None:
    with pytest.raises(RecordError, match="needs a Position or a Seed"):
        parse_record('[Variant "standard"]\n\n')


def test_a_seed_needs_trumps_and_dealer() -> None:
    with pytest.raises(RecordError, match="Trumps and Dealer") as info:
        parse_record('[Seed "1"]\n')
    assert info.value.line == 1


def test_a_bad_position_is_reported_on_its_line() -> None:
    with pytest.raises(RecordError, match=r"line 2: Position: invalid TPN"):
        parse_record('[Variant "strict"]\n[Position "SH 7C - 0 -"]\n')
