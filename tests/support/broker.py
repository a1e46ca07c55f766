"""What Celery really put on the tests' Redis broker, read back from the queue's Redis list.

kombu's Redis transport keeps a queue as a Redis list named after it, each message a JSON
envelope whose headers name the task and whose (base64) body holds its arguments. The tests
that read it route the tasks to a queue of their own, so that a running worker (listening on
the default and the slow queue) cannot take a message before the test has seen it.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import redis
from django.conf import settings

SENT_QUEUE = "tests-sent"


def _broker() -> redis.Redis:
    return redis.Redis.from_url(settings.CELERY_BROKER_URL)


def _queue_key(queue: str) -> str:
    """The queue's Redis key: under a run of several test processes each has its own
    `global_keyprefix` (tests/settings.py), which kombu puts before every key."""
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}) or {}
    return f"{options.get('global_keyprefix', '')}{queue}"


def broker_empty(*, queue: str = SENT_QUEUE) -> None:
    _broker().delete(_queue_key(queue))


def sent_tasks(*, queue: str = SENT_QUEUE) -> list[tuple[str, tuple[Any, ...]]]:
    """The tasks waiting on `queue`, oldest first, by task name and positional arguments."""
    sent = []
    # kombu pushes on the left and consumes from the right: the oldest is last.
    for raw in reversed(_broker().lrange(_queue_key(queue), 0, -1)):
        envelope = json.loads(raw)
        body = envelope["body"]
        if envelope["properties"].get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args, _kwargs, _embed = json.loads(body)
        sent.append((envelope["headers"]["task"], tuple(args)))
    return sent
