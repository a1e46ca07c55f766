"""``python manage.py puzzles generate --count N [--seed S]``, ``puzzles export`` and
``puzzles verify``."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.puzzles.selectors import puzzle_export_lines
from games.puzzles.services import puzzles_generate, puzzles_verify


class Command(BaseCommand):
    help = ("generate: store N new puzzles (finished duels first, then AI self-play); "
            "export: print every puzzle, one a line: TPN | moves | themes | rating; "
            "verify: prove every puzzle again with the exact solver, retire the wrong ones")

    def add_arguments(self, parser: CommandParser) -> None:
        commands = parser.add_subparsers(dest="action", required=True)
        generate = commands.add_parser("generate", help="store new puzzles")
        generate.add_argument("--count", type=int, required=True)
        generate.add_argument("--seed", type=int, default=0,
                              help="the first seed of the self-play games")
        commands.add_parser("export", help="print every puzzle")
        verify = commands.add_parser("verify", help="prove every puzzle again, retire the "
                                                    "wrong ones")
        verify.add_argument("--max-nodes", type=int, default=None,
                            help="the proof budget of one move (default: "
                                 "PUZZLES_PROOF_NODES)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "export":
            for line in puzzle_export_lines():
                self.stdout.write(line)
            return
        if options["action"] == "verify":
            self._verify(options["max_nodes"])
            return
        count = options["count"]
        if count < 1:
            raise CommandError("--count must be at least 1")
        began = time.monotonic()
        done = puzzles_generate(count=count, seed=options["seed"])
        seconds = time.monotonic() - began
        total = done.from_games + done.from_self_play
        self.stdout.write(
            f"stored {total} puzzles in {seconds:.1f} s: {done.from_games} from "
            f"{done.games_examined} finished games, {done.from_self_play} from "
            f"{done.self_play_games} self-play games ({done.positions_examined} positions "
            f"examined)")

    def _verify(self, max_nodes: int | None) -> None:
        if max_nodes is not None and max_nodes < 1:
            raise CommandError("--max-nodes must be at least 1")
        began = time.monotonic()
        done = puzzles_verify(max_nodes=max_nodes)
        for pk, tpn, fault in done.retired:
            self.stdout.write(f"retired puzzle {pk} ({tpn}): {fault}")
        self.stdout.write(f"checked {done.checked} puzzles in {time.monotonic() - began:.1f} s: "
                          f"{done.checked - len(done.retired)} hold, "
                          f"{len(done.retired)} retired")
