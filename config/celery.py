"""The Celery app. Tasks take ids, load their objects and call services (see coach.tasks)."""

import os

from celery import Celery
from celery.signals import celeryd_init
from django.conf import settings
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

# What publishing a task raises when the broker is down or frozen (kombu wraps redis's errors;
# REDIS_TIMEOUT bounds the wait). A request that queues work catches these, keeps what it saved and
# leaves the work to a periodic sweep.
BROKER_ERRORS = (BrokerError, RedisConnectionError, RedisTimeoutError)

app = Celery("spotter")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@celeryd_init.connect
def size_the_database_pool(**_: object) -> None:
    """A worker process takes ``WORKER_DATABASE_POOL_MAX_SIZE`` connections in psycopg's pool (the
    web processes ``DATABASE_POOL_MAX_SIZE``, 16), unless ``DATABASE_POOL_MAX_SIZE`` is set, which
    then holds for every process. Runs as the worker starts, before its first query creates the
    pool (Django reads the pool's options from the connection's settings when it makes it)."""
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    if isinstance(pool, dict) and "DATABASE_POOL_MAX_SIZE" not in os.environ:
        pool["max_size"] = max(pool.get("min_size", 1), settings.WORKER_DATABASE_POOL_MAX_SIZE)
