"""The AI of Svoi Kozyri: bots from a beginner to the strongest level.

Pure Python, no Django. The site's API:

``choose_move(position, level=STRONGEST, *, movetime=None, rng=None, should_stop=None,
history=()) -> Move``
    A legal move for the seat to move. ``position`` is a ``Game`` (its history counts for
    repetition), a ``State`` or an ``Observation``. With 3-4 players the bot plays from
    the mover's observation only (a ``State`` is reduced to it first), never from the true
    hands. ``movetime`` (seconds) overrides the level's budget; the move is returned within
    about that time, earlier when it is forced or the position is solved. ``should_stop``
    is polled during the search: once it returns True the best move found so far is
    returned (to honour a Celery soft time limit). ``history`` (``State.key()`` of each
    position played, the current one included) stands in for a ``Game``'s history.
    Raises ValueError if the game is over.

``LEVELS``, ``STRONGEST``, ``level_budget(level, players=2) -> seconds``
    The levels, weakest first, with their names, per-move time budgets (the duel's, and a
    shorter one at tables of 3-4) and descriptions for the web page.

``level_for_rating(rating) -> level``
    The level that plays about like a person of that rating, at least level 3: the AI that
    takes over the seat of a person who left a table (``LEVEL_RATINGS`` are the levels'
    estimated ratings, calibrated in docs/ai.md).

``draw_answer(game, seat, level, *, rng=None, seconds=None) -> DrawAnswer``
    At a table of 3-4: whether the AI in ``seat`` accepts a draw offer now
    (``DrawAnswer.accept``), from that seat's observation only: it accepts unless it is
    winning, its estimated chance of ending as the loser below its fair share
    (``games.ai.draws``).

``analyse(game_or_start, moves=(), *, nodes=None, total_nodes=TOTAL_NODES) -> Analysis``
    For a finished duel (a ``Game``, or a start ``State`` and its moves): an
    ``Evaluation(value, exact)`` of every position, seat 0's expected score in [-1, 1]
    (1 a win, 0 a draw, -1 a loss), exact where it is proven and the search's estimate
    elsewhere; and the ``Mistake(ply, move, judgement, exact, value_before, value_after,
    best_moves)`` items, inaccuracies, mistakes and blunders by the drop of the mover's
    evaluation. The budget is in search nodes per position, so the result is a pure
    function of the game (see ``games.ai.analysis``).

``solve(state, history=(), *, all_moves=True, ...) -> Solution``
    The exact value of a duel position and every move that keeps it (``Solution.value``,
    ``.moves`` as codes, ``.moves_text()``); raises ``SearchTimeout`` past its budget.
    ``history`` is as for ``choose_move`` (``Game.position_keys()``).

Command lines: ``python -m games.ai`` (the engine protocol of docs/interfaces.md),
``python -m games.ai.arena`` (bots against each other), ``python -m games.ai.bench``
(search speed and solving times), ``python -m games.ai.bot`` (the AI on a site over its Bot
API, by HTTP alone: docs/api.md).

Modules: ``view`` (what a bot may see), ``baseline`` (random, greedy, beginner), ``duel``
(move generation for search), ``duel_search`` (the session, budget and root that the next
two share), ``solver`` (exact), ``evaluation`` and ``search`` (heuristic alpha-beta),
``duel_engine`` (the strong duel player), ``determinized`` (3-4 players), ``inference``
(what the public moves say of hidden hands, and sampling them), ``rollout`` (fast greedy
playouts), ``levels`` (``choose_move``), ``draws`` (the answer to a draw offer at a table),
``appraisal`` and ``analysis`` (the replay's analysis), ``protocol``, ``match`` and
``arena``.
"""

from games.ai.analysis import Analysis, Evaluation, Judgement, Mistake, analyse
from games.ai.draws import DrawAnswer, draw_answer
from games.ai.levels import (
    LEVEL_RATINGS,
    LEVELS,
    STAND_IN_MIN_LEVEL,
    STRONGEST,
    Level,
    choose_code,
    choose_move,
    level_budget,
    level_for_rating,
)
from games.ai.solver import Solution, solve

__all__ = [
    "LEVELS",
    "LEVEL_RATINGS",
    "STAND_IN_MIN_LEVEL",
    "STRONGEST",
    "Analysis",
    "DrawAnswer",
    "Evaluation",
    "Judgement",
    "Level",
    "Mistake",
    "Solution",
    "analyse",
    "choose_code",
    "choose_move",
    "draw_answer",
    "level_budget",
    "level_for_rating",
    "solve",
]
