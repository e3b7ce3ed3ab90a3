"""The program commands: import_program, export_program, coach_tools, bench_tools."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from coach.registry import REGISTRY
from programs.export import export_program
from programs.models import Exercise, Program
from tests.factories import UserFactory, build_program

pytestmark = pytest.mark.django_db

WEEKS = [
    {
        "weekNumber": 7,
        "phase": "Hypertrophy",
        "startDate": "2026-11-02",
        "endDate": "2026-11-08",
        "description": "Volume",
        "sessions": [
            {
                "name": "Upper A",
                "dayOfWeek": "Monday",
                "scheduledDate": "2026-11-02",
                "warmup": ["Band pull-aparts"],
                "exercises": [
                    {
                        "name": "Bench Press",
                        "reps": "8-10",
                        "targetLoad": "135 lbs",
                        "workingSets": 3,
                    },
                    {
                        "name": "Row",
                        "reps": "10",
                        "targetLoad": "95 lbs",
                        "workingSets": 3,
                        "restSeconds": 90,
                    },
                ],
            },
            {"name": "Zone 2", "exercises": [], "cardio": {"type": "zone2", "duration": 40}},
            {"name": "Rest"},
        ],
    },
    {
        "phase": "Deload",
        "startDate": "2026-11-09",
        "endDate": "2026-11-15",
        "sessions": [{"name": "Easy", "exercises": []}],
    },
]


def run(*args, **kwargs):
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err, **kwargs)
    return out.getvalue(), err.getvalue()


def write(tmp_path, data, name="program.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


# --- import_program -----------------------------------------------------------------------------


def test_import_program_from_a_list_of_weeks_prints_the_new_id_last(tmp_path):
    athlete = UserFactory(username="ana")
    coach = UserFactory(username="coachy")
    out, _ = run("import_program", write(tmp_path, WEEKS), "--athlete", "ana", "--coach", "coachy")
    program = Program.objects.get(pk=int(out.strip().splitlines()[-1]))
    assert (program.athlete, program.coach, program.name) == (athlete, coach, "program")
    data = export_program(program)
    assert [w["weekNumber"] for w in data["weeks"]] == [1, 2]
    upper = data["weeks"][0]["sessions"][0]
    assert [e["name"] for e in upper["exercises"]] == ["Bench Press", "Row"]
    assert upper["exercises"][1]["restSeconds"] == 90
    assert upper["exercises"][0]["restSeconds"] == 120
    assert data["weeks"][0]["sessions"][1]["cardio"]["duration"] == 40
    assert data["startDate"] == "2026-11-02"


def test_import_program_object_with_name_and_start_date(tmp_path):
    UserFactory(username="ana")
    path = write(tmp_path, {"name": "Winter block", "startDate": "2026-10-26", "weeks": WEEKS})
    out, _ = run("import_program", path, "--athlete", "ana")
    program = Program.objects.get(pk=int(out.strip().splitlines()[-1]))
    assert program.name == "Winter block"
    assert program.start_date.isoformat() == "2026-10-26"


def test_exported_program_imports_back_to_the_same_plan(tmp_path):
    UserFactory(username="ana")
    source = build_program(weeks=2, sessions=2, exercises=3)
    exported, _ = run("export_program", str(source.pk))
    out, _ = run("import_program", write(tmp_path, exported), "--athlete", "ana", "--name", "Copy")
    copy = Program.objects.get(pk=int(out.strip().splitlines()[-1]))
    strip = lambda d: {k: v for k, v in d.items() if k not in {"id", "athlete", "name", "version"}}  # noqa: E731
    assert strip(export_program(copy)) == strip(export_program(source))


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "Can't read"),
        ("{not json", "not valid JSON"),
        ("42", "list of weeks"),
        (json.dumps([{**WEEKS[0], "phase": ""}]), "weeks.0.phase must not be empty"),
        (
            json.dumps(
                [
                    {
                        **WEEKS[0],
                        "sessions": [{"name": "X", "cardio": {"type": "run", "duration": 5}}],
                    }
                ]
            ),
            "weeks.0.sessions.0.cardio.type",
        ),
        (json.dumps({"weeks": WEEKS, "colour": "red"}), "Unknown top-level keys: colour"),
        (json.dumps([]), "at least 1 item"),
    ],
)
def test_import_program_bad_file_fails_and_creates_nothing(tmp_path, content, words):
    UserFactory(username="ana")
    path = str(tmp_path / "missing.json") if content is None else write(tmp_path, content)
    with pytest.raises(CommandError, match=words):
        run("import_program", path, "--athlete", "ana")
    assert not Program.objects.exists()


def test_import_program_unknown_user_fails_and_creates_nothing(tmp_path):
    with pytest.raises(CommandError, match="no user 'ghost'"):
        run("import_program", write(tmp_path, WEEKS), "--athlete", "ghost")
    assert not Program.objects.exists()


# --- export_program and coach_tools -------------------------------------------------------------


def test_export_program_prints_the_seed_json(program):
    out, _ = run("export_program", str(program.pk))
    assert json.loads(out) == export_program(program)


def test_export_program_unknown_id_fails():
    with pytest.raises(CommandError, match="no program 999"):
        run("export_program", "999")


def test_coach_tools_schema_prints_the_definitions():
    out, _ = run("coach_tools", "schema")
    names = {d["name"] for d in json.loads(out)}
    # every tool of the registry, whatever family (program, training, schedule, library, ...)
    assert names == set(REGISTRY)
    assert {"add_week", "get_week", "get_last_activity", "navigate_to_page", "use_tools"} <= names
    assert {"recipe_create", "grocery_push_ingredients"} <= names
    assert {"log_mood", "log_medication", "create_care_log"} <= names


CALLS = [
    {
        "id": "call_1",
        "type": "function",
        "function": {
            "name": "modify_exercise",
            "arguments": json.dumps(
                {
                    "weekNumber": 1,
                    "sessionNumber": 1,
                    "exerciseNumber": 1,
                    "updates": {"name": "Lunges"},
                }
            ),
        },
    },
    {
        "id": "call_2",
        "name": "remove_exercise",
        "arguments": {"weekNumber": 1, "sessionNumber": 1, "exerciseNumber": 4},
    },
]


def test_coach_tools_preview_prints_results_and_changes_nothing(tmp_path, program):
    before = export_program(program)
    out, _ = run("coach_tools", "preview", str(program.pk), write(tmp_path, CALLS))
    data = json.loads(out)
    assert data["success"] is True
    assert [r["tool_call_id"] for r in data["results"]] == ["call_1", "call_2"]
    assert len(data["preview"]["details"]) == 2
    assert export_program(program) == before


def test_coach_tools_apply_writes_when_every_call_succeeds(tmp_path, program):
    out, _ = run("coach_tools", "apply", str(program.pk), write(tmp_path, CALLS))
    assert json.loads(out)["success"] is True
    first = Exercise.objects.get(
        session__week__program=program, session__week__position=1, session__position=1, position=1
    )
    assert first.name == "Lunges"
    assert Program.objects.get(pk=program.pk).version > 1


def test_coach_tools_apply_with_a_failing_call_prints_json_exits_1_and_writes_nothing(
    tmp_path, program
):
    before = export_program(program)
    calls = [*CALLS, {"id": "call_3", "name": "remove_week", "arguments": {"weekNumber": 9}}]
    out = io.StringIO()
    with pytest.raises(CommandError) as raised:
        call_command("coach_tools", "apply", str(program.pk), write(tmp_path, calls), stdout=out)
    assert raised.value.returncode == 1
    data = json.loads(out.getvalue())
    assert data["success"] is False
    assert [r["success"] for r in data["results"]] == [True, True, False]
    assert data["results"][2]["errors"][0]["code"] == "NOT_FOUND"
    assert export_program(program) == before


def test_coach_tools_rejects_a_file_that_is_not_a_list(tmp_path, program):
    with pytest.raises(CommandError, match="list of tool calls"):
        run("coach_tools", "preview", str(program.pk), write(tmp_path, "3"))


def test_bench_tools_prints_a_table_and_cleans_up():
    out, _ = run("bench_tools", "--sizes", "4", "--runs", "1")
    lines = out.strip().splitlines()
    assert lines[1].startswith("weeks | apply ms")
    assert lines[-1].split("|")[0].strip() == "4"
    assert not Program.objects.exists()


def test_import_and_coach_tools_apply_are_recorded_as_revisions(tmp_path, program):
    UserFactory(username="importee")
    out, _ = run("import_program", write(tmp_path, WEEKS), "--athlete", "importee")
    imported = Program.objects.get(pk=int(out.strip().splitlines()[-1]))
    revision = imported.revisions.get()
    assert revision.via == "import" and "2 weeks" in revision.summary
    run("coach_tools", "apply", str(program.pk), write(tmp_path, CALLS, name="calls.json"))
    applied = program.revisions.get()
    assert applied.via == "command" and applied.program_version == 2
