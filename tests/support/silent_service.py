"""A TCP server on 127.0.0.1 that takes every connection and never says a word: a push
service that accepts and never answers (a TLS client waits for the server's hello), or, at an
origin no setting allows, a local port the site must never connect to. It counts the
connections it took."""

from __future__ import annotations

import socket
import threading


class SilentService:
    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=256)
        self.port = int(self.listener.getsockname()[1])
        self.connections = 0
        self._held: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, daemon=True, name="silent")

    @property
    def origin(self) -> str:
        """As `WEBPUSH_LOCAL_ORIGINS` names it: the push endpoints under it are https URLs."""
        return f"https://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while True:
            try:
                connection, _address = self.listener.accept()
            except OSError:  # closed by `stop`
                return
            self.connections += 1
            self._held.append(connection)  # open, unread, unanswered

    def start(self) -> SilentService:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.listener.close()
        self._thread.join(5)
        for connection in self._held:
            connection.close()

    def __enter__(self) -> SilentService:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
