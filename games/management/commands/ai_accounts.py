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

With ``--arena-deals N`` the seeds are measured first, from duels between the levels in the
arena (``games.ai.duel_ratings``: N deals between each level and the next, in both seatings,
at ``--movetime`` milliseconds a move, default each level's budget, on ``--jobs``
processes); the seeds it used are written to the standard error.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import ApiToken, PlayerRating, RatingMode, TokenScope, User
from accounts.tokens import token_create
from games.ai import LEVEL_RATINGS, LEVELS
from games.ai.duel_ratings import duel_ratings

NAME = "ai-level-{level}"
TOKEN_NAME = "the site's AI"
# A seeded rating is an estimate: provisional until people's games settle it.
SEED_DEVIATION = 200.0


class Command(BaseCommand):
    help = "Make the AI levels' bot accounts, seed their ratings and print their tokens."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--arena-deals", type=int, default=None,
                            help="measure the seeds from this many arena deals per pair of "
                            "levels (default: the tables' calibration, LEVEL_RATINGS)")
        parser.add_argument("--movetime", type=float, default=None,
                            help="milliseconds a move in the arena (default: each level's)")
        parser.add_argument("--jobs", type=int, default=1, help="arena processes")

    def handle(self, *args: Any, **options: Any) -> None:
        deals, movetime, jobs = options["arena_deals"], options["movetime"], options["jobs"]
        if deals is not None and deals < 1:
            raise CommandError("--arena-deals must be at least 1")
        if movetime is not None and movetime <= 0:
            raise CommandError("--movetime must be more than 0")
        if jobs < 1:
            raise CommandError("--jobs must be at least 1")
        seeds = dict(LEVEL_RATINGS)
        if deals is not None:
            seeds = {level: float(rating) for level, rating in duel_ratings(
                deals=deals, movetime=None if movetime is None else movetime / 1000,
                jobs=jobs).items()}
            self.stderr.write("duel ratings from the arena: " + ", ".join(
                f"level {level} {rating:.0f}" for level, rating in sorted(seeds.items())))
        for level in LEVELS:
            user = self._account(level.number, seeds[level.number])
            ApiToken.objects.filter(user=user, name=TOKEN_NAME).delete()
            token = token_create(user=user, name=TOKEN_NAME,
                                 scopes=[TokenScope.BOT, TokenScope.CHALLENGE])
            self.stdout.write(f"{level.number} {user.username} {token.text}")

    def _account(self, level: int, seed: float) -> User:
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
                rating.rating = seed
                rating.deviation = SEED_DEVIATION
                rating.save(update_fields=["rating", "deviation"])
        return user
