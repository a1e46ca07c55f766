"""`makemessages` as this project runs it: the catalogues carry no source locations (a string
moved between modules changes nothing in them, and branches merge without a conflict on every
line), and the folders that hold no translatable strings of the site are skipped. Any option
of Django's command may still be given."""

from __future__ import annotations

from typing import Any

from django.core.management.commands import makemessages

SKIPPED = (".venv", "node_modules", "tests", "games/rules", "games/ai", "bench", "staticfiles",
           "var")


class Command(makemessages.Command):
    def handle(self, *args: Any, **options: Any) -> None:
        options["no_location"] = True
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), *SKIPPED]
        super().handle(*args, **options)
