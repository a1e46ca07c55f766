"""`python -m tests.load`: see `tests.load.command`."""

import sys

from tests.load.command import main

sys.exit(main())
