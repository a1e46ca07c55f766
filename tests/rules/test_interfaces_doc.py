"""The examples of ``python -m games.rules`` in docs/interfaces.md are run as written: each
command's output (standard output, then standard error) and its exit status."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "interfaces.md"
CONSOLE = re.compile(r"^```console\n(.*?)^```$", re.MULTILINE | re.DOTALL)
PROMPT = "$ "


def _examples() -> list[tuple[str, list[str]]]:
    """Each ``$ command`` of the page's console blocks with the lines that follow it."""
    examples: list[tuple[str, list[str]]] = []
    for block in CONSOLE.findall(DOC.read_text()):
        for line in block.splitlines():
            if line.startswith(PROMPT):
                examples.append((line[len(PROMPT):], []))
            else:
                examples[-1][1].append(line)
    return examples


EXAMPLES = _examples()


def _run(command: str) -> subprocess.CompletedProcess[str]:
    """Run ``[printf '...' |] python -m games.rules ...`` without a shell."""
    words = shlex.split(command)
    stdin = ""
    if words[0] == "printf":
        assert words[2] == "|", command
        stdin = words[1].replace("\\n", "\n")
        words = words[3:]
    assert words[:3] == ["python", "-m", "games.rules"], command
    return subprocess.run([sys.executable, *words[1:]], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=60, check=False)


def test_the_page_has_examples_of_every_command() -> None:
    commands = {shlex.split(command.split("| ")[-1])[3] for command, _ in EXAMPLES}
    assert commands >= {"moves", "perft", "play", "result", "bench"}
    assert len(EXAMPLES) >= 20


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_the_example_prints_what_the_page_says(command: str, expected: list[str]) -> None:
    done = _run(command)
    assert (done.stdout + done.stderr).splitlines() == expected
    assert done.returncode == (2 if done.stderr else 0)
    if done.returncode and "moves -" not in command:
        assert done.stdout == ""
