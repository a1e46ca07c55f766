"""Matches and play: the Django side of the game. `games.rules` and `games.ai` are pure Python."""
