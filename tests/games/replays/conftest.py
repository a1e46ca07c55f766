"""Matches played through the services of play, for the replay and history tests (the users
`make_user`, `alice` and `bob` come from tests/games/conftest.py)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from games.play import services
from games.play.models import Match
from games.play.services import Player
from games.rules import State

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def play_match(
    players: list[Player],
    *,
    seed: int = 7,
    moves: int | None = None,
    rng_seed: int = 1,
    start: datetime = T0,
    end: str = "",
    spent: list[int] | None = None,
    **options,
) -> Match:
    """Create a match through the services and play random legal moves through
    `services.move_apply` (each taking a few seconds of the clock, or `spent[i]` ms for the
    i-th) until it ends, or for `moves` plies; then, if `end` is "resign", the seat to move
    resigns."""
    rng = random.Random(rng_seed)
    n = len(players)
    options.setdefault("trumps", "SHDC"[:n])
    options.setdefault("dealer", n - 1)
    match = services.match_create(players=players, seed=seed, now=start, **options)
    now = start
    played = 0
    while moves is None or played < moves:
        match = Match.objects.get(pk=match.pk)
        if match.is_over:
            break
        state = State.from_tpn(match.position_tpn)
        legal = [str(m) for m in state.legal_moves()]
        # Prefer playing cards to taking, so that games end in a reasonable number of plies.
        cards = [m for m in legal if not m.startswith("+")]
        move = rng.choice(cards if cards and rng.random() < 0.85 else legal)
        now += timedelta(milliseconds=spent[played] if spent else rng.randrange(300, 4000))
        services.move_apply(match_id=match.pk, seat=match.to_move, move=move,
                            expected_ply=match.ply, now=now)
        played += 1
    match = Match.objects.get(pk=match.pk)
    if end == "resign" and not match.is_over:
        services.match_resign(match_id=match.pk, seat=match.to_move,
                              now=now + timedelta(seconds=1))
        match = Match.objects.get(pk=match.pk)
    return match


@pytest.fixture
def carol(make_user):
    return make_user("carol")
