"""Settings of Your Trumps, read from the environment (12-factor).

With no environment at all the *embedded default* runs: SQLite, the in-memory channel layer
and Celery in eager mode, so that `make run` needs no service. Setting `DATABASE_URL` and
`REDIS_URL` gives the production topology; `DJANGO_ENV=production` turns on the checks and
hardening that a public deployment needs (and makes `SECRET_KEY` mandatory).
"""

from __future__ import annotations

import secrets
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()

# Local state of the embedded default (the SQLite file, the generated secret key).
VAR_DIR = Path(env.str("YOURTRUMPS_VAR_DIR", default=str(BASE_DIR / "var")))

DJANGO_ENV = env.str("DJANGO_ENV", default="embedded")
if DJANGO_ENV not in {"embedded", "production"}:
    raise ImproperlyConfigured(
        f"DJANGO_ENV must be 'embedded' or 'production', not {DJANGO_ENV!r}."
    )
PRODUCTION = DJANGO_ENV == "production"


def _embedded_secret_key() -> str:
    """A key made once per checkout, so that sessions survive restarts of `make run`."""
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


if PRODUCTION:
    try:
        SECRET_KEY = env.str("SECRET_KEY")
    except ImproperlyConfigured:
        raise ImproperlyConfigured(
            "SECRET_KEY is required when DJANGO_ENV=production: set it to a long random "
            "string (python -c 'import secrets; print(secrets.token_urlsafe(50))')."
        ) from None
    if len(SECRET_KEY) < 50:
        raise ImproperlyConfigured("SECRET_KEY must be at least 50 characters long in production.")
else:
    SECRET_KEY = env.str("SECRET_KEY", default="") or _embedded_secret_key()

DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list(
    "ALLOWED_HOSTS", default=[] if PRODUCTION else ["localhost", "127.0.0.1", "[::1]"]
)
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS is required when DJANGO_ENV=production.")
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "axes",
    "csp",
    "yourtrumps_site",
    "accounts",
    "games",
    "notifications",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: a logged-in player's saved language wins over the browser's.
    "accounts.languages.UserLocaleMiddleware",
    # Writes User.last_seen at most once every few minutes per user.
    "accounts.middleware.LastSeenMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The Content-Security-Policy header (directives below), with the site's WebSocket origin.
    "yourtrumps_site.csp.SitePolicyMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "yourtrumps_site.urls"
ASGI_APPLICATION = "yourtrumps_site.asgi.application"
WSGI_APPLICATION = "yourtrumps_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "infra.i18n.languages_by_own_name",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "notifications.context_processors.notifications",
            ],
        },
    },
]

# --- Data -------------------------------------------------------------------------------------
DATABASES = {
    "default": env.db_url(
        "DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'yourtrumps.sqlite3'}"
    ),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    # WAL lets the web process read while the AI thread writes; the timeout waits out a lock
    # instead of failing a move with "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
else:
    # Persistent connections: each database thread of a daphne process keeps its own, so a
    # socket's query does not pay for a new PostgreSQL backend (0: a connection per call).
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DB_CONN_MAX_AGE", default=60))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True


def _positive_int(name: str, default: int) -> int:
    raw = env.str(name, default=str(default))
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise ImproperlyConfigured(f"{name} must be a whole number of at least 1, not {raw!r}.")
    return value


def _seconds(name: str, default: float) -> float:
    raw = env.str(name, default=str(default))
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 <= value < 3600:  # NaN and infinities fail the test too
        raise ImproperlyConfigured(
            f"{name} must be a number of seconds from 0 to 3600, not {raw!r}.")
    return value


# Threads that run the database work of WebSocket consumers in each ASGI process
# (`infra.db_threads`). Most of a call's time is a wait for PostgreSQL's answer, so a burst of
# sockets opening at once (an arena's wave) needs more calls in flight than cores: with 4,
# handshakes queued past daphne's timeout (docs/reliability.md). SQLite takes one writer at a
# time, so one thread there.
DB_THREADS = _positive_int(
    "DB_THREADS",
    1 if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3" else 8,
)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")

if REDIS_URL:
    # Redis pub/sub: a message reaches each process in one push on its one subscribed
    # connection. The list-based layer (`channels_redis.core`) took four round trips to Redis
    # per message, one message at a time per process, and with 1,000 sockets its queue
    # delayed the opponent's state by seconds (docs/reliability.md). Pub/sub keeps nothing
    # for a process that is away; nothing depends on delivery (docs/architecture.md): a client
    # that hears nothing asks for the state (`sync`), and one that reconnects gets it. It
    # publishes without waiting for Redis's answer (`infra.channel_layer`).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "infra.channel_layer.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": 15}],
                "prefix": env.str("CHANNEL_LAYER_PREFIX", default="asgi"),
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="yt"),
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # The embedded default is one process, so a local-memory cache holds the log-in throttle.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "yourtrumps",
        }
    }

