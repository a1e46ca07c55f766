"""``python manage.py puzzles generate --count N [--seed S]``, ``puzzles export``,
``puzzles verify``, and the shipped set's ``puzzles ship --count N [--seed S] --out FILE``
and ``puzzles load [FILE]``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.puzzles.selectors import puzzle_export_lines
from games.puzzles.services import puzzles_generate, puzzles_verify
from games.puzzles.shipped import puzzles_load_shipped, shipped_lines


class Command(BaseCommand):
    help = ("generate: store N new puzzles (finished duels first, then AI self-play); "
            "export: print every puzzle, one a line: TPN | moves | themes | rating; "
            "ship: write N self-play puzzles to a file, the shipped set (nothing stored); "
            "load: store the shipped set (or a file ship wrote), each puzzle once; "
            "verify: prove every puzzle again with the exact solver, retire the wrong ones")

    def add_arguments(self, parser: CommandParser) -> None:
        commands = parser.add_subparsers(dest="action", required=True)
        generate = commands.add_parser("generate", help="store new puzzles")
        generate.add_argument("--count", type=int, required=True)
        generate.add_argument("--seed", type=int, default=0,
                              help="the first seed of the self-play games")
        commands.add_parser("export", help="print every puzzle")
        ship = commands.add_parser("ship", help="write self-play puzzles, one JSON a line")
        ship.add_argument("--count", type=int, required=True)
        ship.add_argument("--seed", type=int, default=0,
                          help="the first seed of the self-play games")
        ship.add_argument("--out", required=True, help="the file to write")
        load = commands.add_parser("load", help="store the shipped set")
        load.add_argument("path", nargs="?", default=None,
                          help="a file `ship` wrote (default: PUZZLES_SHIPPED_SET)")
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
        if options["action"] == "load":
            if options["path"] is None and not settings.PUZZLES_SHIPPED_SET:
                raise CommandError("no file given and PUZZLES_SHIPPED_SET is not set")
            stored = puzzles_load_shipped(path=options["path"])
            self.stdout.write(f"stored {stored} new puzzles")
            return
        if options["action"] == "verify":
            self._verify(options["max_nodes"])
            return
        count = options["count"]
        if count < 1:
            raise CommandError("--count must be at least 1")
        began = time.monotonic()
        if options["action"] == "ship":
            with Path(options["out"]).open("w", encoding="utf-8") as out:
                for line in shipped_lines(count=count, seed=options["seed"]):
                    out.write(line + "\n")
            self.stdout.write(f"wrote {count} puzzles to {options['out']} in "
                              f"{time.monotonic() - began:.1f} s")
            return
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
