"""The API for programs (docs/api.md), on django-ninja: the public reads (`public`), the Bot
API (`bot`: the event stream, challenges, a game's stream and acts), their authentication by
personal tokens (`auth`, the tokens themselves in `accounts.tokens`), the NDJSON streams on
the channel layer (`streams`, `event_stream`, `game_stream`), and the `/api/` page."""