# --- Celery -----------------------------------------------------------------------------------
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "memory://")
# Results are kept only for the tasks that ask (the health ping); moves go through the database.
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_EXPIRES = 3600
CELERY_TASK_ALWAYS_EAGER = not (REDIS_URL or env.str("CELERY_BROKER_URL", default=""))
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=30)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=45)
# Well above the hard limit: a task that is still running must not be handed to a second worker.
# It is also how long a task of a killed worker waits before another worker runs it; workers
# look for such tasks every interval x throttle seconds (kombu's defaults: 10 x 10).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600),
    "unacked_restore_interval": env.int("CELERY_RESTORE_INTERVAL", default=10),
    "unacked_restore_throttle": env.int("CELERY_RESTORE_THROTTLE", default=10),
}
# Three queues. The default one carries what must answer within a second (the AI's moves and
# draw answers, the moments of play that make notifications); the slow one what takes seconds
# to minutes of CPU (the analysis of a replay, the puzzle scan of a finished duel) or runs over
# whole tables (the periodic pruning); the outbound one what waits on servers outside the site
# (e-mail, Web Push), which may take seconds to answer or never answer at all. So a worker busy
# with an analysis or a silent push service never holds up an AI seat. Production runs
# workers for each (scripts/run-production-local); a worker started without `-Q` consumes
# all three. The other queues' names follow the default's, so runs that set `CELERY_QUEUE`
# apart (parallel tests, a second site on one Redis) keep all their queues apart.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="celery")
CELERY_SLOW_QUEUE = env.str("CELERY_SLOW_QUEUE", default=f"{CELERY_TASK_DEFAULT_QUEUE}-slow")
CELERY_OUTBOUND_QUEUE = env.str("CELERY_OUTBOUND_QUEUE",
                                default=f"{CELERY_TASK_DEFAULT_QUEUE}-outbound")
CELERY_SLOW_TASKS = ("replays.analyse_match", "puzzles.from_match", "notify.prune",
                     "matchmaking.close_stale_tables", "tournaments.schedule")
CELERY_OUTBOUND_TASKS = ("notify.email", "notify.push")
CELERY_TASK_QUEUES = (Queue(CELERY_TASK_DEFAULT_QUEUE), Queue(CELERY_SLOW_QUEUE),
                      Queue(CELERY_OUTBOUND_QUEUE))
CELERY_TASK_ROUTES = {
    **{name: {"queue": CELERY_SLOW_QUEUE} for name in CELERY_SLOW_TASKS},
    **{name: {"queue": CELERY_OUTBOUND_QUEUE} for name in CELERY_OUTBOUND_TASKS},
}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Periodic tasks, for `celery beat` (make production runs one): old notifications are
# pruned every this many seconds (their age: NOTIFICATIONS_KEEP_DAYS below), and the open
# correspondence tables nobody filled closed (their age: MATCHMAKING_CORRESPONDENCE_TABLE_DAYS
# below) every hour: a table closes within the hour of its day.
NOTIFICATIONS_PRUNE_SECONDS = env.int("NOTIFICATIONS_PRUNE_SECONDS", default=6 * 3600)
CELERY_BEAT_SCHEDULE = {
    "notifications-prune": {"task": "notify.prune", "schedule": float(NOTIFICATIONS_PRUNE_SECONDS)},
    "matchmaking-close-stale-tables": {"task": "matchmaking.close_stale_tables",
                                       "schedule": 3600.0},
    # The hourly arenas of the hours ahead (TOURNAMENTS_HOURLY below); made once each.
    "tournaments-schedule": {"task": "tournaments.schedule", "schedule": 600.0},
}

