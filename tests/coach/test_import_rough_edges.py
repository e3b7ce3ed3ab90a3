"""import_program refuses what it can't import with a clear reason and creates nothing (issue 8):
a file that isn't UTF-8, JSON nested deeper than a program, a NUL in the name, more weeks than
the tools reach."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from programs.models import Program
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def week(n: int) -> dict:
    return {
        "phase": f"Block {n}",
        "startDate": "2027-01-04",
        "endDate": "2027-01-10",
        "sessions": [{"name": "Full Body", "exercises": []}],
    }


@pytest.fixture(autouse=True)
def athlete():
    return UserFactory(username="ana")


def run_import(path, *args):
    call_command("import_program", str(path), "--athlete", "ana", *args)


def refused(path, *args, match: str) -> None:
    with pytest.raises(CommandError, match=match):
        run_import(path, *args)
    assert not Program.objects.exists()


def test_a_file_that_is_not_utf8_is_refused_by_name(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes(
        json.dumps({"name": "Übung", "weeks": [week(1)]}, ensure_ascii=False).encode("latin-1")
    )
    refused(path, match=r"is not UTF-8 text \(byte 0xdc at position \d+\); save it as UTF-8")


def test_deeply_nested_json_is_refused_without_a_traceback(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    refused(path, match="nested 100000 levels deep; a program file needs at most 12")


def test_nesting_inside_strings_does_not_count(tmp_path):
    path = tmp_path / "brackets.json"
    path.write_text(json.dumps({"name": '[[[[[[[[[[[[[[[[[[[[ \\" {{{{', "weeks": [week(1)]}))
    run_import(path)
    assert Program.objects.get().name.startswith("[[[[")


def test_a_nul_in_the_program_name_is_refused(tmp_path):
    path = tmp_path / "nul.json"
    path.write_text(json.dumps({"name": "Block\u0000A", "weeks": [week(1)]}))
    refused(path, match=r"program name \(name\) must not contain NUL characters")


def test_a_nul_in_the_name_option_is_refused(tmp_path):
    path = tmp_path / "ok.json"
    path.write_text(json.dumps([week(1)]))
    refused(path, "--name", "Bad\x00Name", match=r"program name \(--name\) must not contain NUL")


def test_a_nul_in_a_week_text_is_refused(tmp_path):
    path = tmp_path / "nulweek.json"
    path.write_text(json.dumps([{**week(1), "phase": "Bad\u0000"}]))
    refused(path, match="weeks.0.phase")


def test_more_weeks_than_the_tools_reach_are_refused_with_the_bound(tmp_path):
    path = tmp_path / "long.json"
    path.write_text(json.dumps([week(n) for n in range(600)]))
    refused(path, match="at most 520 items")


def test_520_weeks_still_import(tmp_path):
    path = tmp_path / "max.json"
    path.write_text(json.dumps([week(n) for n in range(520)]))
    run_import(path)
    assert Program.objects.get().weeks.count() == 520
