"""Reads of replays. Nothing here writes. (Game histories: `games.replays.history`.)

Every position of a game is computed here, on the server, by the rules engine:
the page gets the list of positions (one per ply, 0 = the deal) as JSON and the board only
draws them. The rules exist once, in Python; the browser never re-implements them, and a
position can never be drawn differently from what the engine says it is.

A position per ply is small (hands and pile as card strings) and is computed by playing the
moves once, so even a game of the 2000-ply limit is one pass of the engine.

What a replay shows of the hands: once the game is over, every hand. While it is being played,
what the viewer may see (`games.rules.visible_hands`, as on the game page): in the duel both
hands; with 3-4 players a spectator sees, of each hand, only what every player knows, and a
player their own hand too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from games.ai.analysis import ANALYSIS_VERSION
from games.play.models import Match, Move, Seat, TerminationReason
from games.play.selectors import match_game, match_seats
from games.replays.boards import replay_states
from games.rules import Game, GameRecord, State, visible_hands
from games.rules.cards import CARD_NAMES, mask_codes
from games.rules.numerals import plain_decimal

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


# --- a match's moves, with their times ------------------------------------------------------


class StoredMove(NamedTuple):
    """A move row as the replay needs it (a tuple: thousands are read at once)."""

    text: str
    seat: int
    time_spent_ms: int
    clocks_after: list[int | None] | None


def match_moves_get(*, match: Match) -> list[StoredMove]:
    rows = Move.objects.filter(match=match).order_by("ply").values_list(
        "text", "seat", "time_spent_ms", "clocks_after")
    return [StoredMove(*row) for row in rows]


# --- the replay ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlyTiming:
    """The time a move took and every seat's clock after it (None: untimed)."""

    spent_ms: int | None
    clocks_after: list[int | None] | None


def replay_positions(
    *,
    game: Game,
    open_hands: bool,
    viewer_seat: int | None = None,
    timings: Sequence[PlyTiming] | None = None,
    initial_clock_ms: int | None = None,
) -> list[dict[str, Any]]:
    """The position at every ply, 0 (the deal) to the last, as the board draws it.

    Each is ``{"ply", "hands": [[cards, hidden], ...], "pile", "to_move", "out", "move",
    "seat", "clocks", "spent"}``: cards as concatenated card names (``"7C8CQH"``), the pile
    bottom first, ``move``/``seat`` the move that led here and who played it. ``hidden`` is
    the number of cards of that hand this viewer may not see (see the module docstring)."""
    n = game.n_players
    state = game.start.clone()
    clocks: list[int | None] | None = (
        [initial_clock_ms] * n if initial_clock_ms is not None else None
    )
    codes = game.move_codes
    moves = game.moves
    outcome = game.outcome()
    positions = []
    mover: int | None = None
    for ply in range(len(codes) + 1):
        if ply:
            mover = state.to_move
            state.apply_code(codes[ply - 1])
        timing = timings[ply - 1] if timings is not None and 0 < ply <= len(timings) else None
        if timing is not None and timing.clocks_after is not None:
            clocks = list(timing.clocks_after)
        over = state.is_over() or (ply == len(codes) and outcome is not None)
        positions.append(
            {
                "ply": ply,
                "hands": _hands(state, open_hands, viewer_seat),
                "pile": "".join(CARD_NAMES[c] for c in state.pile_codes),
                "to_move": None if over else state.to_move,
                "out": list(state.out),
                "move": str(moves[ply - 1]) if ply else None,
                "seat": mover,
                "clocks": list(clocks) if clocks is not None else None,
                "spent": timing.spent_ms if timing is not None else None,
            }
        )
    return positions


def _hands(state: State, open_hands: bool, viewer_seat: int | None) -> list[list[Any]]:
    if open_hands:
        return [[_cards(mask), 0] for mask in state.hand_masks]
    known, hidden = visible_hands(state, viewer_seat)
    return [[_cards(mask), count] for mask, count in zip(known, hidden, strict=True)]


_CARDS_OF_MASK: dict[int, str] = {}


def _cards(mask: int) -> str:
    """The cards of a mask as text (``"7C8CQH"``); most hands recur from ply to ply."""
    text = _CARDS_OF_MASK.get(mask)
    if text is None:
        if len(_CARDS_OF_MASK) > 50_000:
            _CARDS_OF_MASK.clear()
        text = _CARDS_OF_MASK[mask] = "".join(CARD_NAMES[c] for c in mask_codes(mask))
    return text


def _clock_timings(game: Game, spent: Sequence[int], initial_ms: int,
                   increment_ms: int) -> list[PlyTiming]:
    """Every seat's clock after each move, as the server counts them: the mover's clock
    loses the time spent and gains the increment."""
    clocks: list[int | None] = [initial_ms] * game.n_players
    timings = []
    for mover, ms in zip(game.movers(), spent, strict=True):
        value = clocks[mover]
        assert value is not None
        clocks[mover] = value - ms + increment_ms
        timings.append(PlyTiming(spent_ms=ms, clocks_after=list(clocks)))
    return timings


