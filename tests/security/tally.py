"""What the generated-input tests sent in this run, printed at the end of the run
(`tests/security/conftest.py`) and kept in `var/generated-input.json`."""

from __future__ import annotations

from collections import Counter

sent: Counter[str] = Counter()
server_errors: Counter[str] = Counter()


def count(kind: str, n: int = 1) -> None:
    """`kind`: "HTTP requests", "socket messages", "socket handshakes"."""
    sent[kind] += n


def failed(kind: str, n: int = 1) -> None:
    server_errors[kind] += n
