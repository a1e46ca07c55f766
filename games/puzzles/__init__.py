"""Puzzles on the site: stored puzzles and attempts, their generation from finished duels
and AI self-play, and their export (the pure core is ``games.ai.puzzles``; docs/puzzles.md).
"""
