"""Limits of the importer: what one file may expand to, how many rows and points it may hold,
which dates it may carry. A refused file says why and fails alone."""

from __future__ import annotations

import datetime
import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone

from config.workers import database_url
from tests.factories import UserFactory
from tests.training import bombs, files
from training import fit_writer
from training.imports import import_files
from training.models import Activity

ROOT = Path(__file__).resolve().parents[2]


# The command runs in a Python of its own that writes its peak resident memory (VmHWM, the high
# water mark of its own address space, which exec starts afresh) to a file as it exits. wait4's
# ru_maxrss would not do: Linux keeps it across exec, so a child of a test process that had
# already grown (an xdist worker late in the suite) reports that process's size, not its own.
_PEAK_PROBE = """
import atexit, os, runpy, sys
def _peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            open(os.environ["SPOTTER_PEAK_FILE"], "w").write(line.split()[1])
atexit.register(_peak)
sys.argv = ["manage.py", *sys.argv[1:]]
runpy.run_path("manage.py", run_name="__main__")
"""


def _run_import(paths: list[Path], athlete: str) -> tuple[int, str, int]:
    """``manage.py import_activities`` in a process of its own: (exit status, output, peak RSS in
    MB of that process alone, read from its own VmHWM as it exits)."""
    log = paths[0].with_suffix(".log")
    peak = paths[0].with_suffix(".peak")
    with log.open("wb") as out:
        proc = subprocess.run(
            [
                sys.executable,
                "-c",
                _PEAK_PROBE,
                "import_activities",
                *map(str, paths),
                "--athlete",
                athlete,
            ],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": database_url(), "SPOTTER_PEAK_FILE": str(peak)},
            stdout=out,
            stderr=subprocess.STDOUT,
            check=False,
        )
    return proc.returncode, log.read_text(), int(peak.read_text()) // 1024


@pytest.mark.django_db(transaction=True)
def test_a_gzip_bomb_is_refused_while_decompressing_and_the_process_stays_small(tmp_path):
    athlete = UserFactory()
    bomb = tmp_path / "bomb.gpx.gz"
    expanded = bombs.gzip_gpx_bomb(bomb, mebibytes=96)
    assert expanded == 96 * bombs.MIB and bomb.stat().st_size < 10 * bombs.MIB
    status, output, peak_mb = _run_import([bomb], athlete.username)
    assert status == 1, output
    assert "bomb.gpx.gz: FAILED" in output and "expands to more than 50 MB" in output, output
    assert peak_mb < 300, f"the importing process peaked at {peak_mb} MB"
    assert not Activity.objects.filter(athlete=athlete).exists()


@pytest.fixture
def athlete(db):
    return UserFactory()


def _csv_rows(count: int, start=datetime.date(2024, 1, 1)) -> list[str]:
    return [
        f"{start + datetime.timedelta(days=i)},RUNNING,Run {i},3000,8000,145,160,30,"
        for i in range(count)
    ]


def test_a_gzip_past_the_unzipped_cap_is_refused_and_the_other_files_import(athlete, settings):
    settings.IMPORT_FILE_MAX_MB = 1
    big = gzip.compress(files.gpx(points=12_000))  # about 2.3 MB unzipped
    report = import_files(athlete=athlete, files=[("big.gpx.gz", big), ("run.gpx", files.gpx())])
    assert report.files[0].error == (
        "file: expands to more than 1 MB; split the activities into smaller files "
        "(at most 1 MB each, unzipped) and import each"
    )
    assert report.files[1].activities == 1 and report.failed == 1
    assert Activity.objects.filter(athlete=athlete).count() == 1


def test_a_file_past_the_size_cap_is_refused_before_it_is_parsed(athlete, settings, monkeypatch):
    settings.IMPORT_FILE_MAX_MB = 1
    monkeypatch.setattr("training.importers.gpx.parse", _must_not_run)
    report = import_files(athlete=athlete, files=[("big.gpx", files.gpx(points=12_000))])
    assert report.files[0].error.startswith("file: is more than 1 MB; split the activities")


def _must_not_run(*args, **kwargs):
    raise AssertionError("the parser ran")