# --- Play and matchmaking -------------------------------------------------------------------
# Every tunable of the games app, in seconds unless named otherwise; tests override them.
# How long a player has to choose a trump suit before a random free one is given.
GAMES_TRUMP_CHOICE_SECONDS = 30
# How long an open game socket counts as present without renewing its lease.
GAMES_PRESENCE_LEASE_SECONDS = 45
# How long a player must be gone, on their own turn, before the others may claim the game.
GAMES_CLAIM_AFTER_SECONDS = 30
# At a table of 3-4: how long the person to move may be gone (no game socket) before the AI
# takes their seat over, and how long they may take to move at an untimed table.
GAMES_TABLE_ABSENCE_SECONDS = 30
GAMES_TABLE_MOVE_LIMIT_SECONDS = 120
# How long the AI may take to answer before its task is sent again.
GAMES_AI_STALL_SECONDS = 20
# An untimed game against the AI that the person leaves unplayed on their turn this long is
# lost by abandonment (by the deadline watch): it would otherwise bar quick pairing forever.
GAMES_AI_GAME_SILENCE_SECONDS = env.int("GAMES_AI_GAME_SILENCE_SECONDS", default=24 * 3600)
# The watch page of live games reloads itself this often; the TV, once its game has ended,
# moves on to the next top game after this pause (the end stays in view meanwhile).
GAMES_WATCH_REFRESH_SECONDS = 15
GAMES_TV_NEXT_SECONDS = 5
# How often the deadline watch looks for flags, trump timeouts and late AI moves.
GAMES_DEADLINE_WATCH_SECONDS = 0.25
# An untimed correspondence game may be claimed after this many days of silence on a turn.
GAMES_CORRESPONDENCE_CLAIM_DAYS = 14
# Days of vacation (every correspondence clock of the player stands still) per 365 days.
GAMES_VACATION_DAYS_PER_YEAR = 14
# The "your turn" list: the running correspondence games it orders (the most recent), the
# games on one of its pages, and on the home page.
GAMES_YOUR_TURN_LIMIT = 1000
GAMES_YOUR_TURN_PER_PAGE = 30
GAMES_YOUR_TURN_ON_HOME = 5
# The replay's analysis of a finished duel: the whole game's budget in search nodes, shared by
# its positions (never seconds: the same game gives the same analysis on any machine). About
# 9 s of one core for a game on average with the compiled core (docs/ai.md, "The budget").
REPLAYS_ANALYSIS_NODES = 48_000_000
# Puzzles: the proof budget of one move, in search nodes (never seconds: the same game gives
# the same puzzles on any machine), and how many finished duels one `puzzles generate` scans.
PUZZLES_PROOF_NODES = 20_000
PUZZLES_SCAN_BATCH = 500
# Of a finished site game only the last positions are examined: a full deal's proven wins
# are near its end, and the proofs of the rest would cost a worker minutes for nothing.
PUZZLES_GAME_LAST_POSITIONS = 40
# The next puzzle: "easier" and "harder" aim this many points below or above the player's
# rating (a guest, unrated, counts as a new player). A streak starts at the first target and
# aims one step higher after each solve. A guest's session remembers this many puzzles played,
# so that their next puzzle is a new one.
PUZZLES_DIFFICULTY_POINTS = 300
PUZZLES_STREAK_START = 900
PUZZLES_STREAK_STEP = 75
PUZZLES_GUEST_MEMORY = 500
# The daily puzzle is chosen among puzzles this many plays have rated, within this rating
# range (a young site's among any).
PUZZLES_DAILY_MIN_PLAYS = 20
PUZZLES_DAILY_RATINGS = (1300.0, 1800.0)
# The shipped set of puzzles (`games.puzzles.shipped`): a database with none gets it after
# `migrate`, so a fresh site offers puzzles at once. None: no set.
PUZZLES_SHIPPED_SET: Path | None = BASE_DIR / "games" / "puzzles" / "shipped.jsonl"
# How often a quick-pairing pool pairs its waiting players (a wave).
MATCHMAKING_WAVE_SECONDS = 3.0
# How long a pool entry or seek lives without its lobby socket renewing it.
MATCHMAKING_ALIVE_SECONDS = 15.0
# How long a challenge to a player stays open (a correspondence challenge: days).
MATCHMAKING_CHALLENGE_MINUTES = 10.0
MATCHMAKING_CORRESPONDENCE_CHALLENGE_DAYS = 7.0
# How long a player waits in a table's quick-pairing pool before being offered the AI in
# the other seats.
MATCHMAKING_TABLE_FILL_AI_SECONDS = 30.0
# How many open correspondence tables a person may sit at at once (a live one: one), so that
# someone on a quiet site waits at several while they fill over days.
MATCHMAKING_OPEN_CORRESPONDENCE_TABLES = _positive_int("MATCHMAKING_OPEN_CORRESPONDENCE_TABLES", 5)
# An open correspondence table not started within this many days of its creation closes,
# its people told (the beat task `matchmaking.close_stale_tables`).
MATCHMAKING_CORRESPONDENCE_TABLE_DAYS = _positive_int("MATCHMAKING_CORRESPONDENCE_TABLE_DAYS", 14)
# (attempts, seconds) per action and user.
MATCHMAKING_RATE_LIMITS = {
    "pool_join": (12, 60),
    "seek_create": (10, 60),
    "challenge_create": (10, 600),
    # A bot's challenges through the API: a bot plays game after game.
    "bot_challenge_create": (60, 600),
    "table_create": (10, 60),
    "table_join": (30, 60),
}

