"""A Celery worker's database pool is sized for its threads (config.celery.size_the_database_pool)."""

from django.conf import settings
from django.db import connection

from config.celery import size_the_database_pool


def _options(monkeypatch, pool):
    options = dict(settings.DATABASES["default"].get("OPTIONS", {}))
    if pool is None:
        options.pop("pool", None)
    else:
        options["pool"] = pool
    monkeypatch.setitem(settings.DATABASES["default"], "OPTIONS", options)
    return options


def test_a_worker_takes_the_worker_pool_size_and_the_web_size_stays_for_other_processes(
    monkeypatch,
):
    monkeypatch.delenv("DATABASE_POOL_MAX_SIZE", raising=False)
    monkeypatch.setattr(settings, "WORKER_DATABASE_POOL_MAX_SIZE", 32)
    options = _options(monkeypatch, {"min_size": 2, "max_size": 16, "timeout": 30})
    size_the_database_pool()
    assert options["pool"] == {"min_size": 2, "max_size": 32, "timeout": 30}


def test_database_pool_max_size_when_set_is_the_workers_size_too(monkeypatch):
    monkeypatch.setenv("DATABASE_POOL_MAX_SIZE", "8")
    options = _options(monkeypatch, {"min_size": 2, "max_size": 8})
    size_the_database_pool()
    assert options["pool"]["max_size"] == 8


def test_without_a_pool_nothing_is_added(monkeypatch):
    monkeypatch.delenv("DATABASE_POOL_MAX_SIZE", raising=False)
    options = _options(monkeypatch, None)
    size_the_database_pool()
    assert "pool" not in options


def test_the_connection_reads_the_settings_the_signal_changes():
    # Django builds the pool from the connection's settings_dict: the same dict as the setting's.
    assert connection.settings_dict is settings.DATABASES["default"]
