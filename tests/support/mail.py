"""The mail a Celery worker sent, read from the files of Django's file-based e-mail backend
(one file per connection, its messages separated by a line of 79 dashes)."""

from __future__ import annotations

import email
import email.policy
import time
from email.message import EmailMessage
from pathlib import Path

SEPARATOR = b"\n" + b"-" * 79 + b"\n"


class WorkerOutbox:
    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def messages(self, to: str | None = None) -> list[EmailMessage]:
        found = []
        for path in sorted(self.directory.glob("*.log"), key=lambda p: p.stat().st_mtime_ns):
            for chunk in path.read_bytes().split(SEPARATOR):
                if not chunk.strip():
                    continue
                message = email.message_from_bytes(chunk.lstrip(), policy=email.policy.default)
                if to is None or to in str(message["To"]):
                    found.append(message)  # type: ignore[arg-type]
        return found

    def wait_for(self, to: str, count: int, timeout: float = 60) -> list[EmailMessage]:
        """The mail to `to` once at least `count` have arrived (polled: another process
        writes it, and nothing tells this one when)."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.messages(to)
            if len(found) >= count or time.monotonic() > deadline:
                return found
            time.sleep(0.1)
