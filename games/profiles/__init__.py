"""A player's profile page (`/@/<name>`): the account's identity and ratings (`accounts`) with
what the games part shows of them: the record, the latest games, the rating charts, the games
being played now, the head-to-head score and the puzzles."""
