"""The engine protocol's session in docs/interfaces.md is run against ``python -m games.ai``
as written, and the page's table of levels is the engine's."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from games.ai import LEVELS

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "docs" / "interfaces.md").read_text()


def _session() -> list[str]:
    """The lines of the page's text block that starts with ``> isready``."""
    blocks = re.findall(r"^```text\n(> isready\n.*?)^```$", TEXT, re.MULTILINE | re.DOTALL)
    assert len(blocks) == 1
    return str(blocks[0]).splitlines()


def test_the_engine_answers_the_session_as_written() -> None:
    lines = _session()
    sent = [line[2:] for line in lines if line.startswith("> ")]
    answers = [line[2:] for line in lines if line.startswith("< ")]
    assert len(sent) + len(answers) == len(lines)
    assert sent[-1] == "quit"
    done = subprocess.run([sys.executable, "-m", "games.ai"], cwd=ROOT,
                          input="\n".join(sent) + "\n", capture_output=True, text=True,
                          timeout=60, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == answers


def test_the_table_of_levels_is_the_engines() -> None:
    rows = re.findall(r"^\| (\d) \| ([a-z ]+) \| (instant|[0-9.]+ s) \|$", TEXT, re.MULTILINE)
    assert [(int(number), name) for number, name, _ in rows] == [
        (level.number, level.name) for level in LEVELS]
    for (_, _, budget), level in zip(rows, LEVELS, strict=True):
        assert budget == ("instant" if level.seconds == 0 else f"{level.seconds:g} s")
