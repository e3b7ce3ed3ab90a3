"""The benchmarks run end to end on a small scale: real broker, worker, gunicorn."""

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_bench_concurrency_counts_every_reply_once_and_cleans_up():
    out = io.StringIO()
    call_command(
        "bench_concurrency",
        "--athletes=3",
        "--messages=2",
        "--delay=0.3",
        "--concurrency=3",
        "--timeout=60",
        stdout=out,
    )
    text = out.getvalue()
    assert "3 athletes × 2 messages, model 0.3 s, one worker process: threads pool × 3" in text
    assert re.search(r"sent 6 +replies received 6 +lost 0 .*duplicated 0 +model calls 6", text)
    assert re.search(r"reply latency: median \d+\.\d\d s +p95 \d+\.\d\d s +max \d+\.\d\d s", text)
    assert not get_user_model().objects.filter(username__startswith="bench-").exists()


@pytest.mark.integration
def test_bench_http_drives_every_endpoint_against_the_trivial_view_without_errors(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "bench_http",
            "--requests=12",
            "--writers=3",
            "--connections=2",
            "--web-concurrency=1",
        ],
        cwd=ROOT,
        env={**env, "SPOTTER_VAR_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    rows = {
        match.group(1).strip(): match.groups()[1:]
        for match in re.finditer(
            r"^  (GET /healthz \(trivial\)|GET feed \(nothing new\)|GET /|GET thinking poll|"
            r"POST message|POST Apply)\s+"
            r"(\d+)\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+([\d.]+)"
            r"\s+(\d+)$",
            done.stdout,
            re.MULTILINE,
        )
    }
    assert set(rows) == {
        "GET /healthz (trivial)",
        "GET feed (nothing new)",
        "GET /",
        "GET thinking poll",
        "POST message",
        "POST Apply",
    }, done.stdout
    assert rows["GET /healthz (trivial)"][2] == "1.00"
    assert rows["POST Apply"][0] == "3" and rows["GET /"][0] == "12"
    assert rows["GET /healthz (trivial)"][0] == "60"  # 12 around each of the five others
    assert all(errors == "0" for *_, errors in rows.values()), done.stdout
