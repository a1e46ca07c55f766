"""The replay's analysis over AI-vs-AI duels: how much of a game it proves, and its time.

    python bench/analysis_games.py [--games 50] [--pairs level4:level4,level2:level4,...]
                                   [--movetime MS] [--jobs J] [--seed S] [--nodes N]
                                   [--total-nodes N]
                                   [--calibrate] [--save FILE | --load FILE]

Plays ``--games`` duels from seeded deals between the bots of ``--pairs`` in turn (the
arena's bots, ``games.ai.match``; levels at ``--movetime`` per move), then analyses each
with ``games.ai.analyse`` as the replay's task does (``--total-nodes`` a game, by default
the analysis's own ``TOTAL_NODES``, the site's; or ``--nodes`` for every position) and
prints: the share of positions with an exact value and with an estimate, the marks by kind,
and the time the analysis takes per game (mean, median, 95th percentile, max; wall clock
and CPU time of the process, which differ on a shared machine). ``--calibrate`` also fits
the scale that turns search scores into expected scores (``ESTIMATE_SCALE`` of
``games.ai.appraisal``) to the outcomes of the games, by least squares.

Only the analysis is timed; playing the games is not (``--jobs`` plays them in parallel).

``--save FILE`` writes the games played (one JSON object a line: start, moves, loser), and
``--load FILE`` analyses those games instead of playing: so that two checkouts of the code
analyse the same games (run this file with the other checkout's Python, from its
directory, with ``--load``; docs/ai.md).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from games.ai.analysis import TOTAL_NODES, analyse, nodes_per_position
from games.ai.appraisal import ESTIMATE_SCALE
from games.ai.duel import DuelTable
from games.ai.duel_search import repeated_keys
from games.ai.evaluation import WIN_SCORE
from games.ai.match import make_bot, play_game
from games.ai.search import Searcher
from games.rules.deal import deal
from games.rules.game import Game
from games.rules.moves import Move
from games.rules.outcome import Outcome

DEFAULT_PAIRS = "level4:level4,level3:level4,level2:level4,level1:level3"


Played = tuple[str, Sequence[int], Outcome | None]
"""A game: its start (TPN), its move codes, and its outcome (None when loaded)."""


def _play(task: tuple[str, str, float | None, int]) -> Played:
    name_a, name_b, movetime, seed = task
    start = deal(2, seed)
    record = play_game(start, [make_bot(name_a, movetime), make_bot(name_b, movetime)],
                       random.Random(seed))
    return start.tpn(), record.codes, record.outcome


def _game(tpn: str, codes: Sequence[int]) -> Game:
    game = Game.from_tpn(tpn)
    for code in codes:
        game.play(Move.from_code(code, bool(game.state.pile_codes)))
    return game


def _percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def _times(label: str, values: Sequence[float]) -> str:
    return (f"{label}: mean {statistics.fmean(values):.1f} s, p50 {statistics.median(values):.1f}"
            f" s, p95 {_percentile(values, 0.95):.1f} s, max {max(values):.1f} s")


def _scores(game: Game, outcome: Outcome, nodes: int) -> list[tuple[int, int]]:
    """(search score for the mover, the game's result for the mover) at every position that
    is not forced, searched as the analysis searches (``nodes`` per position)."""
    keys = game.position_keys()
    state = game.start.clone()
    t0, t1 = state.trumps
    table = DuelTable((int(t0), int(t1)), state.strict)
    rows = []
    for ply, code in enumerate(game.move_codes):
        h0, h1 = state.hand_masks
        mover = state.to_move
        me, opp = (h0, h1) if mover == 0 else (h1, h0)
        if len(table.ordered_moves(me, opp, state.pile_codes, mover)) > 1:
            searcher = Searcher(table, repeated_keys(keys[:ply]), max_nodes=nodes)
            score = searcher.search(me, opp, state.pile_codes, mover).score
            if abs(score) < WIN_SCORE // 2:
                result = 0 if outcome.loser is None else (1 if outcome.loser != mover else -1)
                rows.append((score, result))
        state.apply_code(code)
    return rows


def _calibrate(rows: Sequence[tuple[int, int]]) -> None:
    def loss(scale: float) -> float:
        return statistics.fmean((y - math.tanh(s / scale)) ** 2 for s, y in rows)

    best = min(range(100, 8001, 50), key=loss)
    print(f"calibration over {len(rows)} positions: best scale {best} (mean squared error "
          f"{loss(best):.3f}; the scale in use, {ESTIMATE_SCALE:.0f}: "
          f"{loss(ESTIMATE_SCALE):.3f}; always 0: {statistics.fmean(y * y for _, y in rows):.3f})")
    print("  score     positions  mean result  tanh(score/best)")
    bins: dict[int, list[int]] = {}
    for score, result in rows:
        bins.setdefault(max(-6, min(6, round(score / 500))), []).append(result)
    for b in sorted(bins):
        print(f"  {b * 500:+6d}  {len(bins[b]):9d}  {statistics.fmean(bins[b]):+11.2f}"
              f"  {math.tanh(b * 500 / best):+16.2f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/analysis_games.py",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--pairs", default=DEFAULT_PAIRS,
                        help=f"bot pairs A:B played in turn (default {DEFAULT_PAIRS})")
    parser.add_argument("--movetime", type=float, default=100.0,
                        help="milliseconds per move of the levels (default 100)")
    parser.add_argument("--jobs", type=int, default=1, help="processes that play the games")
    parser.add_argument("--seed", type=int, default=1000, help="seed of the first deal")
    parser.add_argument("--nodes", type=int, default=None,
                        help="search nodes per position (default: the analysis's own)")
    parser.add_argument("--total-nodes", type=int, default=TOTAL_NODES,
                        help=f"search nodes of a whole game (default {TOTAL_NODES:,})")
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--save", type=Path, help="write the games played to this file")
    parser.add_argument("--load", type=Path,
                        help="analyse the games of this file (from --save) instead of playing")
    args = parser.parse_args(argv)
    if args.load is not None and (args.save is not None or args.calibrate):
        parser.error("--load analyses saved games: not with --save or --calibrate")
    pairs = [tuple(pair.split(":")) for pair in args.pairs.split(",")]
    for pair in pairs:
        if len(pair) != 2:
            parser.error(f"a pair is A:B, not {':'.join(pair)}")
        for name in pair:
            make_bot(name)  # fails early on a bad name
    movetime = args.movetime / 1000
    tasks = [(*pairs[i % len(pairs)], movetime, args.seed + i) for i in range(args.games)]
    played: list[Played]
    if args.load is not None:
        try:
            saved = [json.loads(line) for line in args.load.read_text().splitlines() if line]
            played = [(row["start"], row["moves"], None) for row in saved]
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"--load {args.load}: not a file of saved games ({error})")
        print(f"loaded {len(played)} duels from {args.load}", flush=True)
    else:
        began = time.monotonic()
        if args.jobs > 1:
            with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
                played = pool.map(_play, tasks)
        else:
            played = [_play(task) for task in tasks]
        print(f"played {len(played)} duels ({args.pairs}, {args.movetime:.0f} ms per move) in "
              f"{time.monotonic() - began:.0f} s", flush=True)
        if args.save is not None:
            args.save.write_text("".join(json.dumps({
                "start": tpn, "moves": list(codes),
                "loser": None if outcome is None else outcome.loser}) + "\n"
                for tpn, codes, outcome in played))

    walls, cpus, plies = [], [], []
    positions = exact = 0
    marks: Counter[tuple[str, bool]] = Counter()
    rows: list[tuple[int, int]] = []
    for index, (tpn, codes, outcome) in enumerate(played):
        game = _game(tpn, codes)
        wall, cpu = time.perf_counter(), time.process_time()
        analysis = analyse(game, nodes=args.nodes, total_nodes=args.total_nodes)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        plies.append(game.ply)
        positions += len(analysis.evaluations)
        exact += sum(e.exact for e in analysis.evaluations)
        marks.update((m.judgement.value, m.exact) for m in analysis.mistakes)
        print(f"  game {index + 1}: {game.ply} plies, "
              f"{sum(e.exact for e in analysis.evaluations)} exact, "
              f"{len(analysis.mistakes)} marks, {walls[-1]:.1f} s, CPU {cpus[-1]:.1f} s "
              f"({analysis.nodes_per_position} nodes per position)", file=sys.stderr, flush=True)
        if args.calibrate and outcome is not None:
            rows.extend(_scores(game, outcome,
                                      args.nodes or nodes_per_position(game.ply, args.total_nodes)))
    print(f"plies per game: mean {statistics.fmean(plies):.0f}, median "
          f"{statistics.median(plies):.0f}, max {max(plies)}")
    print(f"positions: {positions}; exact {exact} ({exact / positions:.1%}), estimated "
          f"{positions - exact} ({(positions - exact) / positions:.1%})")
    kinds = ", ".join(f"{marks[(kind, True)] + marks[(kind, False)]} {plural} "
                      f"({marks[(kind, True)]} exact)" for kind, plural in (
                          ("blunder", "blunders"), ("mistake", "mistakes"),
                          ("inaccuracy", "inaccuracies")))
    print(f"marks: {kinds}; {sum(marks.values()) / len(played):.1f} per game")
    print(_times("analysis per game, wall", walls))
    print(_times("analysis per game, CPU ", cpus))
    wall_ms = statistics.fmean(w / (p + 1) for w, p in zip(walls, plies, strict=True)) * 1000
    cpu_ms = statistics.fmean(c / (p + 1) for c, p in zip(cpus, plies, strict=True)) * 1000
    print(f"per position: {wall_ms:.0f} ms wall, {cpu_ms:.0f} ms CPU on average")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    if args.calibrate:
        _calibrate(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