def _result_view(*, result: str, loser: int | None, termination: str,
                 seats: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    if not result:
        return None
    reasons = dict(TerminationReason.choices)
    reason = str(reasons.get(termination, termination))
    if result == "draw":
        text = _("Draw")
    elif result == "aborted":
        text = _("Aborted")
    elif loser is not None and len(seats) == 2:
        text = _("%(name)s won") % {"name": seats[1 - loser]["name"]}
    elif loser is not None:
        text = _("%(name)s lost") % {"name": seats[loser]["name"]}
    else:
        text = ""
    return {"result": result, "loser": loser, "termination": termination, "reason": reason,
            "text": text}


@dataclass(frozen=True, slots=True)
class Replay:
    """Everything the replay page needs; ``data`` is what its script gets as JSON."""

    data: dict[str, Any]
    match: Match | None = None
    seats: list[Seat] = field(default_factory=list)
    record_text: str = ""

    @property
    def n_plies(self) -> int:
        return len(self.data["positions"]) - 1

    @property
    def live(self) -> bool:
        return bool(self.data["live"])


def taken_over_name(name: str, ply: int | None) -> str:
    """A seat's name in a replay: a person's seat taken over by the AI at a table says from
    which move on the AI played it (the move after `ply`)."""
    if ply is None:
        return name
    return _("%(name)s (the AI from move %(move)d)") % {"name": name, "move": ply + 1}


def _seat_view(seat: Seat) -> dict[str, Any]:
    profile_url = None
    if seat.user_id is not None and (not seat.is_ai or seat.taken_over):
        profile_url = reverse("profile", args=[seat.user.username])
    return {
        "index": seat.index,
        "name": taken_over_name(seat.display_name, seat.taken_over_ply),
        "kind": "ai" if seat.is_ai and not seat.taken_over else (
            "user" if seat.user_id else "guest"),
        "trump": seat.trump or None,
        "url": profile_url,
        "result": seat.result or None,
        "place": seat.place,
        "rating_before": round(seat.rating_before) if seat.rating_before is not None else None,
        "rating_after": round(seat.rating_after) if seat.rating_after is not None else None,
    }


def analysis_key(match_id: int) -> str:
    """The cache key of a duel's analysis: a new version of the analysis, or another budget
    (``REPLAYS_ANALYSIS_NODES``), is made again."""
    return (f"replays:analysis:{ANALYSIS_VERSION}:{settings.REPLAYS_ANALYSIS_NODES}:"
            f"{match_id}")


def analysis_get(*, match_id: int) -> dict[str, Any] | None:
    """The stored analysis of a duel (``games.replays.services.analysis_run``), if any."""
    from django.core.cache import cache

    stored = cache.get(analysis_key(match_id))
    return stored if isinstance(stored, dict) else None


def _analysis_view(analysis: dict[str, Any] | None) -> dict[str, Any] | None:
    """What the page draws of the stored analysis (``services.analysis_view``): its status
    and, once done, seat 0's evaluation at every ply and whether each is exact."""
    if analysis is None:
        return None
    view = {"status": analysis["status"]}
    if analysis["status"] == "done":
        view["values"] = analysis.get("values", [])
        view["exact"] = analysis.get("exact", [])
    return view


def record_available(*, match: Match) -> bool:
    """Whether the record may be given out now. It holds the deal, so every hand: for a
    game of 3-4 being played that would show the hidden cards, so only once it is over."""
    return bool(match.deal_tpn) and (match.is_over or match.n_players == 2)


def replay_of_match(*, match: Match, viewer_seat: int | None = None,
                    seats: list[Seat] | None = None) -> Replay:
    """The replay of a stored match, finished or being played (then as ``viewer_seat`` may
    see it: None for a spectator). ``seats`` (with their users), if already read."""
    if seats is None:
        seats = match_seats(match=match)
    moves = match_moves_get(match=match)
    game = match_game(match=match, moves=[move.text for move in moves])
    seat_views = [_seat_view(seat) for seat in seats]
    timed = match.clock_initial is not None
    positions: list[dict[str, Any]] = []
    if game is not None:
        timings = [
            PlyTiming(spent_ms=m.time_spent_ms, clocks_after=m.clocks_after) for m in moves
        ]
        positions = replay_positions(
            game=game,
            open_hands=match.is_over,
            viewer_seat=viewer_seat,
            timings=timings,
            initial_clock_ms=match.clock_initial * 1000 if timed else None,
        )
        if match.is_over and timed and positions:
            # A loss on time happens between moves: show the flagged clock at the end.
            positions[-1]["clocks"] = [seat.clock_ms for seat in seats]
    analysis = analysis_get(match_id=match.pk) if match.is_over else None
    data = {
        "id": match.pk,
        "live": not match.is_over,
        "status": match.status,
        "version": match.version,
        "n_players": match.n_players,
        "variant": match.variant,
        "rated": match.rated,
        "clock": {"initial": match.clock_initial, "increment": match.clock_increment,
                  "per_move": match.correspondence}
        if timed else None,
        "seats": seat_views,
        "viewer_seat": viewer_seat,
        "positions": positions,
        "result": _result_view(
            result=match.result if match.is_over else "",
            loser=match.loser_seat,
            termination=match.termination,
            seats=seat_views,
        ),
        "marks": analysis.get("marks", {}) if analysis else {},
        "analysis": _analysis_view(analysis),
        "record_url": reverse("replays:record", args=[match.pk])
        if record_available(match=match) else None,
        "data_url": reverse("replays:replay_data", args=[match.pk]),
        "socket_path": f"/ws/match/{match.pk}/" if not match.is_over else None,
    }
    data["states"] = replay_states(data)
    return Replay(data=data, match=match, seats=seats)


def replay_of_record(*, record: GameRecord, text: str) -> Replay:
    """The replay of an imported game record (everything in it is open: it holds the deal)."""
    game = record.game
    headers = record.headers
    names = record.players
    trumps = game.start.trumps
    outcome = game.outcome()
    taken = record_takeovers(headers, game.n_players, game.ply)
    seat_views = []
    for seat in range(game.n_players):
        seat_views.append(
            {
                "index": seat,
                "name": taken_over_name(names[seat] or _("Seat %(seat)d") % {"seat": seat + 1},
                                        taken.get(seat)),
                "kind": "record",
                "trump": trumps[seat].letter,
                "url": None,
                "result": None,
                "place": outcome.place_of(seat) if outcome is not None else None,
                "rating_before": None,
                "rating_after": None,
            }
        )
    initial_ms, increment_ms = _record_clock(headers)
    spent = _record_spent(headers, game.ply)
    timings: list[PlyTiming] | None = None
    if spent is not None and initial_ms is not None:
        timings = _clock_timings(game, spent, initial_ms, increment_ms)
    elif spent is not None:
        timings = [PlyTiming(spent_ms=s, clocks_after=None) for s in spent]
    positions = replay_positions(game=game, open_hands=True, timings=timings,
                                 initial_clock_ms=initial_ms)
    site_end = headers.get("SiteTermination", "")
    if outcome is not None:
        word = "decided" if outcome.loser is not None else outcome.result  # draw, aborted
        result = _result_view(result=word, loser=outcome.loser,
                              termination=site_end or outcome.termination.value,
                              seats=seat_views)
    elif site_end == TerminationReason.AGREEMENT:
        result = _result_view(result="draw", loser=None, termination=site_end,
                              seats=seat_views)
    else:
        result = None
    data = {
        "id": None,
        "live": False,
        "status": "record",
        "version": 0,
        "n_players": game.n_players,
        "variant": "strict" if game.strict else "standard",
        "rated": headers.get("Event", "").lower().startswith("rated"),
        "clock": None if initial_ms is None else {"initial": initial_ms // 1000,
                                                 "increment": increment_ms // 1000,
                                                 "per_move": False},
        "seats": seat_views,
        "viewer_seat": None,
        "positions": positions,
        "result": result,
        "marks": {},
        "analysis": None,
        "record_url": None,
        "data_url": None,
        "socket_path": None,
    }
    data["states"] = replay_states(data)
    return Replay(data=data, record_text=text)


RECORD_SECONDS_DIGITS = 6
"""A record's clock (``TimeControl``) is at most 999,999 seconds a side; more is not ours."""
RECORD_MS_DIGITS = 10
"""A move's time (``MoveTimes``) is at most 9,999,999,999 ms."""


def record_takeovers(headers: dict[str, str], n_players: int, n_plies: int) -> dict[int, int]:
    """The seats the AI took over, from ``TakenOver`` ("SEAT:PLY ...": from that many moves
    on the AI played the seat), seat -> ply. A header of another form is kept as given (as
    every header the site does not know) and shows nothing."""
    taken: dict[int, int] = {}
    for item in headers.get("TakenOver", "").split():
        seat_text, colon, ply_text = item.partition(":")
        seat = plain_decimal(seat_text, max_digits=1)
        ply = plain_decimal(ply_text, max_digits=RECORD_MS_DIGITS)
        if not colon or seat is None or ply is None or seat >= n_players or ply > n_plies:
            return {}
        taken[seat] = ply
    return taken


def _record_clock(headers: dict[str, str]) -> tuple[int | None, int]:
    """The clock of a record's ``TimeControl`` ("initial+increment" in seconds) in ms, or
    (None, 0) when it is untimed or not of that form."""
    initial_text, plus, increment_text = headers.get("TimeControl", "").partition("+")
    initial = plain_decimal(initial_text, max_digits=RECORD_SECONDS_DIGITS)
    increment = plain_decimal(increment_text, max_digits=RECORD_SECONDS_DIGITS)
    if not plus or not initial or increment is None:
        return None, 0
    return initial * 1000, increment * 1000


def _record_spent(headers: dict[str, str], n_plies: int) -> list[int] | None:
    """The milliseconds of each move from ``MoveTimes``, or None unless there is one plain
    number per move."""
    values = [plain_decimal(text, max_digits=RECORD_MS_DIGITS)
              for text in headers.get("MoveTimes", "").split()]
    if len(values) != n_plies or None in values:
        return None
    return [value for value in values if value is not None]
