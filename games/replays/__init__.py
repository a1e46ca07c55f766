"""Replays and game history.

- ``selectors``: the history lists (a player's, the site's) with their filters, and the
  replay of a match or of an imported record: every position, computed by the rules engine.
- ``services``: the game record (our PGN, ``games.rules.record``) out of a match and back in.
- ``views`` / ``urls`` / ``forms``: the pages; ``docs/replays.md`` describes them.
"""
