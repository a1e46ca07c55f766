"""The compiled core (games/csrc -> games._core), built by the normal install with the
machine's C compiler. It is optional: without a compiler the install still succeeds and
games.rules.native falls back to pure Python, with a warning (docs/architecture.md)."""

import platform

from setuptools import Extension, setup

# Card sets are 64-bit masks: the popcount instruction (every x86-64 CPU since 2008 has it)
# counts one in a cycle where the portable fallback loops.
POPCOUNT = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []

setup(
    ext_modules=[
        Extension(
            "games._core",
            sources=["games/csrc/module.c", "games/csrc/rules.c", "games/csrc/search.c",
                     "games/csrc/retrograde.c"],
            depends=["games/csrc/core.h", "games/csrc/duel.h", "games/csrc/duel_table.h"],
            extra_compile_args=["-O3", "-std=c11", *POPCOUNT],
            optional=True,
        )
    ]
)
