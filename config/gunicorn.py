"""gunicorn's configuration for ``bin/serve`` (and ``bin/run``'s web server): uvicorn workers, with
its fast parser and loop (httptools, uvloop: ``auto`` picks them, both are dependencies), running
``config.asgi``: async views (the reply streams) on the event loop, every other request through
Django's WSGI handler on one of ``WEB_THREADS`` threads with a single hand-off (config.serving).

Environment: ``HOST`` (127.0.0.1: this machine only; 0.0.0.0 or an address to serve others, which
is refused while SECRET_KEY is the development key, config.listen), ``PORT`` (8000),
``WEB_CONCURRENCY`` (worker processes, default 2 per core), ``WEB_THREADS`` (threads a process
runs plain requests on, 8; config.asgi), ``GUNICORN_TIMEOUT`` (60 s), ``ACCESS_LOG`` (1: one line
a request; 0: none),
``FORWARDED_ALLOW_IPS`` (the proxies whose X-Forwarded-* headers are believed; 127.0.0.1),
``LOG_FORMAT`` (json or text, as for Django). Every log line is one record.
"""

import os

from config import listen

bind = listen.bind_address(listen.host_from(os.environ), os.environ.get("PORT", "8000"))
workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * (os.cpu_count() or 1))
worker_class = "uvicorn_worker.UvicornWorker"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 30
keepalive = 5
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
ACCESS_LOG = os.environ.get("ACCESS_LOG", "1") != "0"
accesslog = "-" if ACCESS_LOG else None
errorlog = "-"
# No control socket in ~/.gunicorn: several servers on one machine (bench_http) would share it.
control_socket_disable = True


def on_starting(server) -> None:
    """Before gunicorn binds anything: refuse a public address with the development SECRET_KEY,
    whichever way it was given (HOST, --bind, GUNICORN_CMD_ARGS)."""
    for address in server.cfg.bind:
        host = listen.host_of_bind(address)
        problem = host and listen.refusal_from_environment(host)
        if problem:
            server.log.error(problem)
            raise SystemExit(2)


_format = os.environ.get("LOG_FORMAT", "json")
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"()": "config.logformat.KeyValueFormatter"},
        "json": {"()": "config.logformat.JsonFormatter"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": _format},
    },
    "loggers": {
        "gunicorn.error": {"handlers": ["console"], "level": "INFO", "propagate": False},
        # uvicorn's workers give "uvicorn.access" this logger's handlers: with ACCESS_LOG=0 it has
        # none (and a level no request line reaches), or the dictionary would put them back.
        "gunicorn.access": {
            "handlers": ["console"] if ACCESS_LOG else [],
            "level": "INFO" if ACCESS_LOG else "CRITICAL",
            "propagate": False,
        },
    },
}
