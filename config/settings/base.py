"""Settings shared by every environment, driven by environment variables (see .env.example).

Defaults run on one machine with no services: SQLite for the database and Kombu's filesystem
transport as an embedded Celery broker. Set DATABASE_URL (PostgreSQL) and REDIS_URL in production.
"""

from pathlib import Path

import dj_database_url

from .environ_helpers import env_bool, env_float, env_int, env_str

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(env_str("SPOTTER_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

SECRET_KEY = env_str("DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me")
DEBUG = env_bool("DJANGO_DEBUG", True)
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
    "programs",
    "training",
    "coach",
    "chat",
    "library",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
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
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'spotter.sqlite3'}"),
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for a writer instead of failing at once when the web server and the worker both write.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

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

# --- Celery -------------------------------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
else:
    # The embedded broker: messages are files in var/broker, shared by the web server and the worker.
    _broker_dir = VAR_DIR / "broker"
    (_broker_dir / "queue").mkdir(parents=True, exist_ok=True)
    (_broker_dir / "processed").mkdir(parents=True, exist_ok=True)
    (_broker_dir / "control").mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
        # The worker looks for new files this often (Kombu's default of 1 s adds a second a reply).
        "polling_interval": 0.05,
    }
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 150)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 180)
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

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
# LLM_TOOL_FORMAT: "native" (the protocol's own tools) or "text" (tools described in the system
# prompt, calls written as [TOOL_CALL:{...}] markers; for models without tool support).
LLM_TOOL_FORMAT = env_str("LLM_TOOL_FORMAT", "native")
AGENT_MAX_MODEL_CALLS = env_int("AGENT_MAX_MODEL_CALLS", 5)
# An undecided batch of proposed changes expires after this many days (seed 004).
PROPOSAL_TTL_DAYS = env_float("PROPOSAL_TTL_DAYS", 7.0)
CELERY_BEAT_SCHEDULE = {
    "expire-proposals": {"task": "chat.tasks.expire_proposals", "schedule": 3600.0},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
