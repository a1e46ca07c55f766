"""``python -m games.rules``: the command line of docs/interfaces.md (see ``games.rules.cli``)."""

import sys

from games.rules.cli import main

if __name__ == "__main__":
    sys.exit(main())
