"""New pages cannot ship untranslated: every user-facing string is marked, every catalogue has
every entry of today's code translated and checked (none fuzzy), and the catalogues agree with
each language's grammar (plural forms) and card vocabulary."""

from __future__ import annotations

import gettext
import re
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from yourtrumps_site.translation_checks import (
    catalogue_gaps,
    unmarked_script_text,
    unmarked_template_text,
)

LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
PLURAL_FORMS = {
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
    "(n%100<10 || n%100>=20) ? 1 : 2);",
    "eu": "nplurals=2; plural=(n != 1);",
}
# What in a string must come out exactly as it went in: %(name)s, {name} and HTML tags.
KEPT = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w+\}|<[^>]+>")


def catalogue(code: str) -> Path:
    return Path(settings.BASE_DIR) / "locale" / code / "LC_MESSAGES" / "django.po"


def compiled(code: str, tmp_path: Path) -> gettext.GNUTranslations:
    mo = tmp_path / f"{code}.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(mo), str(catalogue(code))], check=True)
    with mo.open("rb") as file:
        return gettext.GNUTranslations(file)


def listing(findings: list[object]) -> str:
    return "\n".join(str(f) for f in findings)


def test_every_template_text_is_marked_for_translation() -> None:
    findings = unmarked_template_text()
    assert not findings, "Mark these with {% translate %} or {% blocktranslate %}:\n" + listing(
        findings
    )


def test_scripts_hold_no_sentences() -> None:
    findings = unmarked_script_text()
    assert not findings, (
        "Pass these to the script from a template or a view's labels (translated there):\n"
        + listing(findings)
    )


@pytest.mark.slow
def test_every_catalogue_translates_todays_strings() -> None:
    """The catalogues merged with the strings of the code as it is now: nothing missing, nothing
    fuzzy. Fix: run makemessages (see docs/i18n.md), translate, remove the fuzzy flags."""
    gaps = catalogue_gaps()
    assert not gaps, "\n".join(f"{code}: {gap}" for code, gap in gaps.items())


@pytest.mark.parametrize("code", LANGUAGES)
def test_catalogue_header(code: str) -> None:
    text = catalogue(code).read_text(encoding="utf-8")
    header = text.split("\n\n", 1)[0].replace('"\n"', "")
    assert f"Language: {code}\\n" in header
    assert "Content-Type: text/plain; charset=UTF-8\\n" in header
    assert "Project-Id-Version: Your Trumps\\n" in header
    assert f"Plural-Forms: {PLURAL_FORMS[code]}\\n" in header
    assert "#, fuzzy" not in header


@pytest.mark.parametrize("code", LANGUAGES)
def test_translations_keep_placeholders_and_markup(code: str, tmp_path: Path) -> None:
    catalog = compiled(code, tmp_path)._catalog  # type: ignore[attr-defined]
    wrong = []
    for key, translated in catalog.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if not msgid:
            continue  # the header
        if sorted(KEPT.findall(translated)) != sorted(KEPT.findall(msgid)):
            wrong.append(f"{msgid!r} -> {translated!r}")
    assert not wrong, "\n".join(wrong)


# Each language's own card vocabulary, as the board says it (suits, ranks, the trump label).
CARD_WORDS = {
    "pl": {
        "suits": ["trefl", "karo", "kier", "pik"],
        "card_suits": ["trefl", "karo", "kier", "pik"],
        "ranks": ["szóstka", "siódemka", "ósemka", "dziewiątka", "dziesiątka", "walet", "dama",
                  "król", "as"],
        "trump": "Atut: {suit}",
        "queen_of_hearts": "dama kier",
    },
    "ru": {
        "suits": ["трефы", "бубны", "черви", "пики"],
        "card_suits": ["треф", "бубён", "червей", "пик"],
        "ranks": ["шестёрка", "семёрка", "восьмёрка", "девятка", "десятка", "валет", "дама",
                  "король", "туз"],
        "trump": "Козырь: {suit}",
        "queen_of_hearts": "дама червей",
    },
    "eu": {
        "suits": ["hirustak", "diamanteak", "bihotzak", "pikak"],
        "card_suits": ["hirusta", "diamantea", "bihotza", "pika"],
        "ranks": ["seiko", "zazpiko", "zortziko", "bederatziko", "hamarreko", "txanka",
                  "erregina", "errege", "bateko"],
        "trump": "Tronfoa: {suit}",
        "queen_of_hearts": "erregina bihotza",
    },
}
# The word for "trump" in each language, used for every mention of trumps.
TRUMP_STEM = {"pl": "atut", "ru": "козыр", "eu": "tronfo"}


@pytest.mark.parametrize("code", LANGUAGES)
def test_card_vocabulary(code: str) -> None:
    from games.play.views import board_labels

    with translation.override(code):
        labels = board_labels()
    words = CARD_WORDS[code]
    assert list(labels["suits"].values()) == words["suits"]
    assert list(labels["cardSuits"].values()) == words["card_suits"]
    assert list(labels["ranks"].values()) == words["ranks"]
    assert labels["trump"] == words["trump"]
    # A card's name takes the suit in the form a card's name needs (cards.js does the same).
    name = labels["card"].replace("{rank}", labels["ranks"]["Q"]).replace(
        "{suit}", labels["cardSuits"]["H"]
    )
    assert name == words["queen_of_hearts"]


@pytest.mark.parametrize("code", LANGUAGES)
def test_trumps_are_called_the_same_everywhere(code: str, tmp_path: Path) -> None:
    """Every string about trumps uses the one word chosen for them (Basque: tronfoa, never
    triunfoa)."""
    catalog = compiled(code, tmp_path)._catalog  # type: ignore[attr-defined]
    stray = []
    for key, translated in catalog.items():
        msgid = key[0] if isinstance(key, tuple) else key
        about_trumps = re.search(r"\btrumps?\b", msgid, re.IGNORECASE)
        if about_trumps and TRUMP_STEM[code] not in translated.lower():
            stray.append(f"{msgid!r} -> {translated!r}")
    assert not stray, "\n".join(stray)
    assert not any("triunfo" in t.lower() for t in catalog.values())


@pytest.mark.parametrize(
    ("code", "counts"),
    [
        ("ru", {1: "Взять 1 карту", 3: "Взять 3 карты", 5: "Взять 5 карт", 11: "Взять 11 карт",
                21: "Взять 21 карту", 22: "Взять 22 карты", 25: "Взять 25 карт",
                112: "Взять 112 карт"}),
        ("pl", {1: "Weź 1 kartę", 3: "Weź 3 karty", 5: "Weź 5 kart", 12: "Weź 12 kart",
                21: "Weź 21 kart", 22: "Weź 22 karty", 25: "Weź 25 kart", 0: "Weź 0 kart"}),
        ("eu", {1: "Hartu 1 karta", 3: "Hartu 3 karta", 21: "Hartu 21 karta"}),
    ],
)
def test_plural_forms_choose_the_right_word(code: str, counts: dict[int, str]) -> None:
    """Django merges our catalogue with its own (Russian there has four forms): each keeps its
    own plural rule, and ours gives the grammatical form for every number."""
    with translation.override(code):
        for n, expected in counts.items():
            assert translation.ngettext("Take %(n)d card", "Take %(n)d cards", n) % {"n": n} == (
                expected
            )
