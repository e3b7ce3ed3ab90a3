"""Settings for the test suite: fast hashing, eager Celery (tests of the real worker override it)."""

from .base import *  # noqa: F403
from .base import DATABASES

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CELERY_TASK_ALWAYS_EAGER = True
LLM_PROVIDER = "offline"
LLM_MAX_RETRY_WAIT = 0.5
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": ""}  # in memory, per test process
