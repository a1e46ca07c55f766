"""Property tests over random games of 2 to 4 players, in both variants (hypothesis).

Each example deals a game from a seed and plays moves picked by the drawn numbers, and at
every ply checks: the 36 cards are all present once; the legal moves are those of the
reference implementation; every legal move applies, and the fast path and the checked
path agree; every move the checker accepts is generated; notation round-trips (TPN,
moves, observations, and the record at the end); an observation never shows a card its
seat cannot know.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.rules import (
    Game,
    InvalidNotationError,
    Move,
    Observation,
    State,
    format_record,
    parse_record,
    perft,
)
from games.rules.cards import CARD_NAMES, FULL_DECK, mask_codes
from games.rules.moves import BEAT_BASE, TAKE_BASE
from games.rules.playout import random_move_code, random_playout
from tests.rules import reference

GAMES = settings(max_examples=100, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


def _names(mask: int) -> set[str]:
    return {CARD_NAMES[c] for c in mask_codes(mask)}


def _check_all_cards_once(state: State) -> None:
    masks = [state.hand_mask(s) for s in range(state.n_players)]
    pile = state.pile_codes
    total = sum(m.bit_count() for m in masks) + len(pile)
    union = 0
    for mask in masks:
        union |= mask
    for code in pile:
        union |= 1 << code
    assert total == 36
    assert union == FULL_DECK


def _candidate_codes(state: State) -> list[int]:
    """Moves worth asking the checker about: any lone card, any beat by a card in hand,
    takes of every size up to the pile's."""
    hand = list(mask_codes(state.hand_mask(state.to_move)))
    codes = list(range(36))
    codes += [BEAT_BASE + 36 * b + x for b in hand for x in range(36) if x != b]
    codes += [TAKE_BASE + n for n in range(1, len(state.pile_codes) + 2)]
    return codes


def _check_moves(state: State, position: reference.Position) -> None:
    moves = state.legal_moves()
    codes = state.legal_move_codes()
    assert sorted(str(m) for m in moves) == reference.legal_moves(position, state.strict)
    assert len(moves) == len(set(codes)) == state.count_legal_moves()
    legal = set(codes)
    for code in _candidate_codes(state):
        assert state.is_legal(Move.from_code(code)) == (code in legal), code
    for move in moves:
        assert Move.parse(str(move), state) == move
        assert Move.parse(str(move), state).kind is move.kind
        checked, fast = state.clone(), state.clone()
        checked.apply(move)
        fast.apply_code(move.code)
        assert checked == fast
        assert [checked.known_mask(s) for s in range(state.n_players)] == [
            fast.known_mask(s) for s in range(state.n_players)]
        assert checked.tpn() == reference.play(position, str(move)).tpn()


class PublicKnowledge:
    """What everyone knows each seat holds, tracked from the moves, independently of the
    engine: trump sixes from the deal, then cards taken, minus cards played."""

    def __init__(self, position: reference.Position) -> None:
        # Wherever a trump six is, all know it: dealt to its owner, then moved in view.
        sixes = {f"6{trump}" for trump in position.trumps}
        self.public = [sixes & set(hand) for hand in position.hands]

    def played(self, position: reference.Position, move: str) -> None:
        mover = position.to_move
        if move.startswith("+"):
            self.public[mover] |= set(position.pile[len(position.pile) - int(move[1:]):])
        else:
            self.public[mover] -= set(move.split("-"))

    def may_know(self, position: reference.Position, observer: int, seat: int) -> set[str]:
        hands = position.hands
        if seat == observer or len(hands) == 2:
            return set(hands[seat])
        known_elsewhere = all(
            set(hands[s]) <= (set(hands[s]) if s == observer else self.public[s])
            for s in range(len(hands)) if s != seat
        )
        return set(hands[seat]) if known_elsewhere else self.public[seat]


def _check_observations(state: State, position: reference.Position,
                        knowledge: PublicKnowledge) -> None:
    for observer in range(state.n_players):
        observation = Observation.of_state(state, observer)
        assert Observation.from_tpn(observation.tpn(), observer, state.strict) == observation
        for seat in range(state.n_players):
            shown = _names(observation.known[seat])
            assert shown <= set(position.hands[seat])
            assert shown <= knowledge.may_know(position, observer, seat)
            assert observation.hand_size(seat) == state.hand_size(seat)


@GAMES
@given(n_players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), strict=st.booleans(),
       skip=st.sampled_from([0, 0, 50, 100, 200, 400]), plies=st.integers(1, 200),
       move_seed=st.integers(0, 2**32))
