from django.core.management.base import BaseCommand, CommandError

from yourtrumps_site.translation_checks import (
    catalogue_gaps,
    unmarked_script_text,
    unmarked_template_text,
)


class Command(BaseCommand):
    help = (
        "Fail when a user-facing string is not marked for translation, or a language's "
        "catalogue misses an entry or has a fuzzy one."
    )

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        problems = [f"not marked for translation: {f}" for f in unmarked_template_text()]
        problems += [f"a sentence in a script: {f}" for f in unmarked_script_text()]
        problems += [f"catalogue {code}: {gap}" for code, gap in catalogue_gaps().items()]
        if problems:
            raise CommandError("\n".join(problems))
        self.stdout.write("every string is marked and translated")
