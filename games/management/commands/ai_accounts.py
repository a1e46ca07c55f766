"""`python manage.py ai_accounts`: the site's AI levels as bot accounts on the rating scale.

For each level (`games.ai.LEVELS`) it makes, or keeps, the account `ai-level-N`: a bot
account (`is_bot`) marked as the site's AI at that level (`User.ai_level`), with no password.
Until an account has played a rated duel its duel rating is seeded from the levels'
calibration in the arena (`games.ai.LEVEL_RATINGS`, docs/ai.md), provisional. It makes each
a new token (`bot:play`, `challenge:write`; the previous ones revoked) and prints one line a
level, `LEVEL NAME TOKEN`, for starting its reference bot:

    python -m games.ai.bot --token TOKEN --url https://site --level LEVEL

So the AI plays rated games as any bot does, through the Bot API, and people who challenge
these accounts measure the levels' ratings; "Play the AI" shows them.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import ApiToken, PlayerRating, RatingMode, TokenScope, User
from accounts.tokens import token_create
from games.ai import LEVEL_RATINGS, LEVELS

NAME = "ai-level-{level}"
TOKEN_NAME = "the site's AI"
# A seeded rating is an estimate: provisional until people's games settle it.
SEED_DEVIATION = 200.0


class Command(BaseCommand):
    help = "Make the AI levels' bot accounts, seed their ratings and print their tokens."

    def handle(self, *args: Any, **options: Any) -> None:
        for level in LEVELS:
            user = self._account(level.number)
            ApiToken.objects.filter(user=user, name=TOKEN_NAME).delete()
            token = token_create(user=user, name=TOKEN_NAME,
                                 scopes=[TokenScope.BOT, TokenScope.CHALLENGE])
            self.stdout.write(f"{level.number} {user.username} {token.text}")

    def _account(self, level: int) -> User:
        name = NAME.format(level=level)
        with transaction.atomic():
            user = User.objects.select_for_update().filter(username__iexact=name).first()
            if user is None:
                user = User(username=name, is_bot=True, ai_level=level)
                user.set_unusable_password()
                user.save()
            elif user.ai_level != level:
                raise CommandError(f"the account {user.username} exists and is not the site's "
                                   f"AI at level {level}")
            rating, _made = PlayerRating.objects.get_or_create(user=user, mode=RatingMode.DUEL)
            if rating.games == 0:
                rating.rating = LEVEL_RATINGS[level]
                rating.deviation = SEED_DEVIATION
                rating.save(update_fields=["rating", "deviation"])
        return user
