"""The sign-in throttle's limits are settings read from the environment, checked at start."""

import subprocess
import sys

from tests.config.settings_reader import PRODUCTION, ROOT, child_env, read_settings


def test_production_throttles_five_failures_for_fifteen_minutes_with_the_axes_backend_first():
    default = read_settings(
        PRODUCTION,
        "AXES_FAILURE_LIMIT",
        "AXES_COOLOFF_TIME",
        "AXES_LOCKOUT_PARAMETERS",
        "AUTHENTICATION_BACKENDS",
        "MIDDLEWARE",
    )
    assert default.pop("AUTHENTICATION_BACKENDS")[0] == "axes.backends.AxesStandaloneBackend"
    assert "axes.middleware.AxesMiddleware" in default.pop("MIDDLEWARE")
    assert default == {
        "AXES_FAILURE_LIMIT": 5,
        "AXES_COOLOFF_TIME": "0:15:00",
        "AXES_LOCKOUT_PARAMETERS": ["username", "ip_address"],
    }


def test_the_limits_follow_the_environment():
    tuned = read_settings(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.base",
            "LOGIN_FAILURE_LIMIT": "10",
            "LOGIN_LOCKOUT_MINUTES": "30",
        },
        "AXES_FAILURE_LIMIT",
        "AXES_COOLOFF_TIME",
    )
    assert tuned == {"AXES_FAILURE_LIMIT": 10, "AXES_COOLOFF_TIME": "0:30:00"}


def test_a_limit_below_one_is_refused_at_start_saying_what_to_set():
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=child_env(
            {"DJANGO_SETTINGS_MODULE": "config.settings.base", "LOGIN_FAILURE_LIMIT": "0"}
        ),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "LOGIN_FAILURE_LIMIT and LOGIN_LOCKOUT_MINUTES must be whole numbers of at least 1" in (
        done.stderr
    )
