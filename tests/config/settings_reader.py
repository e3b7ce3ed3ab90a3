"""Read settings as a fresh process reads them: each call imports them anew in a subprocess."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECRET = "x" * 20 + "-a-long-random-production-secret-key-" + "y" * 20
PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "config.settings.production",
    "DJANGO_SECRET_KEY": SECRET,
    "DATABASE_URL": "postgres://spotter:pw@db.internal:5432/spotter",
    "REDIS_URL": "redis://redis.internal:6379/0",
    "DJANGO_ALLOWED_HOSTS": "spotter.example.com",
}
READ_SETTINGS = """
import json, sys, django
django.setup()
from django.conf import settings
print(json.dumps({name: getattr(settings, name, None) for name in sys.argv[1:]}, default=str))
"""


def child_env(extra: dict[str, str]) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SECURE_"))}
    base.pop("REDIS_URL", None)
    base.pop("DATABASE_URL", None)
    return {**base, "SPOTTER_VAR_DIR": str(ROOT / "var"), **extra}


def read_settings(extra: dict[str, str], *names: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", READ_SETTINGS, *names],
        cwd=ROOT,
        env=child_env(extra),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
