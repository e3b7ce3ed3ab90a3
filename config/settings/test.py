"""Settings for the test suite: fast hashing, eager Celery (tests of the real worker override it)."""

import os
import tempfile
from pathlib import Path

from .base import *  # noqa: F403
from .base import DATABASES

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CELERY_TASK_ALWAYS_EAGER = True
LLM_PROVIDER = "offline"
# The streaming tests switch it on with a Redis of their own; the rest of the suite polls.
CHAT_STREAMING = os.environ.get("CHAT_STREAMING") == "1"
LLM_MAX_RETRY_WAIT = 0.5
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not memory, so a real Celery worker process in the integration test can share it.
    # One per test process (pytest-xdist workers each get their own).
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"spotter-test-{os.getpid()}.sqlite3")
    }
