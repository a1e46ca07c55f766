"""Calls racing each other on the real database: each in a thread of its own, with its own
database connection (as separate daphne processes or workers would have), released together
by a barrier."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

from django.db import connection


def run_together(
    *calls: Callable[[], object],
    expected: type[BaseException] | tuple[type[BaseException], ...] = Exception,
) -> list[object]:
    """Each call's result, or the exception of an ``expected`` kind it raised (kept to assert
    on, never lost); any other exception is raised here once all the threads are done."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)
    unexpected: list[BaseException] = []

    def run(index: int, call: Callable[[], object]) -> None:
        try:
            barrier.wait(5)
            results[index] = call()
        except expected as error:
            results[index] = error
        except BaseException as error:
            unexpected.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    if unexpected:
        raise unexpected[0]
    return results


@contextlib.contextmanager
def rows_held(lock: Callable[[], object]) -> Iterator[None]:
    """While in the block, another connection (a thread of its own, as another process would
    be) holds the rows `lock()` locks (`select_for_update` in it), in a transaction it ends on
    leaving the block."""
    from django.db import transaction

    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                lock()
                held.set()
                release.wait(30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        if not held.wait(10):
            raise RuntimeError("the rows were never held")
        yield
    finally:
        release.set()
        holder.join(15)
