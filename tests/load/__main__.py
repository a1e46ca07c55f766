"""`python -m tests.load`: see `tests.load.tool`."""

import sys

from tests.load.tool import main

sys.exit(main())
