"""Small helpers shared by the rules tests."""

from __future__ import annotations

from games.rules import State


def legal(tpn: str, strict: bool = False) -> set[str]:
    """The legal moves of a position, as notation."""
    return {str(m) for m in State.from_tpn(tpn, strict).legal_moves()}


def after(tpn: str, *moves: str, strict: bool = False) -> str:
    """The canonical TPN after playing ``moves`` (each checked) from ``tpn``."""
    state = State.from_tpn(tpn, strict)
    for move in moves:
        state.apply(move)
    return state.tpn()


def result(tpn: str) -> str:
    outcome = State.from_tpn(tpn).outcome()
    return "ongoing" if outcome is None else outcome.result