def test_a_csv_past_the_row_cap_is_refused_with_the_line_and_the_cap(athlete, settings):
    settings.IMPORT_MAX_ROWS = 50
    report = import_files(
        athlete=athlete,
        files=[
            ("ok.csv", files.spotter_csv(_csv_rows(50))),
            ("many.csv", files.spotter_csv(_csv_rows(51))),
        ],
    )
    assert report.files[0].activities == 50
    assert report.files[1].error == (
        "line 52: has more than 50 rows; split it into files of at most 50 rows and import each"
    )
    assert Activity.objects.filter(athlete=athlete).count() == 50


@pytest.mark.parametrize(
    ("name", "build", "what"),
    [
        ("long.gpx", lambda n: files.gpx(points=n), "track points"),
        ("long.tcx", lambda n: files.tcx(points=n), "track points"),
        ("long.fit", lambda n: fit_writer.fit_activity(minutes=n * 5 // 60 + 1), "records"),
    ],
)
def test_a_file_past_the_point_cap_is_refused_before_it_is_parsed(
    athlete, settings, monkeypatch, name, build, what
):
    settings.IMPORT_MAX_POINTS = 100
    fine = import_files(athlete=athlete, files=[(f"fine{name[4:]}", build(90))])
    assert fine.activities == 1, fine.files[0].error
    monkeypatch.setattr(f"training.importers.{name[5:]}.parse", _must_not_run)
    report = import_files(athlete=athlete, files=[(name, build(101))])
    assert report.files[0].error == (
        f"file: has more than 100 {what}; split the activity into files of at most 100 "
        "and import each"
    )


def test_dates_before_1970_or_after_tomorrow_refuse_the_file_naming_the_line(athlete):
    today = timezone.now().date()
    tomorrow, later = today + datetime.timedelta(days=1), today + datetime.timedelta(days=2)
    report = import_files(
        athlete=athlete,
        files=[
            ("tomorrow.csv", files.spotter_csv(_csv_rows(1, start=tomorrow))),
            ("future.csv", files.spotter_csv([*_csv_rows(2), *_csv_rows(1, start=later)])),
            ("old.csv", files.spotter_csv(_csv_rows(1, start=datetime.date(1969, 12, 31)))),
            ("future.gpx", files.gpx(start=datetime.datetime(2033, 1, 2, tzinfo=datetime.UTC))),
        ],
    )
    assert report.files[0].activities == 1
    assert report.files[1].error == (
        f"line 4: the date {later} ('Run 0') is outside 1970-01-01 to {tomorrow}; correct it "
        "(or the device's clock) and import the file again"
    )
    assert report.files[2].error.startswith("line 2: the date 1969-12-31 ('Run 0') is outside")
    assert report.files[3].error.startswith("activity 1: the date 2033-01-02 ('Morning Run')")
    assert Activity.objects.filter(athlete=athlete).count() == 1


def test_a_sleep_night_in_the_future_is_refused(athlete):
    report = import_files(
        athlete=athlete, files=[("sleep.csv", files.sleep_csv(["2031-05-01,480,80,50,60"]))]
    )
    assert report.files[0].error.startswith("line 2: the date 2031-05-01 is outside 1970-01-01")


def test_the_command_refuses_a_file_over_the_cap_without_reading_it(
    athlete, settings, tmp_path, capsys, monkeypatch
):
    settings.IMPORT_FILE_MAX_MB = 1
    big = tmp_path / "big.gpx"
    big.write_bytes(b" " * (bombs.MIB + 1))
    small = tmp_path / "run.gpx"
    small.write_bytes(files.gpx())
    read = []
    real_read_bytes = Path.read_bytes
    monkeypatch.setattr(
        Path, "read_bytes", lambda self: read.append(self.name) or real_read_bytes(self)
    )
    with pytest.raises(SystemExit):
        call_command("import_activities", str(big), str(small), "--athlete", athlete.username)
    out = capsys.readouterr().out
    assert "big.gpx: FAILED file: is more than 1 MB" in out
    assert "imported 1 activities" in out and "1 files failed" in out
    assert read == ["run.gpx"]
