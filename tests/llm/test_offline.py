"""The offline coach's commands: documented commands become the same tool calls a model would
propose, pass the engine's checks, and anything else gets the help. Its replies around a proposal
are in test_offline_conversation.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from coach import engine
from coach.llm.base import World
from coach.llm.offline import parse_command, split_commands
from coach.llm.offline.understand import understand
from coach.registry import REGISTRY, USE_TOOLS
from coach.toolcalls import ToolCall
from programs.tools.offline import HELP_COMMANDS
from tests.llm.offline_support import ask

DOC = Path(__file__).resolve().parents[2] / "coach" / "llm" / "OFFLINE_COMMANDS.md"

# One example per tool, with the exact arguments it must produce (seed 000, Phase 1, camelCase).
EXAMPLES = {
    "modify_exercise": (
        "rename exercise 2.1.3 to Goblet Squat",
        {
            "weekNumber": 2,
            "sessionNumber": 1,
            "exerciseNumber": 3,
            "updates": {"name": "Goblet Squat"},
        },
    ),
    "remove_exercise": (
        "remove exercise 1.2.3",
        {"weekNumber": 1, "sessionNumber": 2, "exerciseNumber": 3},
    ),
    "add_exercise": (
        "add exercise Bench Press 3x8 @ 135 lbs to 1.2 at 2",
        {
            "weekNumber": 1,
            "sessionNumber": 2,
            "position": 2,
            "exercise": {
                "name": "Bench Press",
                "reps": "8",
                "targetLoad": "135 lbs",
                "workingSets": 3,
                "warmupSets": 0,
                "restSeconds": 120,
            },
        },
    ),
    "remove_session": ("remove session 1.2", {"weekNumber": 1, "sessionNumber": 2}),
    "add_session": (
        "add cardio day zone2 30 min Running to week 1 on Saturday",
        {
            "weekNumber": 1,
            "position": "end",
            "session": {
                "name": "Zone 2 Cardio",
                "exercises": [],
                "cardio": {"type": "zone2", "duration": 30, "modality": "Running"},
                "dayOfWeek": "Saturday",
            },
        },
    ),
    "modify_session": (
        "remove cardio from session 1.2",
        {"weekNumber": 1, "sessionNumber": 2, "updates": {"cardio": None}},
    ),
    "reorder_exercises": (
        "move exercise 1.2.3 to 1",
        {"weekNumber": 1, "sessionNumber": 2, "exerciseNumber": 3, "newPosition": 1},
    ),
    "copy_session": (
        "copy session 1.2 to week 2 at 1",
        {"sourceWeekNumber": 1, "sourceSessionNumber": 2, "targetWeekNumber": 2, "position": 1},
    ),
    "modify_week": ("set week 2 phase Deload", {"weekNumber": 2, "updates": {"phase": "Deload"}}),
    "add_week": (
        "add week Deload from 2026-12-01 to 2026-12-07 after week 2",
        {
            "position": 3,
            "weeks": [
                {
                    "phase": "Deload",
                    "startDate": "2026-12-01",
                    "endDate": "2026-12-07",
                    "description": "Deload week added by the offline coach; add exercises to each session.",
                    "sessions": [
                        {"name": "Deload Session 1", "exercises": []},
                        {"name": "Deload Session 2", "exercises": []},
                        {"name": "Deload Session 3", "exercises": []},
                    ],
                }
            ],
        },
    ),
    "remove_week": ("remove week 2", {"weekNumber": 2}),
    "get_week": ("show week 2", {"weekNumber": 2}),
    # The library tools (seed 003, snake_case as the seed names them).
    "search_workout_library": ("find workouts legs", {"query": "legs"}),
    "add_workout_to_calendar": (
        "schedule workout 12 on 2026-12-01 weekly 4",
        {"workout_id": 12, "date": "2026-12-01", "recurrence": "weekly", "count": 4},
    ),
    "save_workout_to_library": (
        "save workout Leg Burner strength 45 min hard: Back Squat 5x5 @ 80% 1RM, Lunge 3x10",
        {
            "title": "Leg Burner",
            "sport": "strength",
            "duration": 45,
            "intensity": "hard",
            "description": "Saved by the offline coach.",
            "exercises": [
                {"name": "Back Squat", "sets": 5, "reps": "5", "load": "80% 1RM"},
                {"name": "Lunge", "sets": 3, "reps": "10", "load": "bodyweight"},
            ],
        },
    ),
    "navigate_to_page": ("go to calendar", {"page": "calendar"}),
}


def call_of(command: str):
    """The call a documented example makes: a command, or a sentence a tool declares on its spec
    (``ToolSpec.phrases``, read by the grammar of everyday sentences)."""
    parsed = parse_command(command)
    if parsed is None and (understood := understand(command, World())) and understood.calls:
        parsed = understood.calls[0]
    return parsed


def documented_examples() -> list[str]:
    block = re.search(r"```text\n(.*?)```", DOC.read_text(), re.DOTALL)
    assert block, "OFFLINE_COMMANDS.md has no ```text block of examples"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def test_the_examples_cover_the_program_and_library_tools_of_the_registry():
    # the training and schedule tools have theirs in test_offline_training.py
    assert set(EXAMPLES) == {
        n for n, spec in REGISTRY.items() if spec.category in ("program", "library")
    }
    assert len(EXAMPLES) == 16


@pytest.mark.parametrize("tool", sorted(EXAMPLES))
def test_each_tool_is_reachable_with_its_documented_arguments(tool):
    command, arguments = EXAMPLES[tool]
    response = ask(command)
    assert [(c.name, c.arguments) for c in response.tool_calls] == [(tool, arguments)]
    assert response.finish_reason == "tool_calls"
    if REGISTRY[tool].kind == "read":
        assert response.text == ""  # a read changes nothing: its answer is the reply
    else:
        assert "Apply Changes" in response.text


@pytest.mark.parametrize("command", documented_examples())
def test_every_documented_example_passes_the_engine_schema_check(command):
    parsed = call_of(command)
    assert parsed is not None, f"the documented example {command!r} is not understood"
    model, errors = engine.check_call(
        ToolCall(id="c1", name=parsed.name, arguments=parsed.arguments)
    )
    assert errors == [], [e.to_dict() for e in errors]
    assert model is not None


@pytest.mark.parametrize("example", [e for _, e in HELP_COMMANDS])
def test_every_help_example_is_a_command(example):
    assert parse_command(example) is not None


def test_documented_examples_reach_every_tool():
    names = {call_of(command).name for command in documented_examples()}
    # use_tools aside: the offline coach calls every family's tools directly (chat.toolsets).
    assert names == set(REGISTRY) - {USE_TOOLS}


def test_several_commands_in_one_message_make_several_calls_in_order():
    response = ask(
        "rename exercise 1.1.1 to Goblet Squat and set exercise 1.1.1 reps 10-12 sets 4; "
        "skip exercise 1.1.2\nremove week 2"
    )
    assert [(c.name, c.arguments) for c in response.tool_calls] == [
        (
            "modify_exercise",
            {
                "weekNumber": 1,
                "sessionNumber": 1,
                "exerciseNumber": 1,
                "updates": {"name": "Goblet Squat"},
            },
        ),
        (
            "modify_exercise",
            {
                "weekNumber": 1,
                "sessionNumber": 1,
                "exerciseNumber": 1,
                "updates": {"reps": "10-12", "workingSets": 4},
            },
        ),
        (
            "modify_exercise",
            {
                "weekNumber": 1,
                "sessionNumber": 1,
                "exerciseNumber": 2,
                "updates": {"skipped": True},
            },
        ),
        ("remove_week", {"weekNumber": 2}),
    ]
    assert len({c.id for c in response.tool_calls}) == 4


def test_and_inside_a_name_does_not_split_the_command():
    assert split_commands("rename exercise 1.1.1 to Clean and Jerk") == [
        "rename exercise 1.1.1 to Clean and Jerk"
    ]
    response = ask("rename exercise 1.1.1 to Clean and Jerk")
    assert response.tool_calls[0].arguments["updates"] == {"name": "Clean and Jerk"}


def test_long_forms_of_the_numbers_are_understood():
    assert parse_command("rename week 1 session 2 exercise 3 to Lunges").arguments == {
        "weekNumber": 1,
        "sessionNumber": 2,
        "exerciseNumber": 3,
        "updates": {"name": "Lunges"},
    }
    assert parse_command("remove w2 s1").arguments == {"weekNumber": 2, "sessionNumber": 1}


def test_rest_accepts_minutes_and_fields_combine():
    parsed = parse_command("set exercise 1.1.1 sets 4 reps 6 load 80 kg rest 2 min")
    assert parsed.arguments["updates"] == {
        "workingSets": 4,
        "reps": "6",
        "targetLoad": "80 kg",
        "restSeconds": 120,
    }


def test_notes_take_the_rest_of_the_command_even_with_field_words():
    parsed = parse_command("set exercise 1.1.1 notes rest 2 min and keep sets light")
    assert parsed.arguments["updates"] == {"notes": "rest 2 min and keep sets light"}


def test_a_multi_command_with_one_unknown_part_proposes_nothing():
    response = ask("remove week 2; fly to the moon")
    assert response.tool_calls == []
    assert '"fly to the moon"' in response.text


def test_help_lists_every_command_with_an_example():
    response = ask("help")
    assert response.tool_calls == []
    text, _, replies = response.text.partition("\n---\n")
    assert "offline coach" in text
    for _, example in HELP_COMMANDS:
        assert example in text
    assert replies.splitlines()[0] == "help"


def test_empty_input_gets_the_offline_help():
    response = ask("")
    assert response.tool_calls == []
    assert "offline coach" in response.text


@pytest.mark.parametrize("message", ["frobnicate the squats", "what's a goblet squat?"])
def test_unknown_input_gets_the_nearest_sentences_as_chips_not_the_help(message):
    response = ask(message)
    text, _, replies = response.text.partition("\n---\n")
    assert response.tool_calls == [] and response.finish_reason == "stop"
    assert "offline coach" not in text  # no help dump
    assert "Did you mean" in text
    chips = replies.splitlines()
    assert chips[-1] == "help" and 2 <= len(chips) <= 4


def test_a_question_is_told_it_cannot_be_answered_offline():
    assert "can't answer that while I'm offline" in ask("what's a goblet squat?").text


def test_an_incomplete_command_says_what_to_type():
    response = ask("add week Deload after week 4")
    assert response.tool_calls == []
    assert "add week Deload from 2026-12-01 to 2026-12-07 after week 4" in response.text
    assert "cardio type" in ask("set session 1.1 cardio jogging 30").text


def test_a_batch_of_offline_commands_previews_cleanly_on_a_real_program(program):
    response = ask(
        "rename exercise 1.1.1 to Goblet Squat and set exercise 1.1.2 load 50 lbs; "
        "add rest day to week 2; set week 1 phase Deload"
    )
    result = engine.preview_calls(
        ctx=engine.ToolContext.for_program(program), calls=response.tool_calls
    )
    assert result.success, [r.to_dict() for r in result.results]
    assert len(result.results) == 4
