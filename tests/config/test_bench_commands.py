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
def test_bench_http_compares_designs_against_in_process_and_runs_the_capacity_mix(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "bench_http",
            "--designs=split,asgi",
            "--rounds=1",
            "--requests=12",
            "--writers=3",
            "--connections=2",
            "--web-concurrency=1",
            "--mix",
            "--mix-steps=4",
            "--mix-seconds=3",
            "--mix-warmup=1",
            "--mix-accounts=2",
        ],
        cwd=ROOT,
        env={**env, "SPOTTER_VAR_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    number = r"\s+([\d.]+)"
    design = r" \|" + number * 4
    rows = {
        match.group(1).strip(): match.groups()[1:]
        for match in re.finditer(
            r"^  (trivial view|GET /|plan offer|feed|poll|post|Apply)" + number + design * 2 + "$",
            done.stdout,
            re.MULTILINE,
        )
    }
    # Every endpoint, measured in-process and served by both designs, without an error (an error
    # adds "(n errors)" to its row, which the pattern refuses).
    assert set(rows) == {"trivial view", "GET /", "plan offer", "feed", "poll", "post", "Apply"}, (
        done.stdout
    )
    assert all(float(value) > 0 for value in rows["Apply"]), done.stdout
    assert re.search(
        r"lowest efficiency: split [\d.]+, asgi [\d.]+; the client's own CPU", done.stdout
    )
    # The capacity mix on each design: a step of 4 athletes, its CPU per athlete-second.
    steps = re.findall(
        r"^\s+4\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+(\d+)\s+\d+\s+\d+\s+([\d.]+)",
        done.stdout,
        re.MULTILINE,
    )
    assert len(steps) == 2 and all(errors == "0" for errors, _ in steps), done.stdout
    assert len(re.findall(r"^  held: \d+ athletes", done.stdout, re.MULTILINE)) == 2
