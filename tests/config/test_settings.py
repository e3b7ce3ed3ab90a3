"""The default settings: the embedded Redis broker, the worker's pool, DEBUG, one-line logs."""

import json
import logging
import signal
import subprocess

import redis

from config import embedded_redis
from config.logformat import JsonFormatter, KeyValueFormatter
from tests.config.settings_reader import read_settings


def test_without_redis_url_the_broker_is_the_embedded_redis_socket_in_var(tmp_path):
    got = read_settings(
        {"SPOTTER_VAR_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "config.settings.base"},
        "CELERY_BROKER_URL",
        "DEBUG",
    )
    assert got == {
        "CELERY_BROKER_URL": f"redis+socket://{tmp_path}/redis/redis.sock",
        "DEBUG": False,
    }


def test_redis_url_replaces_the_embedded_broker_and_django_debug_turns_debug_on():
    got = read_settings(
        {
            "REDIS_URL": "redis://10.0.0.5:6379/2",
            "DJANGO_DEBUG": "1",
            "DJANGO_SETTINGS_MODULE": "config.settings.base",
        },
        "CELERY_BROKER_URL",
        "DEBUG",
    )
    assert got == {"CELERY_BROKER_URL": "redis://10.0.0.5:6379/2", "DEBUG": True}


def test_one_worker_process_runs_agent_concurrency_turns_on_threads():
    default = read_settings(
        {"DJANGO_SETTINGS_MODULE": "config.settings.base"},
        "CELERY_WORKER_POOL",
        "CELERY_WORKER_CONCURRENCY",
    )
    assert default == {"CELERY_WORKER_POOL": "threads", "CELERY_WORKER_CONCURRENCY": 64}
    tuned = read_settings(
        {"DJANGO_SETTINGS_MODULE": "config.settings.base", "AGENT_CONCURRENCY": "40"},
        "CELERY_WORKER_CONCURRENCY",
    )
    assert tuned == {"CELERY_WORKER_CONCURRENCY": 40}


def test_the_embedded_redis_is_a_real_server_on_a_private_socket_that_keeps_its_queue(tmp_path):
    server = embedded_redis.start(tmp_path, stdout=subprocess.DEVNULL)
    path = embedded_redis.socket_path(tmp_path)
    assert oct(path.stat().st_mode & 0o777) == "0o700"
    client = redis.Redis(unix_socket_path=str(path))
    assert client.info("server")["redis_version"].startswith("6.2.")
    client.lpush("celery", "turn-1", "turn-2")
    client.close()
    server.send_signal(signal.SIGTERM)  # bin/run restarts it: the queue must survive
    server.wait(timeout=10)
    assert not embedded_redis.is_up(tmp_path)

    server = embedded_redis.start(tmp_path, stdout=subprocess.DEVNULL)
    try:
        client = redis.Redis(unix_socket_path=str(path))
        assert client.lrange("celery", 0, -1) == [b"turn-2", b"turn-1"]
        client.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


def _record(message: str, exc: bool = False) -> logging.LogRecord:
    exc_info = None
    if exc:
        try:
            raise ValueError("bad\nthing")
        except ValueError as error:
            exc_info = (ValueError, error, error.__traceback__)
    record = logging.LogRecord("chat", logging.ERROR, __file__, 1, message, (), exc_info)
    record.message_id = 42
    return record


def test_a_json_log_record_is_one_line_even_with_a_traceback_and_keeps_extras():
    line = JsonFormatter().format(_record("turn failed\nfor message 42", exc=True))
    assert "\n" not in line
    data = json.loads(line)
    assert data["message"] == "turn failed\nfor message 42"
    assert data["level"] == "ERROR"
    assert data["logger"] == "chat"
    assert data["message_id"] == 42
    assert "ValueError: bad\nthing" in data["exc"]


def test_a_key_value_log_record_is_one_line_with_quoted_values():
    line = KeyValueFormatter().format(_record("turn failed", exc=True))
    assert "\n" not in line
    assert "level=ERROR logger=chat " in line
    assert 'message="turn failed"' in line
    assert "message_id=42" in line


def test_a_lost_task_returns_after_the_visibility_timeout_longer_than_any_task_runs():
    got = read_settings(
        {"DJANGO_SETTINGS_MODULE": "config.settings.base"},
        "CELERY_BROKER_TRANSPORT_OPTIONS",
        "AGENT_TURN_DEADLINE",
        "AGENT_TURN_TIMEOUT",
        "CELERY_BEAT_SCHEDULE",
    )
    visibility = got["CELERY_BROKER_TRANSPORT_OPTIONS"]["visibility_timeout"]
    assert got["AGENT_TURN_TIMEOUT"] < got["AGENT_TURN_DEADLINE"] < visibility
    assert visibility > 660  # an import's hard time limit
    assert got["CELERY_BEAT_SCHEDULE"]["recover-replies"]["task"] == "chat.tasks.recover_replies"
