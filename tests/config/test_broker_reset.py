"""Switching the broker in-process (the real-worker tests, the benchmarks) leaves later sends working."""

from config.celery import app as celery_app
from config.workers import reset_broker_connections


def test_a_send_after_the_broker_connections_are_reset_acquires_a_fresh_producer():
    # What every task sent in this process does first, even an eager one (the test settings).
    with celery_app.producer_or_acquire() as producer:
        first_pool = celery_app.pool
        assert producer is not None
    reset_broker_connections()
    # The closed pool must not be handed out again for the same broker URL.
    with celery_app.producer_or_acquire() as producer:
        assert producer is not None
    assert celery_app.pool is not first_pool
