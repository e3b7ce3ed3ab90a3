"""The production settings, read as a fresh process reads them (each test imports them anew)."""

import subprocess
import sys

import pytest

from tests.config.settings_reader import PRODUCTION, ROOT, child_env, read_settings


def test_check_deploy_is_clean_with_the_production_settings():
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=child_env({**PRODUCTION, "DJANGO_TRUST_X_FORWARDED_PROTO": "1"}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_production_turns_debug_off_and_cookies_hsts_on_whatever_the_environment_says():
    got = read_settings(
        {**PRODUCTION, "DJANGO_DEBUG": "1"},
        "DEBUG",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_HSTS_SECONDS",
        "SECURE_SSL_REDIRECT",
        "SECURE_PROXY_SSL_HEADER",
    )
    assert got == {
        "DEBUG": False,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_HSTS_SECONDS": 31_536_000,
        "SECURE_SSL_REDIRECT": True,
        "SECURE_PROXY_SSL_HEADER": None,  # a forged header is not believed unless configured
    }


def test_the_proxy_header_and_hsts_follow_their_environment_variables():
    got = read_settings(
        {**PRODUCTION, "DJANGO_TRUST_X_FORWARDED_PROTO": "1", "SECURE_HSTS_SECONDS": "600"},
        "SECURE_PROXY_SSL_HEADER",
        "SECURE_HSTS_SECONDS",
    )
    assert got == {
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "SECURE_HSTS_SECONDS": 600,
    }


def test_postgresql_connections_are_pooled_and_health_checked():
    got = read_settings(PRODUCTION, "DATABASES", "AGENT_CONCURRENCY")
    db = got["DATABASES"]["default"]
    assert db["CONN_HEALTH_CHECKS"] is True
    assert db["CONN_MAX_AGE"] == 0  # Django requires 0 with its pool; the pool keeps them
    # Fewer than the worker's threads: a turn holds a connection only between model calls.
    assert db["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 16, "timeout": 30}
    assert got["AGENT_CONCURRENCY"] > 16


def test_without_the_pool_connections_persist_for_conn_max_age_with_health_checks():
    got = read_settings({**PRODUCTION, "DATABASE_POOL": "0"}, "DATABASES")
    db = got["DATABASES"]["default"]
    assert (db["CONN_MAX_AGE"], db["CONN_HEALTH_CHECKS"]) == (60, True)
    assert "pool" not in db.get("OPTIONS", {})


def test_static_files_are_hashed_and_compressed_for_whitenoise_in_production():
    got = read_settings(PRODUCTION, "STORAGES", "MIDDLEWARE", "WHITENOISE_USE_FINDERS")
    assert got["STORAGES"]["staticfiles"]["BACKEND"] == (
        "whitenoise.storage.CompressedManifestStaticFilesStorage"
    )
    assert got["MIDDLEWARE"][1] == "whitenoise.middleware.WhiteNoiseMiddleware"
    assert got["WHITENOISE_USE_FINDERS"] is False


@pytest.mark.parametrize("missing", ["DATABASE_URL", "REDIS_URL"])
def test_production_refuses_to_start_without_its_services(missing):
    env = {k: v for k, v in PRODUCTION.items() if k != missing}
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=child_env(env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "Production needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis)." in done.stderr


@pytest.mark.parametrize("key", [None, "", "dev-only-insecure-key-change-me"])
def test_production_refuses_to_start_without_a_secret_key_of_its_own(key):
    env = {k: v for k, v in PRODUCTION.items() if k != "DJANGO_SECRET_KEY"}
    if key is not None:
        env["DJANGO_SECRET_KEY"] = key
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=child_env(env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "Production needs DJANGO_SECRET_KEY set to a long random value of its own" in done.stderr


def test_production_logs_one_json_object_a_line():
    got = read_settings(PRODUCTION, "LOGGING")
    assert got["LOGGING"]["handlers"]["console"]["formatter"] == "json"
