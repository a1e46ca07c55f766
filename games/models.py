"""Every model of the games app, gathered where Django looks for them.

Each part of the app keeps its models in its own package: live play (`games.play.models`:
matches, seats, moves) and matchmaking (`games.matchmaking.models`: pools, seeks,
challenges, tables), puzzles (`games.puzzles.models`), tournaments
(`games.tournaments.models`) and game chat (`games.play.chat.models`). They all belong to the app
`games` and share its migrations.
"""

from games.matchmaking.models import Challenge, Pool, PoolEntry, Seek, Table, TableSeat
from games.play.chat.models import ChatMessage, ChatReport
from games.play.models import Match, Move, Seat, Vacation
from games.puzzles.models import DailyPuzzle, Puzzle, PuzzleAttempt, PuzzleScan, PuzzleStreak
from games.tournaments.models import Participant, Tournament, TournamentGame

__all__ = ["Challenge", "ChatMessage", "ChatReport", "DailyPuzzle", "Match", "Move",
           "Participant", "Pool", "PoolEntry", "Puzzle", "PuzzleAttempt", "PuzzleScan",
           "PuzzleStreak", "Seat", "Seek", "Table", "TableSeat", "Tournament", "TournamentGame",
           "Vacation"]
