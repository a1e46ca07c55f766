"""Settings for the test suite: the production topology's real parts, on this machine.

The suite talks to real PostgreSQL and Redis; each may be pointed elsewhere with the same
environment variables as the site (`DATABASE_URL`, `REDIS_URL`). Redis gets its own database
index, flushed at the start of a run.
"""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/yourtrumps")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/13")
os.environ.setdefault("CHANNEL_LAYER_PREFIX", "yt-test")
os.environ.setdefault("CACHE_KEY_PREFIX", "yt-test")

from yourtrumps_site.settings import *  # noqa: F403

# A fast hasher: the tests create many users; security of test passwords does not matter.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend")

# Many tests sign up from 127.0.0.1; the limits' own tests lower them again.
ACCOUNT_RATE_LIMITS = {"signup": (10_000, 3600), "password_reset": (10_000, 3600),
                       "password_reset_account": (10_000, 3600)}
