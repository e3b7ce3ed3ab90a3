"""The editor of a long program: its queries don't grow with the number of weeks. Its render
time is measured by ``manage.py bench_editor`` (a timing asserted on a shared test machine would
test the machine), which this checks runs and reports."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from programs.models import Program
from tests.factories import build_program
from tests.programs.editor_support import url

pytestmark = pytest.mark.django_db


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


def test_the_benchmark_reports_the_render_time_and_leaves_nothing_behind():
    out = io.StringIO()
    call_command("bench_editor", weeks=2, sessions=2, exercises=2, runs=2, stdout=out)
    line = out.getvalue()
    assert line.startswith("editor, 2 weeks × 2 sessions × 2 exercises: median ")
    assert " ms (min " in line and "queries" in line and "400 ms target" in line
    assert not Program.objects.exists()
