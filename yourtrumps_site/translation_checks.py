"""Finds what would ship untranslated: unmarked text in templates and scripts, and catalogue
entries that are missing or fuzzy. Used by `manage.py check_translations` and the test suite.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.template.base import Lexer, TokenType

# Attributes whose values a person reads or hears (screen readers) and so must be translated.
READABLE_ATTRIBUTES = ("title", "alt", "placeholder", "aria-label", "aria-description")
TEXT_WITH_WORDS = re.compile(r"[^\W\d_]{2,}")
SCRIPT_OR_STYLE = re.compile(r"<(script|style)\b.*?</\1\s*>", re.DOTALL | re.IGNORECASE)
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
TAG = re.compile(r"<[^>]*>", re.DOTALL)
ENTITY = re.compile(r"&[#\w]+;")
ATTRIBUTE_VALUE = re.compile(
    r"\b(" + "|".join(READABLE_ATTRIBUTES) + r")\s*=\s*\"([^\"]*)\"", re.IGNORECASE
)
# A sentence in a script: a capital letter, words with spaces, no code-like characters.
JS_SENTENCE = re.compile(r"""(["'`])([A-Z][a-z]+(?: [\w',.!?-]+)+[.!?]?)\1""")
NOT_TRANSLATED_MARK = "i18n-ignore"
# A `{% block %}` that fills an attribute (`{% block body_class %}page-game{% endblock %}`) holds
# names for the code, not words for a reader.
ATTRIBUTE_BLOCK = re.compile(r"(^|_)(class|classes|id)$")
EXCLUDED_DIRS = {".venv", "node_modules", "staticfiles", "tests", ".git", "var", "bench"}


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text!r}"


def template_dirs() -> list[Path]:
    base = Path(settings.BASE_DIR)
    dirs = [base / "templates"]
    dirs += [base / app / "templates" for app in ("accounts", "games", "yourtrumps_site")]
    return [d for d in dirs if d.is_dir()]


def unmarked_template_text() -> list[Finding]:
    """Text of a template with words in it that is not inside a translation tag."""
    findings = []
    base = Path(settings.BASE_DIR)
    for directory in template_dirs():
        for path in sorted(directory.rglob("*.html")) + sorted(directory.rglob("*.txt")):
            source = path.read_text()
            lines = source.splitlines()
            for number, text in readable_lines(text_only(source)):
                if NOT_TRANSLATED_MARK not in lines[number - 1]:
                    findings.append(Finding(str(path.relative_to(base)), number, text))
    return findings


def text_only(source: str) -> str:
    """The template with every tag, variable, comment and translation block blanked out,
    keeping its line breaks, so an HTML tag split by a template tag is still one tag."""
    parts = []
    in_translation_block = False
    # One entry per open `{% block %}`: whether it fills an attribute such as a CSS class.
    blocks: list[bool] = []
    for token in Lexer(source).tokenize():
        raw = token.contents
        if token.token_type is TokenType.BLOCK:
            words = raw.split()
            name = words[0] if words else ""
            if name in {"blocktranslate", "blocktrans"}:
                in_translation_block = True
            elif name in {"endblocktranslate", "endblocktrans"}:
                in_translation_block = False
            elif name == "block":
                blocks.append(len(words) > 1 and bool(ATTRIBUTE_BLOCK.search(words[1])))
            elif name == "endblock" and blocks:
                blocks.pop()
        readable = not in_translation_block and not any(blocks)
        if token.token_type is TokenType.TEXT and readable:
            parts.append(raw)
        else:
            parts.append("\x00" + "\n" * raw.count("\n"))
    return "".join(parts)


def readable_lines(html: str) -> list[tuple[int, str]]:
    """(line number, text) of what a person would read or hear in the HTML."""
    keep_lines = lambda match: "\n" * match.group(0).count("\n")  # noqa: E731
    html = COMMENT.sub(keep_lines, SCRIPT_OR_STYLE.sub(keep_lines, html))
    found = []
    for number, line in enumerate(html.split("\n"), start=1):
        for _name, value in ATTRIBUTE_VALUE.findall(line):
            if TEXT_WITH_WORDS.search(value.replace("\x00", " ")):
                found.append((number, value.strip()))
    html = ENTITY.sub(" ", TAG.sub(lambda m: keep_lines(m) or " ", html))
    for number, line in enumerate(html.split("\n"), start=1):
        text = line.replace("\x00", " ").strip()
        if TEXT_WITH_WORDS.search(text):
            found.append((number, text))
    return found


def unmarked_script_text() -> list[Finding]:
    """Sentences written into scripts: the labels of the board must come from the templates."""
    base = Path(settings.BASE_DIR)
    findings = []
    for path in sorted((base / "static").rglob("*.js")):
        if "vendor" in path.parts:
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            stripped = line.strip()
            if stripped.startswith("//") or NOT_TRANSLATED_MARK in line:
                continue
            for _quote, sentence in JS_SENTENCE.findall(line):
                findings.append(Finding(str(path.relative_to(base)), number, sentence))
    return findings


def catalogue_gaps() -> dict[str, str]:
    """For each language but English: what `msgfmt --statistics` says of a catalogue freshly
    merged with the strings of today's code, when anything is untranslated or fuzzy."""
    base = Path(settings.BASE_DIR)
    languages = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
    gaps: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "project"
        shutil.copytree(
            base, copy, ignore=shutil.ignore_patterns(*EXCLUDED_DIRS, "__pycache__", "*.mo")
        )
        (copy / "locale").mkdir(exist_ok=True)
        command = [sys.executable, "manage.py", "makemessages", "--no-obsolete", "-v0"]
        command += [f"--locale={code}" for code in languages]
        command += [f"--ignore={name}/*" for name in sorted(EXCLUDED_DIRS)]
        command += ["--ignore=games/rules/*", "--ignore=games/ai/*"]
        # The copy leaves out tests/, so it runs on the site's own settings (whatever settings
        # module the caller uses, say the test suite's), with its state kept in the scratch dir.
        environment = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "yourtrumps_site.settings",
            "YOURTRUMPS_VAR_DIR": str(Path(scratch) / "var"),
        }
        merged = subprocess.run(
            command, cwd=copy, env=environment, capture_output=True, text=True
        )
        if merged.returncode != 0:
            raise RuntimeError(f"makemessages failed:\n{merged.stderr or merged.stdout}")
        for code in languages:
            catalogue = copy / "locale" / code / "LC_MESSAGES" / "django.po"
            result = subprocess.run(
                ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(catalogue)],
                capture_output=True, text=True,
            )
            output = (result.stderr + result.stdout).strip().splitlines()
            summary = next((line for line in output if "translated message" in line), "")
            if result.returncode != 0 or "untranslated" in summary or "fuzzy" in summary:
                gaps[code] = summary or "\n".join(output)
    return gaps
