"""The board's words: every refusal a match socket can send has words for the player."""

from __future__ import annotations

from games.play import errors
from games.play.views import board_labels
from infra import ws_limits


def test_every_error_code_of_a_match_socket_has_words_on_the_board():
    codes = {*errors.CODES, ws_limits.RATE_LIMITED, ws_limits.UNAVAILABLE}
    assert codes <= set(board_labels()["errors"])


def test_every_player_s_own_end_of_a_table_is_said_in_every_language():
    from django.conf import settings
    from django.utils import translation

    keys = ("won", "wonPlace", "lost", "draw", "drawAccepted", "drawWaiting")
    english = {key: board_labels()[key] for key in keys}
    for code, _name in settings.LANGUAGES:
        if code == "en":
            continue
        with translation.override(code):
            labels = board_labels()
        for key in keys:
            assert labels[key] != english[key], (code, key)
        # The script fills these in: their placeholders must survive translation.
        assert "{place}" in labels["wonPlace"]
        assert "{names}" in labels["drawWaiting"]