# --- The API (games.api) -----------------------------------------------------------------------
# (calls, seconds) of the API per token (without one: per client address; a stream opened
# is one call); failed authentications per client address; tokens made per user.
API_RATE_LIMITS = {
    "request": (_positive_int("API_REQUEST_RATE_LIMIT", 600), 60),
    "auth_failure": (30, 60),
    "token_create": (10, 3600),
}
# A stream with nothing to say sends an empty line this often, so that proxies keep it open
# and a client can tell a quiet stream from a dead one.
API_STREAM_KEEPALIVE_SECONDS = 7.0
# The most games one call of the games' NDJSON export returns.
API_GAMES_MAX = 300

# --- People: chat, moderation, follows (docs/people.md) -------------------------------------
# A player's messages in game chat: at most CHAT_RATE_LIMIT in CHAT_RATE_WINDOW seconds (as
# lichess's flood rule, five in ten seconds), and none repeating one of their last few.
CHAT_RATE_LIMIT = env.int("CHAT_RATE_LIMIT", default=5)
CHAT_RATE_WINDOW = env.int("CHAT_RATE_WINDOW", default=10)
# An account younger than this may not write links, e-mail addresses or phone numbers.
CHAT_NEW_ACCOUNT_DAYS = env.int("CHAT_NEW_ACCOUNT_DAYS", default=7)
# The game of the one-click challenge to a friend (casual).
PEOPLE_CHALLENGE_TIME_CONTROL = "5+3"
# Reports one player may send: (count, seconds).
CHAT_REPORT_RATE_LIMIT = (20, 3600)
# Chat frames on a match socket are limited apart from its other messages (so that a chat
# flood is refused line by line, and the moves still pass): this many at once, refilled at
# this many a second; past them the socket is closed as any flood.
CHAT_SOCKET_BURST = 150
CHAT_SOCKET_RATE_PER_SECOND = 15.0

