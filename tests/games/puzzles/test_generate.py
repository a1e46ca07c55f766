"""Puzzles on the site: cut from a finished match by the task the end of the match sends,
stored once, generated from self-play by the command, exported one a line."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.play import services
from games.play.models import Match
from games.play.services import Player
from games.puzzles.models import Puzzle, PuzzleScan, Source, theme_bits
from games.puzzles.tasks import puzzles_from_match
from games.rules.state import State

pytestmark = pytest.mark.django_db

PUZZLE_TPN = "DH KC6D7H/ACAH - 1 -"


def _finished_from(tpn: str, moves: list[str], alice, bob) -> Match:
    match = services.match_create(players=[Player(user=alice), Player(user=bob)],
                                  start_tpn=tpn, trumps="DH")
    for move in moves:
        match = Match.objects.get(pk=match.pk)
        services.move_apply(match_id=match.pk, seat=match.to_move, move=move,
                            expected_ply=match.ply)
    return Match.objects.get(pk=match.pk)


def test_the_end_of_a_duel_sends_the_task_which_cuts_its_puzzle_once(
        alice, bob, sent_tasks, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = _finished_from(PUZZLE_TPN, ["AC", "6D-KC", "AH"], alice, bob)
    assert match.is_over
    assert ("puzzles.from_match", (match.pk,)) in sent_tasks()
    assert puzzles_from_match(match.pk) == 1
    assert puzzles_from_match(match.pk) == 0  # a retried task stores nothing twice
    puzzle = Puzzle.objects.get()
    assert (puzzle.tpn, puzzle.source, puzzle.match_id, puzzle.ply) == (
        State.from_tpn(PUZZLE_TPN).tpn(), Source.GAME, match.pk, 0)
    assert puzzle.moves == ["AC", "6D-KC", "AH"]
    assert puzzle.solution[0] == {"move": "AC", "player": True, "accepted": ["AC"]}
    assert puzzle.themes == ["trump_ace", "last_card", "short_line"]
    assert puzzle.theme_bits == theme_bits(["trump_ace", "last_card", "short_line"])
    assert PuzzleScan.objects.get(match=match).found == 1


def test_generate_takes_finished_games_first_then_self_play(alice, bob):
    _finished_from(PUZZLE_TPN, ["AC", "6D-KC", "AH"], alice, bob)
    out = io.StringIO()
    call_command("puzzles", "generate", "--count", "4", "--seed", "3", stdout=out)
    assert "stored 4 puzzles" in out.getvalue()
    assert "1 from 1 finished games, 3 from" in out.getvalue()
    assert Puzzle.objects.filter(source=Source.SELF_PLAY).count() == 3
    call_command("puzzles", "generate", "--count", "2", "--seed", "3", stdout=io.StringIO())
    assert Puzzle.objects.count() == 6  # the same seeds: only new positions are stored

    out = io.StringIO()
    call_command("puzzles", "export", stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 6
    tpn = State.from_tpn(PUZZLE_TPN).tpn()
    assert lines[0] == f"{tpn} | AC 6D-KC AH | trump_ace,last_card,short_line | 1280"
    for line in lines:
        tpn, moves, _themes, rating = (part.strip() for part in line.split("|"))
        state = State.from_tpn(tpn)
        for move in moves.split():
            state.apply(move)  # the line is legal from its position
        assert float(rating) > 0


def test_a_count_below_one_is_refused():
    with pytest.raises(CommandError, match="at least 1"):
        call_command("puzzles", "generate", "--count", "0")


@pytest.mark.django_db(transaction=True)
def test_a_match_deleted_while_it_is_scanned_leaves_nothing_behind(alice, bob, monkeypatch,
                                                                   sent_tasks):
    """(`sent_tasks` keeps the end's tasks from a worker that another module may have started:
    its notifications of the end would hold the match the test deletes.)"""
    from games.puzzles import services as puzzle_services

    match = _finished_from(PUZZLE_TPN, ["AC", "6D-KC", "AH"], alice, bob)
    read_game = puzzle_services.match_game

    def deleted_once_read(*, match: Match):
        game = read_game(match=match)
        Match.objects.filter(pk=match.pk).delete()  # by another request, as the scan runs
        return game

    monkeypatch.setattr(puzzle_services, "match_game", deleted_once_read)
    assert puzzles_from_match(match.pk) == 0
    assert not Puzzle.objects.exists()
    assert not PuzzleScan.objects.exists()


def test_the_migration_gives_the_puzzles_stored_before_their_line_theme():
    from importlib import import_module

    from django.apps import apps

    migration = import_module("games.migrations.0020_puzzle_line_themes")
    three = Puzzle.objects.create(tpn="DH KC6D7H/ACAH - 1 -", source=Source.SELF_PLAY,
                                  solution=[{"move": m} for m in ("AC", "6D-KC", "AH")],
                                  themes=["trump_ace", "last_card"],
                                  theme_bits=theme_bits(["trump_ace", "last_card"]))
    one = Puzzle.objects.create(tpn="HS QCKS/AD8H9H 9D 1 -", source=Source.SELF_PLAY,
                                solution=[{"move": "AD-8H"}], themes=[], theme_bits=0)
    migration.add_line_themes(apps, None)
    migration.add_line_themes(apps, None)  # twice: nothing added twice
    three.refresh_from_db()
    one.refresh_from_db()
    assert three.themes == ["trump_ace", "last_card", "short_line"]
    assert three.theme_bits == theme_bits(three.themes)
    assert (one.themes, one.theme_bits) == (["one_move"], theme_bits(["one_move"]))
