"""Production: PostgreSQL through DATABASE_URL, Redis through REDIS_URL, secrets from the environment.

Served by ``bin/serve`` (gunicorn with uvicorn workers, ASGI) behind a TLS-terminating proxy.
``manage.py check --deploy`` is clean with these settings (tests/config/test_production.py).

- ``DEBUG`` is off whatever the environment says; secure cookies; HSTS for ``SECURE_HSTS_SECONDS``
  (default one year; 0 turns it off); ``SECURE_SSL_REDIRECT`` on unless ``DJANGO_SSL_REDIRECT=0``
  (e.g. when the proxy already redirects); the proxy's ``X-Forwarded-Proto`` header is trusted
  only when ``DJANGO_TRUST_X_FORWARDED_PROTO=1`` says a proxy sets it.
- Database connections are persistent and health-checked. On PostgreSQL they live in psycopg's
  pool, one per process (``DATABASE_POOL_MIN_SIZE`` 2, ``DATABASE_POOL_MAX_SIZE`` 16 for a web
  process; a worker's is ``WORKER_DATABASE_POOL_MAX_SIZE``, 32, ``config.celery``: its turns hold
  a connection only between model calls, so 64 threads need half as many), each checked before it
  is lent (CONN_HEALTH_CHECKS): under ASGI Django gives every request a new thread-local
  context, so ``CONN_MAX_AGE`` alone would still open a connection a request (Django's own advice
  for ASGI is its backend's pool). ``DATABASE_POOL=0`` falls back to ``CONN_MAX_AGE``
  (``DATABASE_CONN_MAX_AGE``, default 60 s) with ``CONN_HEALTH_CHECKS``, which serves WSGI and
  the Celery worker's threads (each keeps its connection between tasks).
- Static files: ``collectstatic`` into ``STATIC_ROOT``, hashed and compressed, served by whitenoise.
- Logs: one JSON object a line on stderr (``LOG_FORMAT=text`` for key=value).
"""

import os
import warnings

from django.core.exceptions import ImproperlyConfigured

from config.listen import is_development_key

from .base import *  # noqa: F403
from .base import DATABASES, LOGGING
from .environ_helpers import env_bool, env_int, env_str

if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
    raise RuntimeError("Production needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis).")
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if is_development_key(SECRET_KEY):
    raise ImproperlyConfigured(
        "Production needs DJANGO_SECRET_KEY set to a long random value of its own, not empty "
        "nor the development key in Spotter's source (anyone could forge sessions with it): "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'."
    )
DEBUG = False

DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DATABASE_POOL", True
):
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them; Django requires 0 with it
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env_int("DATABASE_POOL_MIN_SIZE", 2),
        "max_size": env_int("DATABASE_POOL_MAX_SIZE", 16),
        "timeout": 30,
    }
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", 60)

SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_SSL_REDIRECT = env_bool("DJANGO_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# Joining the browsers' preload list is hard to undo, so it is the operator's choice
# (SECURE_HSTS_PRELOAD=1), not a warning on every check --deploy.
SILENCED_SYSTEM_CHECKS = ["security.W021"]
if env_bool("DJANGO_TRUST_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# The health check answers plain HTTP from the proxy or orchestrator.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

WHITENOISE_USE_FINDERS = False
# whitenoise hands Django a file iterator, which Django's ASGI handler reads in a thread and warns
# about on stderr over several lines; the files are small and compressed, the warning is noise.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators"
)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

LOG_FORMAT = env_str("LOG_FORMAT", "json")
LOGGING["handlers"]["console"]["formatter"] = LOG_FORMAT
