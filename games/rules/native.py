"""The compiled core, if the install built it: ``core`` is ``games._core`` or None.

Public names: ``core``, ``COMPILED``, ``BUILD_ERROR``.

``pip install -e .`` builds ``games._core`` from ``games/csrc`` with the machine's C
compiler (``setup.py``). The extension is optional: when it is missing (no compiler, a
failed build) or ``YT_PURE_PYTHON=1`` is set, ``core`` is None, a warning is logged once,
and every caller runs its pure Python version, which gives the same results, only slower.
The tests hold the two to the same results (tests/rules/test_compiled.py,
tests/ai/test_compiled_search.py).
"""

from __future__ import annotations

import logging
import os
from types import ModuleType
from typing import Final

logger = logging.getLogger(__name__)


def _load() -> tuple[ModuleType | None, str]:
    if os.environ.get("YT_PURE_PYTHON") == "1":
        return None, "YT_PURE_PYTHON=1 is set"
    try:
        from games import _core
    except ImportError as error:
        return None, f"the compiled core is not built ({error})"
    return _core, ""


core, BUILD_ERROR = _load()
COMPILED: Final = core is not None
if core is None:
    logger.warning("Running the rules and the AI in pure Python, slower: %s. "
                   "Reinstall with a C compiler (pip install -e .) to build games._core.",
                   BUILD_ERROR)
