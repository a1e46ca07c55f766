"""``python -m games.ai``: the engine protocol of docs/interfaces.md on stdin and stdout."""

from __future__ import annotations

import sys

from games.ai.protocol import run

if __name__ == "__main__":
    run(sys.stdin, sys.stdout)
