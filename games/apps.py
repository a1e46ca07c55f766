from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # The Celery tasks of each part are registered in every process, so that a service
        # can send one by its name (`infra.tasks.task_send`), in eager mode
        # too, without importing the module that runs it.
        from games.matchmaking import tasks as matchmaking_tasks  # noqa: F401
        from games.play import receivers as play_receivers
        from games.play import tasks as play_tasks  # noqa: F401
        from games.puzzles import tasks as puzzle_tasks  # noqa: F401
        from games.replays import tasks as replay_tasks  # noqa: F401
        from games.tournaments import tasks as tournament_tasks  # noqa: F401

        play_receivers.connect_signals()

        # A fresh site's database gets the shipped puzzles once migrated (`make run`).
        post_migrate.connect(_load_shipped_puzzles, sender=self)


def _load_shipped_puzzles(**signal: Any) -> None:
    from games.puzzles.shipped import load_shipped_after_migrate

    load_shipped_after_migrate(**signal)
