"""Production: PostgreSQL through DATABASE_URL, Redis through REDIS_URL, secrets from the environment."""

import os

from .base import *  # noqa: F403

DEBUG = False
SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]
if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
    raise RuntimeError("Production needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis).")
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