# --- Notifications ---------------------------------------------------------------------------
# How long a notification is kept, read or not (the beat task `notify.prune` removes older ones).
NOTIFICATIONS_KEEP_DAYS = env.int("NOTIFICATIONS_KEEP_DAYS", default=30)
# At most one e-mail per game (or challenge) and player in this many seconds.
NOTIFICATIONS_EMAIL_GAP_SECONDS = env.int("NOTIFICATIONS_EMAIL_GAP_SECONDS", default=3600)
# How many of the newest notifications the header's list shows.
NOTIFICATIONS_LIST_LENGTH = 20
# The channels of each kind for a player who has not chosen (the settings page changes them).
NOTIFICATIONS_DEFAULT_CHANNELS = {
    "challenge": ["email", "push"],
    "rematch": ["push"],
    "draw_declined": ["push"],
    "turn": ["email", "push"],
    "reminder": ["email", "push"],
    "finished": ["push"],
    "table_closed": ["push"],
}
# The site's address as seen from outside, for the links in e-mails and push messages (which
# no request carries).
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
# Web Push (RFC 8030/8291/8292). Without both keys the site offers no push at all;
# `manage.py vapid_keys` prints a new pair (base64url: the raw private scalar, the
# uncompressed public point).
WEBPUSH_VAPID_PUBLIC_KEY = env.str("WEBPUSH_VAPID_PUBLIC_KEY", default="")
WEBPUSH_VAPID_PRIVATE_KEY = env.str("WEBPUSH_VAPID_PRIVATE_KEY", default="")
# Who the push services may write to about this sender (a mailto: or https: URL).
WEBPUSH_VAPID_SUBJECT = env.str("WEBPUSH_VAPID_SUBJECT", default="mailto:noreply@localhost")
# How long a push service keeps a message for a browser that is offline, and how long the
# site waits for a push service to take a connection (TCP and TLS) and then to answer: a
# service that never answers costs its subscription one failure, not a worker.
WEBPUSH_TTL_SECONDS = 24 * 3600
WEBPUSH_CONNECT_TIMEOUT_SECONDS = env.float("WEBPUSH_CONNECT_TIMEOUT_SECONDS", default=3.0)
WEBPUSH_READ_TIMEOUT_SECONDS = env.float("WEBPUSH_READ_TIMEOUT_SECONDS", default=5.0)
# The browsers one person may subscribe (a new one replaces their oldest), and how many
# failures in a row drop a subscription (a success counts again from nought).
WEBPUSH_SUBSCRIPTIONS_PER_USER = env.int("WEBPUSH_SUBSCRIPTIONS_PER_USER", default=5)
WEBPUSH_MAX_FAILURES = env.int("WEBPUSH_MAX_FAILURES", default=5)
# A push endpoint is an https URL of a push service's public host (`notifications.endpoints`):
# port 443, no user or password, a host name every address of which is public. The names are
# resolved by this function ("module.name": (host, port) -> list of address strings), at
# subscription and again at each send, and the connection goes to the address checked.
WEBPUSH_RESOLVER = "notifications.endpoints.resolve"
# Origins ("scheme://host:port") taken as push services without those checks: none in
# production; the test suite's local stand-ins of a push service.
WEBPUSH_LOCAL_ORIGINS: tuple[str, ...] = ()
if bool(WEBPUSH_VAPID_PUBLIC_KEY) != bool(WEBPUSH_VAPID_PRIVATE_KEY):
    raise ImproperlyConfigured(
        "WEBPUSH_VAPID_PUBLIC_KEY and WEBPUSH_VAPID_PRIVATE_KEY go together: set both "
        "(manage.py vapid_keys prints a pair) or neither."
    )

# --- Accounts ---------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "accounts.backends.UsernameOrEmailBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

AXES_ENABLED = env.bool("AXES_ENABLED", default=True)
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=0.25)  # hours
# Failures per (account, address), per account and per address, in that order: the pair is
# locked after AXES_FAILURE_LIMIT, the account alone and the address alone only after their
# slower limits (`accounts.axes_support`), so that a stranger cannot lock an owner out.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "username", "ip_address"]
LOGIN_ACCOUNT_FAILURE_LIMIT = env.int("LOGIN_ACCOUNT_FAILURE_LIMIT", default=30)
LOGIN_ADDRESS_FAILURE_LIMIT = env.int("LOGIN_ADDRESS_FAILURE_LIMIT", default=50)
AXES_RESET_ON_SUCCESS = True
AXES_HANDLER = "accounts.axes_support.ScopedLockoutHandler"
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_USERNAME_FORM_FIELD = "username"
# Failures count per account, whether it was named by username (any case) or e-mail address.
AXES_USERNAME_CALLABLE = "accounts.axes_support.lockout_username"

# (attempts, seconds): sign-ups and password-reset mails cost us mail and trust, so a script
# cannot make them by the thousand. Per client address, and reset mails also per address
# asked for (whether or not an account has it: the answer must not tell).
ACCOUNT_RATE_LIMITS = {
    "signup": (env.int("SIGNUP_RATE_LIMIT", default=5), 3600),
    "password_reset": (env.int("PASSWORD_RESET_RATE_LIMIT", default=5), 3600),
    "password_reset_account": (env.int("PASSWORD_RESET_ACCOUNT_RATE_LIMIT", default=3), 3600),
}

