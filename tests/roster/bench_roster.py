"""Benchmark (not part of the suite: its name doesn't match ``test_*.py``): the roster of 200
athletes rendered on SQLite, the median of ``RUNS`` requests after one warm-up, printed with the
query count. Run it on its own:

    DATABASE_URL=sqlite:///unused.sqlite3 .venv/bin/python -m pytest tests/roster/bench_roster.py \
        -q -s -p no:cacheprovider -n 0

Target (issue 21): at most 300 ms for 200 athletes. The figure is in docs/coaching.md. Wall time
counts whatever else the machine runs; the CPU time is this process's alone (the server's own
work, SQLite included, as it runs in-process).
"""

import os
import statistics
import time

import pytest
from django.db import connection
from django.template import Template
from django.test.utils import CaptureQueriesContext, _TestState
from django.urls import reverse

from tests.roster.test_roster_queries import coach_with

pytestmark = pytest.mark.django_db
RUNS = 7
ATHLETES = 200


@pytest.fixture
def plain_templates():
    """Templates rendered as in production: without the test runner's instrumentation, which
    copies every context for ``response.context`` (several times the cost of the render)."""
    instrumented = Template._render
    Template._render = _TestState.saved_data.template_render
    yield
    Template._render = instrumented


def test_bench_the_roster_of_200_athletes(client, plain_templates):
    coach = coach_with(ATHLETES)
    client.force_login(coach)
    url = reverse("roster:roster")
    client.get(url)
    timings, cpu = [], []
    for _ in range(RUNS):
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        timings.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    assert response.content.count(b'class="roster-row') == ATHLETES
    print(
        f"\nroster of {ATHLETES} athletes on {connection.vendor}: median "
        f"{statistics.median(timings):.0f} ms (min {min(timings):.0f}, max {max(timings):.0f}) "
        f"over {RUNS} runs; CPU time median {statistics.median(cpu):.0f} ms; "
        f"{len(queries)} queries, {len(response.content) // 1024} KiB; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
