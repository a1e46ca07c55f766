"""``python -m games.rules``: the command line of INTERFACES.md (see ``games.rules.cli``)."""

import sys

from games.rules.cli import main

if __name__ == "__main__":
    sys.exit(main())