EMAIL_BACKEND = env.str(
    "EMAIL_BACKEND",
    default="django.core.mail.backends.smtp.EmailBackend"
    if env.str("EMAIL_HOST", default="")
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
# For the file-based backend (`django.core.mail.backends.filebased.EmailBackend`).
EMAIL_FILE_PATH = env.str("EMAIL_FILE_PATH", default=str(VAR_DIR / "mail"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Your Trumps <noreply@localhost>")

# --- Language and time ------------------------------------------------------------------------
LANGUAGE_CODE = "en"
# Each language's own name (not translated), so a reader finds theirs in any interface language.
LANGUAGES = [
    ("en", "English"),
    ("pl", "Polski"),
    ("ru", "Русский"),
    ("eu", "Euskara"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files -----------------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# Outside production whitenoise serves straight from the source folders: no collectstatic step.
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = not PRODUCTION

# --- Security ---------------------------------------------------------------------------------
# WebSockets, per connection (`infra.ws_limits`): the largest frame, the message rate
# (a token bucket: WS_BURST at once, refilled at WS_RATE_PER_SECOND) and the deepest JSON.
WS_MAX_FRAME_BYTES = env.int("WS_MAX_FRAME_BYTES", default=16 * 1024)
WS_RATE_PER_SECOND = env.float("WS_RATE_PER_SECOND", default=10.0)
WS_BURST = env.int("WS_BURST", default=40)
WS_MAX_JSON_DEPTH = 32
# Frames a connection may send that the server cannot understand before it is closed (4008),
# and how long a session closed for abuse (flood, huge frame, junk) may not open sockets
# (`infra.ws_cooldown`). An honest client sends no such frame.
WS_MAX_BAD_FRAMES = _positive_int("WS_MAX_BAD_FRAMES", 10)
WS_ABUSE_COOLDOWN_SECONDS = _positive_int("WS_ABUSE_COOLDOWN_SECONDS", 60)
# A cooling session's handshake is refused only after this long (or the cool-down's end, if
# sooner): a script that reconnects at once knocks a dozen times a minute instead of fifty, and
# a held handshake costs its server a timer, not CPU. Below daphne's handshake timeout (5 s),
# so that the client is told 403 rather than dropped. 0: refused at once.
WS_REFUSAL_HOLD_SECONDS = _seconds("WS_REFUSAL_HOLD_SECONDS", 4.0)
# Open sockets of each kind (match, lobby, site) at once (`infra.socket_caps`): per
# signed-in user (a player with a dozen tabs stays below it) and per client address (higher:
# a household, a school or a mobile carrier shares one address).
WS_MAX_SOCKETS_PER_USER = _positive_int("WS_MAX_SOCKETS_PER_USER", 16)
WS_MAX_SOCKETS_PER_ADDRESS = _positive_int("WS_MAX_SOCKETS_PER_ADDRESS", 256)

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # the board's fetch() calls read it; the WebSocket does not need it
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Nothing inline and nothing from elsewhere (`yourtrumps_site.csp`, which adds the WebSocket
# origin to connect-src). A page that needs more says why in a comment here.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {
        "cancelled_cleanup": {"()": "yourtrumps_site.log_filters.CancelledCleanupIsNotAnError"},
        "rate_limited": {"()": "yourtrumps_site.log_filters.RateLimited"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "channels_redis.pubsub": {"filters": ["cancelled_cleanup"]},
        # What a hostile socket sets off, a line per event: a log that costs what it reports.
        **{name: {"filters": ["rate_limited"]} for name in (
            "infra.ws_cooldown", "infra.ws_limits",
            "yourtrumps_site.ws_origin", "infra.sockets",
            "infra.socket_caps",
        )},
        "django.channels.server": {"level": "WARNING"},
        "daphne": {"level": "WARNING"},
        "axes": {"level": "WARNING"},
    },
}

# --- Tournaments (docs/tournaments.md) --------------------------------------------------------
# A started arena's pairing wave runs at most this often on the deadline watch's tick (and at
# once when a player joins or a game of it ends): a free player waits at most about this long
# for another free player.
TOURNAMENTS_WAVE_SECONDS = 1.0
# How long an open tournament page (or arena game page) keeps its player pairable without
# renewing (its socket renews every third of it).
TOURNAMENTS_ALIVE_SECONDS = 15.0
# After this long without a person to meet, a player who asked for it plays the AI.
TOURNAMENTS_AI_AFTER_SECONDS = env.float("TOURNAMENTS_AI_AFTER_SECONDS", default=60.0)
# The hourly arenas: a time control and their minutes each, made this many hours ahead by the
# beat task `tournaments.schedule`.
TOURNAMENTS_HOURLY = (("1+1", 30), ("3+2", 55))
TOURNAMENTS_SCHEDULE_AHEAD_HOURS = 2
TOURNAMENTS_RATE_LIMITS = {"create": (5, 3600), "join": (30, 60)}
