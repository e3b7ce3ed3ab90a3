import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import UserFactory
from tests.training import files
from training import fit_writer
from training.models import Activity

pytestmark = pytest.mark.django_db


def test_import_activities_prints_a_line_per_file_and_the_totals_last(tmp_path, capsys):
    athlete = UserFactory(username="ana")
    (tmp_path / "run.fit").write_bytes(fit_writer.fit_activity())
    (tmp_path / "sleep.csv").write_bytes(files.sleep_csv(["2026-11-20,420,80,50,60"]))
    call_command(
        "import_activities",
        str(tmp_path / "run.fit"),
        str(tmp_path / "sleep.csv"),
        "--athlete",
        "ana",
    )
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines == [
        "run.fit: 1 activities, 0 sleep records, 0 duplicates skipped",
        "sleep.csv: 0 activities, 1 sleep records, 0 duplicates skipped",
        "imported 1 activities, 1 sleep records, skipped 0 duplicates, 0 files failed",
    ]
    assert Activity.objects.filter(athlete=athlete).count() == 1


def test_import_activities_exits_1_when_a_file_failed(tmp_path, capsys):
    UserFactory(username="ana")
    (tmp_path / "bad.gpx").write_bytes(b"<gpx>")
    (tmp_path / "run.gpx").write_bytes(files.gpx())
    with pytest.raises(SystemExit) as exit_:
        call_command(
            "import_activities",
            str(tmp_path / "bad.gpx"),
            str(tmp_path / "run.gpx"),
            str(tmp_path / "missing.fit"),
            "--athlete",
            "ana",
        )
    assert exit_.value.code == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("bad.gpx: FAILED")
    assert out[-1] == "imported 1 activities, 0 sleep records, skipped 0 duplicates, 2 files failed"


def test_import_activities_names_an_unknown_athlete(tmp_path):
    with pytest.raises(CommandError, match="No user named 'nobody'"):
        call_command("import_activities", "x.fit", "--athlete", "nobody")


def test_fitness_scores_rejects_a_bad_date():
    UserFactory(username="ana")
    with pytest.raises(CommandError, match="not a date"):
        call_command("fitness_scores", "ana", "--on", "yesterday")


def test_bench_import_times_a_csv_and_fit_files_and_leaves_nothing(capsys):
    call_command("bench_import", rows=3, fit=2)
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("one CSV of 3 activities: ")
    assert lines[0].endswith(
        "imported 3 activities, 0 sleep records, skipped 0 duplicates, 0 files failed"
    )
    assert lines[1].startswith("2 FIT files of 1 h (720 records each): ")
    assert lines[1].endswith(
        "imported 2 activities, 0 sleep records, skipped 0 duplicates, 0 files failed"
    )
    assert not Activity.objects.exists()
