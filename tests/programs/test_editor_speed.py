"""The editor of a long program: its queries don't grow with the number of weeks, and a 16-week
program renders within the issue's 400 ms (measured and printed; the bound is asserted on the
median of five loads, with the test database and the shared machine's noise included)."""

from __future__ import annotations

import statistics
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import build_program
from tests.programs.editor_support import url

pytestmark = pytest.mark.django_db

TARGET_MS = 400


def _queries(client, program) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url(program))
    assert response.status_code == 200
    return len(captured)


def test_the_editor_makes_as_many_queries_for_16_weeks_as_for_4(coach, coach_client):
    short = build_program(weeks=4, sessions=4, exercises=5, coach=coach)
    long = build_program(weeks=16, sessions=4, exercises=5, coach=coach)
    _queries(coach_client, short)  # the first request fills the session and permission caches
    assert _queries(coach_client, short) == _queries(coach_client, long)


def test_a_16_week_program_renders_within_400_ms(coach, coach_client, capsys):
    program = build_program(weeks=16, sessions=5, exercises=6, coach=coach)
    coach_client.get(url(program))
    times = []
    for _ in range(5):
        start = time.perf_counter()
        response = coach_client.get(url(program))
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200
    median = statistics.median(times)
    size = len(response.content)
    with capsys.disabled():
        print(
            f"\neditor, 16 weeks × 5 sessions × 6 exercises: median {median:.0f} ms "
            f"(min {min(times):.0f}, max {max(times):.0f}), {size // 1024} KiB"
        )
    assert median <= TARGET_MS
