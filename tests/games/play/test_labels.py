"""The board's words: every refusal a match socket can send has words for the player."""

from __future__ import annotations

from games.play import errors
from games.play.views import board_labels
from yourtrumps_site import ws_limits


def test_every_error_code_of_a_match_socket_has_words_on_the_board():
    codes = {*errors.CODES, ws_limits.RATE_LIMITED, ws_limits.UNAVAILABLE}
    assert codes <= set(board_labels()["errors"])
