"""The test settings with the waits of play shortened, for a server started by a test that
must see a claim or a timeout happen (`start_asgi_server(DJANGO_SETTINGS_MODULE=...)`)."""

from tests.settings import *  # noqa: F403

GAMES_CLAIM_AFTER_SECONDS = 2
GAMES_TRUMP_CHOICE_SECONDS = 3

GAMES_TABLE_ABSENCE_SECONDS = 2
GAMES_TABLE_MOVE_LIMIT_SECONDS = 4

MATCHMAKING_TABLE_FILL_AI_SECONDS = 2.0
