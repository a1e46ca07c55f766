"""The checks of yourtrumps_site.translation_checks catch what they promise to catch: run on a
copy of the project with a page that forgot a string, one whose string has no translation, and
one whose string changed a little (msgmerge then marks the old translation fuzzy)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings

from yourtrumps_site import translation_checks
from yourtrumps_site.translation_checks import (
    EXCLUDED_DIRS,
    catalogue_gaps,
    text_only,
    unmarked_script_text,
    unmarked_template_text,
)

pytestmark = pytest.mark.slow

NEW_PAGE = """{% extends "base.html" %}{% load i18n %}
{% block body_class %}page-new{% endblock %}
{% block content %}
<h1>A heading nobody marked</h1>
<p title="A tooltip nobody marked">{% translate "A sentence nobody has translated yet" %}</p>
<p>{% translate "Rematch offered!" %}</p>
<p>Not for translation: a code name <!-- i18n-ignore --></p>
{% endblock %}
"""
NEW_SCRIPT = 'export const hint = "Press the button to play";\n'


@pytest.fixture
def project_copy(tmp_path: Path, settings: object) -> Path:
    base = Path(settings.BASE_DIR)  # type: ignore[attr-defined]
    copy = tmp_path / "project"
    shutil.copytree(
        base, copy, ignore=shutil.ignore_patterns(*EXCLUDED_DIRS, "__pycache__", "*.mo")
    )
    settings.BASE_DIR = copy  # type: ignore[attr-defined]
    return copy


def add_new_page(copy: Path) -> None:
    (copy / "templates" / "pages" / "new.html").write_text(NEW_PAGE)
    (copy / "static" / "js" / "new.js").write_text(NEW_SCRIPT)


def counts(summary: str) -> dict[str, int]:
    """{"untranslated": 1, "fuzzy": 2} from msgfmt's "471 translated messages, 2 fuzzy ..."."""
    found = dict.fromkeys(("translated", "fuzzy", "untranslated"), 0)
    for number, kind in re.findall(r"(\d+) (translated|fuzzy|untranslated)", summary):
        found[kind] = int(number)
    return found


def test_unmarked_text_is_found_with_its_line(project_copy: Path) -> None:
    add_new_page(project_copy)
    found = {(f.path, f.line, f.text) for f in unmarked_template_text()}
    assert ("templates/pages/new.html", 4, "A heading nobody marked") in found
    assert ("templates/pages/new.html", 5, "A tooltip nobody marked") in found
    # Marked strings, the CSS class of a body_class block and a marked exception are not.
    assert all(f[0] != "templates/pages/new.html" or f[1] in (4, 5) for f in found)


def test_a_sentence_in_a_script_is_found(project_copy: Path) -> None:
    add_new_page(project_copy)
    found = {(f.path, f.line, f.text) for f in unmarked_script_text()}
    assert ("static/js/new.js", 1, "Press the button to play") in found


def test_a_missing_or_fuzzy_translation_is_found(project_copy: Path) -> None:
    """The new page adds one string nobody translated and one that changed a little; the
    count of each grows by one (others may be working on strings of their own right now)."""
    before = catalogue_gaps()
    add_new_page(project_copy)
    after = catalogue_gaps()
    languages = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
    assert sorted(after) == sorted(languages)
    for code in languages:
        old, new = counts(before.get(code, "")), counts(after[code])
        assert new["untranslated"] == old["untranslated"] + 1, after[code]
        assert new["fuzzy"] == old["fuzzy"] + 1, after[code]


def test_text_only_keeps_line_numbers() -> None:
    source = '{% load i18n %}\n{% blocktranslate %}a\nb{% endblocktranslate %}\nWord here\n'
    assert text_only(source).split("\n")[3] == "Word here"
    assert translation_checks.readable_lines(text_only(source)) == [(4, "Word here")]
