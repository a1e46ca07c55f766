"""The consistency check of a load run, in the parent through the ORM: every move a client saw
acknowledged is in the database exactly once, every match's moves are plies 1..n without gaps
or repeats and replay to its stored position, and every finished game replays to its stored
result. The fault tests of the servers check the same after their faults."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tests.load.places import Place
from tests.load.stats import Stats


def check_consistency(stats: Stats, match_ids: set[int]) -> dict[str, Any]:
    from games.play.models import Match, Move, Status
    from games.rules import Game, State

    rows: dict[tuple[int, int], list[tuple[int, str]]] = defaultdict(list)
    for match_id, ply, seat, text in Move.objects.filter(match_id__in=match_ids).values_list(
        "match_id", "ply", "seat", "text"
    ):
        rows[(match_id, ply)].append((seat, text))
    lost, duplicated, wrong = [], [], []
    for match_id, ply, seat, move in [*stats.acks, *stats.applied_unacked]:
        found = rows.get((match_id, ply), [])
        if not found:
            lost.append((match_id, ply, move))
        elif len(found) > 1:
            duplicated.append((match_id, ply, move))
        elif found[0] != (seat, move):
            wrong.append((match_id, ply, move, found[0]))
    gaps, bad_replay, bad_result, finished = [], [], [], 0
    decided_by_play = {"normal", "draw rule", "repetition", "move limit"}
    for match in Match.objects.filter(pk__in=match_ids):
        plies = sorted(p for (m, p) in rows if m == match.pk)
        if plies != list(range(1, match.ply + 1)) or any(
            len(rows[(match.pk, p)]) != 1 for p in plies
        ):
            gaps.append(match.pk)
            continue
        if not match.deal_tpn:
            continue
        # A match started from a crafted position has no deal to check its start against.
        seed = None if getattr(match, "from_position", False) else match.seed
        game = Game(State.from_tpn(match.deal_tpn, strict=match.variant == "strict"),
                    seed=seed, dealer=None if seed is None else match.dealer)
        try:
            for p in plies:
                game.play(rows[(match.pk, p)][0][1])
        except Exception as error:
            bad_replay.append((match.pk, str(error)))
            continue
        if match.position_tpn and game.state.tpn() != match.position_tpn:
            bad_replay.append((match.pk, "position differs"))
        if match.status == Status.FINISHED:
            finished += 1
            if match.termination in decided_by_play:
                outcome = game.outcome()
                if outcome is None or outcome.loser != match.loser_seat or (
                    (outcome.loser is None) != (match.result == "draw")
                ):
                    bad_result.append(match.pk)
    return {
        "acknowledged_moves": len(stats.acks),
        "applied_while_unacknowledged": len(stats.applied_unacked),
        "lost": len(lost), "duplicated": len(duplicated), "wrong": len(wrong),
        "matches_checked": len(match_ids), "matches_with_gaps": len(gaps),
        "bad_replays": len(bad_replay), "finished_games_checked": finished,
        "results_not_replayed": len(bad_result),
        "examples": {"lost": lost[:5], "duplicated": duplicated[:5], "wrong": wrong[:5],
                     "gaps": gaps[:5], "bad_replay": bad_replay[:5], "bad_result": bad_result[:5]},
        "ok": not (lost or duplicated or wrong or gaps or bad_replay or bad_result),
    }


def matches_played(groups: list[list[Place]]) -> set[int]:
    """The first matches and every rematch that followed them."""
    from games.play.models import Match

    ids = {place.match_id for group in groups for place in group}
    frontier = set(ids)
    while frontier:
        frontier = set(Match.objects.filter(previous_id__in=frontier).values_list("pk",
                                                                                  flat=True))
        frontier -= ids
        ids |= frontier
    return ids
