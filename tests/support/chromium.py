"""Debian's Chromium for the browser tests, driven by sync Playwright: one browser per module,
whose contexts are closed even when Chromium hangs closing one."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import uuid
import warnings
from pathlib import Path
from typing import Any

# Seldom, Chromium never answers the close of a context (seen after a page's sockets were
# closed by the server); the test's own checks are done by then, so after this long the
# browser is killed and launched afresh for the next test.
CLOSE_SECONDS = 30


class Chromium:
    """A launched Chromium that stands in for Playwright's `Browser` (`new_context` and the
    rest pass through), launched again when it had to be killed."""

    def __init__(self, playwright: Any, executable: str, flags: list[str]) -> None:
        self._playwright = playwright
        self._executable = executable
        # An argument Chromium ignores, by which its main process is found to be killed.
        self._flags = [*flags, f"--yt-test-browser={uuid.uuid4().hex}"]
        self._browser = self._launch()

    def _launch(self) -> Any:
        return self._playwright.chromium.launch(
            executable_path=self._executable, headless=True, args=self._flags)

    def __getattr__(self, name: str) -> Any:
        if not self._browser.is_connected():
            self._browser = self._launch()
        return getattr(self._browser, name)

    def close_context(self, context: Any) -> None:
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            self._kill()

        timer = threading.Timer(CLOSE_SECONDS, kill)
        timer.start()
        try:
            context.close()
        except Exception:
            if self._browser.is_connected():
                raise  # a browser gone has closed its contexts
        finally:
            timer.cancel()
        if killed.is_set():
            warnings.warn(f"Chromium did not close a context in {CLOSE_SECONDS} s and was "
                          "killed; the next test gets a new one", stacklevel=2)

    def _kill(self) -> None:
        marker = self._flags[-1].encode()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                arguments = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if marker in arguments:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(entry.name), signal.SIGKILL)

    def close(self) -> None:
        if self._browser.is_connected():
            self._browser.close()
