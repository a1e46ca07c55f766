"""How the time to solve a duel position grows with its cards, and the search speed.

    python bench/ai_solve.py [--per-size K]   (the same as python -m games.ai.bench)
"""

from __future__ import annotations

import sys

from games.ai.bench import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
