"""Print the JSON Schema of what the match, lobby and site sockets send (their pydantic types).

The client's unit tests read it (`tests/js/fixtures/socket-schemas.json`) to check that the
browser reads every field the server sends; a test checks that file is current.
"""

import json

from django.core.management.base import BaseCommand

from games.matchmaking import schemas as lobby_schemas
from games.play import schemas as match_schemas
from notifications import schemas as notification_schemas


def socket_schemas() -> dict[str, object]:
    """The schema of each message the client draws, by socket and type."""
    return {
        "match": {"state": match_schemas.state_adapter.json_schema(by_alias=True)},
        "lobby": {"lobby": lobby_schemas.Lobby.model_json_schema(by_alias=True)},
        "site": {
            "notifications": notification_schemas.Notifications.model_json_schema(by_alias=True),
            "notification": notification_schemas.Notification.model_json_schema(by_alias=True),
        },
    }


class Command(BaseCommand):
    help = "Print the JSON Schema of the messages the match, lobby and site sockets send."

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        self.stdout.write(json.dumps(socket_schemas(), indent=2, sort_keys=True))
