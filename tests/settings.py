"""Settings for the test suite: the production topology's real parts, on this machine.

The suite talks to real PostgreSQL and Redis; each may be pointed elsewhere with the same
environment variables as the site (`DATABASE_URL`, `REDIS_URL`). Redis gets its own database
index, flushed at the start of a run.

Under pytest-xdist (`make test` runs two workers) each worker is a run of its own on the same
PostgreSQL and Redis: pytest-django gives its database the worker's suffix, and everything it
keeps in Redis (the channel layer's groups, the cache, Celery's queues) carries the worker's
prefix. The servers and Celery workers a test starts inherit `PYTEST_XDIST_WORKER` and so
derive the same names.
"""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/yourtrumps")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/13")
os.environ.setdefault("CHANNEL_LAYER_PREFIX", "yt-test")
os.environ.setdefault("CACHE_KEY_PREFIX", "yt-test")
# A cooling session's refusal comes at once: the tests knock on purpose, many times in a row.
# The servers a test starts inherit it; the hold's own tests set it.
os.environ.setdefault("WS_REFUSAL_HOLD_SECONDS", "0")
# Each server a test starts keeps a connection per database thread, and the two workers of a
# run start several at once (the session's, a test's own, the load smoke test's two) beside
# tests that race a dozen threads of their own: with production's 8 threads a run reached
# PostgreSQL's 100 connections ("too many clients already"). A test's few sockets need fewer.
os.environ.setdefault("DB_THREADS", "4")

from yourtrumps_site.settings import *  # noqa: F403
from yourtrumps_site.settings import (
    CACHES,
    CELERY_BROKER_TRANSPORT_OPTIONS,
    CHANNEL_LAYERS,
    REDIS_URL,
)

if REDIS_URL:
    CACHES["default"]["BACKEND"] = "tests.support.cache.RunRedisCache"

XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if XDIST_WORKER and REDIS_URL:
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] += f"-{XDIST_WORKER}"
    CACHES["default"]["KEY_PREFIX"] += f"-{XDIST_WORKER}"
    # Every key of the broker (the queues, the unacknowledged tasks a worker may hand out
    # again), so one worker's Celery never runs or restores the other's tasks.
    CELERY_BROKER_TRANSPORT_OPTIONS = {**CELERY_BROKER_TRANSPORT_OPTIONS,
                                       "global_keyprefix": f"{XDIST_WORKER}:"}

# A fast hasher: the tests create many users; security of test passwords does not matter.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend")

# Many tests sign up from 127.0.0.1; the limits' own tests lower them again.
ACCOUNT_RATE_LIMITS = {"signup": (10_000, 3600), "password_reset": (10_000, 3600),
                       "password_reset_account": (10_000, 3600)}

# The end of every finished duel sends its puzzle scan to the run's one slow-queue worker: in
# the tests it examines the last 8 positions of a game rather than 40 (the tests' puzzles are
# small endgames), so that the scans of a run's many finished duels keep up.
PUZZLES_GAME_LAST_POSITIONS = 8

# Web Push: push endpoints' names resolve through a table of the suite's own first
# (`tests.support.push_names`), then as usual; the suite's local stand-ins of push services are
# taken as push services (production takes none): the workers of the suite get theirs in
# `TEST_WEBPUSH_LOCAL_ORIGINS`, a test's own process from the test.
WEBPUSH_RESOLVER = "tests.support.push_names.resolve"
TEST_PUSH_NAMES = {
    "push.example.net": ["93.184.215.14"],
    "fcm.example.net": ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", "93.184.215.14"],
    "rebound.example.net": ["127.0.0.1"],
    "intranet.example.net": ["93.184.215.14", "10.0.0.7"],
    "metadata.example.net": ["169.254.169.254"],
    "mapped.example.net": ["::ffff:127.0.0.1"],
}
WEBPUSH_LOCAL_ORIGINS = tuple(
    origin for origin in os.environ.get("TEST_WEBPUSH_LOCAL_ORIGINS", "").split(",") if origin)

# The test databases start with no puzzle (each test stores its own); the shipped set's own
# tests load it, and the embedded site's (which runs on the site's settings) gets it.
PUZZLES_SHIPPED_SET = None

# The replay's analysis at a sixteenth of the site's budget: the tests that run a real one
# check what it stores, not how much it proves, and the site's budget would make them take
# minutes.
REPLAYS_ANALYSIS_NODES = 3_000_000
