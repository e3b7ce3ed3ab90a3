"""Run the same action from several threads at the same moment (two clicks at once)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection


def at_once(action: Callable[[], Any], *, threads: int = 2) -> tuple[list[Any], list[Exception]]:
    """Call ``action`` in ``threads`` threads released together by a barrier; returns what the
    calls returned and what they raised. Each thread closes its own database connection."""
    barrier = threading.Barrier(threads)
    results: list[Any] = []
    errors: list[Exception] = []

    def run() -> None:
        try:
            barrier.wait(timeout=5)
            results.append(action())
        except Exception as exc:
            errors.append(exc)
        finally:
            connection.close()

    started = [threading.Thread(target=run) for _ in range(threads)]
    for thread in started:
        thread.start()
    for thread in started:
        thread.join(timeout=30)
    return results, errors
