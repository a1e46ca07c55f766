"""What the site's templates and scripts share for its languages: the languages by their own
names, and a count's label in every plural form of the page's language. (Which language a
person is addressed in: `accounts.languages`.)"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest

# A count of each plural category (as `Intl.PluralRules` names them) that the site's languages
# have: English and Basque "one" and "other", Polish and Russian also "few" and "many".
# A language with "zero" or "two" (Arabic, Welsh) would need samples of its own.
PLURAL_SAMPLES = {"one": 1, "few": 2, "many": 5, "other": 5}


def plural_labels(label: Callable[[int], str]) -> dict[str, str]:
    """A count's label for a script, in each plural form of the page's language, by category:
    the script picks `labels[new Intl.PluralRules(document.documentElement.lang).select(n)]`.
    `label(n)` calls `ngettext` (so that makemessages finds the strings)."""
    return {category: label(n) for category, n in PLURAL_SAMPLES.items()}


def languages_by_own_name(request: HttpRequest) -> dict[str, object]:
    """Template context: `settings.LANGUAGES` as written there, each in its own language.

    Not `{% get_available_languages %}`, which runs the names through the page's catalogue
    (and Django's own name for Basque is the English one)."""
    return {"LANGUAGES_BY_OWN_NAME": settings.LANGUAGES}
