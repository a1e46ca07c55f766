"""The reference bot needs nothing of the site's code (docs/api.md): a program that imports
it loads the standard library, the rules and the AI, and nothing else — no Django, no
module of the site's parts, no package beside the standard library. An engine author can
take `games.ai.bot` with `games.rules` and `games.ai` and talk to any site over HTTP."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OURS = ("games.ai", "games.rules", "games._core")


def test_the_reference_bot_imports_only_the_standard_library_the_rules_and_the_ai() -> None:
    env = {name: value for name, value in os.environ.items()
           if name not in ("DJANGO_SETTINGS_MODULE", "PYTHONPATH")}
    # -S: no site-packages at all, so a third-party import fails here instead of passing.
    done = subprocess.run(
        [sys.executable, "-S", "-c",
         "import sys, games.ai.bot; print('\\n'.join(sorted(sys.modules)))"],
        capture_output=True, text=True, cwd=ROOT, env=env, check=True, timeout=60)
    loaded = done.stdout.split()
    assert "games.ai.bot" in loaded
    foreign = [name for name in loaded
               if name.split(".")[0] not in sys.stdlib_module_names
               and name not in ("__main__", "games")
               and not name.startswith(tuple(f"{ours}." for ours in OURS) + OURS)]
    assert foreign == []
