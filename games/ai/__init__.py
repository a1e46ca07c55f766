"""The AI of Svoi Kozyri: bots from a beginner to the strongest level (issue 6).

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

``LEVELS``, ``STRONGEST``, ``level_budget(level) -> seconds``
    The levels, weakest first, with their names, per-move time budgets and descriptions
    for the web page.

``analyse(start, moves, ...) -> list[Mistake]`` (``games.ai.analysis``)
    For a finished duel, the moves that changed the game's exact value.

``solve(state, history=()) -> Solution`` (``games.ai.solver``)
    The exact value of a duel position and every move that keeps it.

Command lines: ``python -m games.ai`` (the engine protocol of INTERFACES.md),
``python -m games.ai.arena`` (bots against each other), ``python -m games.ai.bench``
(search speed and solving times).

Modules: ``view`` (what a bot may see), ``baseline`` (random, greedy, beginner), ``duel``
(move generation for search), ``solver`` (exact), ``evaluation`` and ``search`` (heuristic
alpha-beta), ``duel_engine`` (the strong duel player), ``determinized`` (3-4 players),
``levels`` (``choose_move``), ``protocol``, ``match`` and ``arena``.
"""

from games.ai.levels import LEVELS, STRONGEST, Level, choose_code, choose_move, level_budget

__all__ = ["LEVELS", "STRONGEST", "Level", "choose_code", "choose_move", "level_budget"]
