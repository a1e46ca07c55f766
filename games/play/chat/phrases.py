"""The quick phrases and the reactions of game chat.

A phrase travels and is kept as its id; each reader's socket shows it in the reader's own
language, so two players who share no language still greet each other. Reactions are a fixed
set of emoji, open to guests as the phrases are."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

PHRASES: dict[str, Promise] = {
    "hello": _("Hello!"),
    "good_luck": _("Good luck!"),
    "thinking": _("Let me think…"),
    "sorry": _("Sorry!"),
    "well_played": _("Well played!"),
    "thanks": _("Thank you!"),
    "good_game": _("Good game!"),
    "rematch": _("Rematch?"),
}

REACTIONS = ("👍", "😀", "😮", "😢", "🔥", "👏", "🤝", "❤️")


def phrase_text(phrase_id: str) -> str:
    """The phrase in the active language ('' for an id that is not one)."""
    words = PHRASES.get(phrase_id)
    return "" if words is None else str(words)