def test_random_games_keep_every_invariant(n_players: int, seed: int, strict: bool, skip: int,
                                           plies: int, move_seed: int) -> None:
    # Games are long: ``skip`` plies are played unchecked first, to reach their ends too.
    start = Game.new(n_players, seed=seed, strict=strict).state
    random_playout(start, random.Random(seed), skip)
    game = Game.from_tpn(start.tpn(), strict=strict)  # what it knows: a TPN's, as the tracker
    fast = game.state.clone()
    position = reference.Position.parse(game.state.tpn())
    knowledge = PublicKnowledge(position)
    picks = random.Random(move_seed)
    for _ in range(plies):
        state = game.state
        _check_all_cards_once(state)
        assert State.from_tpn(state.tpn(), strict) == state
        assert State.from_tpn(state.tpn(), strict).tpn() == state.tpn()
        assert reference.result(position) == (
            "ongoing" if state.outcome() is None else state.outcome().result)  # type: ignore[union-attr]
        _check_moves(state, position)
        _check_observations(state, position, knowledge)
        if game.is_over():
            break
        moves = game.legal_moves()
        move = picks.choice(moves)
        observed = [Observation.of_state(state, seat) for seat in range(n_players)]
        game.play(str(move))
        for seat, before in enumerate(observed):
            assert before.play(move) == Observation.of_state(game.state, seat)
        fast.apply_code(move.code)
        knowledge.played(position, str(move))
        position = reference.play(position, str(move))
        assert fast == game.state
    event(f"{n_players} players, {game.ply // 100 * 100}+ plies"
          + (f", {game.outcome().termination.value}" if game.is_over() else ""))  # type: ignore[union-attr]
    record = parse_record(format_record(game))
    assert (record.game.moves, record.game.outcome(), record.game.start) == (
        game.moves, game.outcome(), game.start)
    if not game.state.is_over():
        assert perft(game.state, 2) == reference.perft(position, 2, strict)


@settings(max_examples=60, deadline=None)
@given(n_players=st.integers(2, 4), seed=st.integers(0, 2**32), strict=st.booleans())
def test_random_playout_draws_uniform_moves_the_same_way_as_random_move_code(
    n_players: int, seed: int, strict: bool
) -> None:
    start = Game.new(n_players, seed=seed, strict=strict).state
    played = start.clone()
    plies = random_playout(played, random.Random(seed), max_plies=300)
    stepped = start.clone()
    rng = random.Random(seed)
    for _ in range(plies):
        code = random_move_code(stepped, rng)
        assert code in stepped.legal_move_codes()
        stepped.apply(Move.from_code(code, bool(stepped.pile_codes)))
    assert stepped == played
    assert played.is_over() or plies == 300


def test_random_move_code_is_uniform_over_the_legal_moves() -> None:
    state = State.from_tpn("SH 7C9HAS/KD6HTH 8S 1 -")
    rng = random.Random(5)
    counts: dict[int, int] = {}
    for _ in range(20_000):
        code = random_move_code(state, rng)
        counts[code] = counts.get(code, 0) + 1
    assert set(counts) == set(state.legal_move_codes())
    assert all(3_600 < n < 4_400 for n in counts.values())  # 4,000 each expected


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="6789TJQKACDHS-/?+ 0123456789x", max_size=60))
def test_any_text_is_a_position_or_an_invalid_notation_error(text: str) -> None:
    for parse in (State.from_tpn, Observation.from_tpn):
        parsed: State | Observation | None = None
        message = ""
        try:
            parsed = parse(text)
        except InvalidNotationError as error:
            message = str(error)
        if parsed is None:
            assert message.startswith(("invalid TPN: ", "invalid observation: "))
            assert "\n" not in message
        else:
            assert parse(parsed.tpn()).tpn() == parsed.tpn()
    try:
        move = Move.parse(text)
    except InvalidNotationError:
        pass
    else:
        assert str(move) == text


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**16), cut=st.integers(0, 2000), junk=st.text(max_size=8))
def test_a_damaged_record_is_read_or_rejected_with_a_line_number(seed: int, cut: int,
                                                                 junk: str) -> None:
    game = Game.new(3, seed=seed)
    rng = random.Random(seed)
    for _ in range(30):
        if game.is_over():
            break
        game.play(rng.choice(game.legal_moves()))
    text = format_record(game, {"Event": "test"})
    damaged = text[: cut % len(text)] + junk + text[cut % len(text) :]
    message = "line 0: read"
    try:
        parse_record(damaged)
    except InvalidNotationError as error:
        message = str(error)
    assert message.startswith("line ")
