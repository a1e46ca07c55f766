"""A Celery worker whose AI search takes `FAULT_AI_SECONDS` and writes `FAULT_AI_MARKER` when
it starts, so that a fault test can kill the worker in the middle of a search.

    python -m tests.faults.slow_ai_worker worker --pool=solo ...
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
django.setup()

from games.play import tasks  # noqa: E402
from yourtrumps_site.celery import app  # noqa: E402

_original_choose = tasks._choose


def _slow_choose(game, level, movetime, should_stop):  # type: ignore[no-untyped-def]
    marker = os.environ.get("FAULT_AI_MARKER")
    if marker:
        with Path(marker).open("a") as file:
            file.write(f"search started in {os.getpid()}\n")
    time.sleep(float(os.environ.get("FAULT_AI_SECONDS", "5")))
    return _original_choose(game, level, movetime, should_stop)


tasks._choose = _slow_choose

if __name__ == "__main__":
    app.worker_main(sys.argv[1:])
