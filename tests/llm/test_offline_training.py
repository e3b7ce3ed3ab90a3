"""The offline coach's training commands: each reaches its tool with the documented arguments,
reads are answered at once with the tool's data, and the help lists them."""

from __future__ import annotations

import pytest

from coach.llm.base import Turn
from coach.llm.offline import CommandError, OfflineProvider, help_text, parse_command
from coach.registry import REGISTRY, tool_definitions

EXAMPLES = {
    "get_last_activity": ("show my last run", {"activity_type": "RUNNING"}),
    "get_activity_by_date": ("activities on 2026-11-20", {"date": "2026-11-20"}),
    "get_activities_range": (
        "rides from 2026-11-01 to 2026-11-30",
        {"start_date": "2026-11-01", "end_date": "2026-11-30", "activity_type": "CYCLING"},
    ),
    "get_training_plan": (
        "plan from 2026-11-23 to 2026-12-06",
        {"start_date": "2026-11-23", "end_date": "2026-12-06"},
    ),
    "get_sleep_data": ("sleep 7", {"days": 7}),
    "get_fitness_scores": ("fitness", {}),
    "compare_activities": ("compare activities 12 15", {"activity_ids": [12, 15]}),
    "reschedule_workout": (
        "move session 2.3 to 2026-12-05 swap",
        {"workout_id": "week-2-session-3", "new_date": "2026-12-05", "strategy": "swap"},
    ),
    "skip_workout": (
        "skip session 2.3 because sick",
        {"workout_id": "week-2-session-3", "reason": "sick"},
    ),
    "mark_workout_complete": ("done session 2.3", {"workout_id": "week-2-session-3"}),
    "create_custom_workout": (
        "add run on 2026-12-05 40 min tempo named River Tempo",
        {
            "date": "2026-12-05",
            "sport": "RUNNING",
            "name": "River Tempo",
            "description": "",
            "duration": 40,
            "intensity": "tempo",
        },
    ),
    "log_sets": (
        "log exercise 2.3.1 2x8 @ 100 kg rpe 8",
        {
            "workout_id": "week-2-session-3",
            "sets": [
                {"exercise": 1, "reps": 8, "load": "100 kg", "rpe": 8.0, "set": 1},
                {"exercise": 1, "reps": 8, "load": "100 kg", "rpe": 8.0, "set": 2},
            ],
        },
    ),
    "realign_plan": ("realign", {}),
    "lighten_plan": ("lighter 5 days", {"days": 5}),
}


def test_every_training_and_schedule_tool_has_an_offline_command():
    assert set(EXAMPLES) == {
        n for n, s in REGISTRY.items() if s.category in ("training", "schedule")
    }


@pytest.mark.parametrize("tool", sorted(EXAMPLES))
def test_each_command_becomes_its_tool_call(tool):
    command, arguments = EXAMPLES[tool]
    parsed = parse_command(command)
    assert (parsed.name, parsed.arguments) == (tool, arguments)


@pytest.mark.parametrize(
    "command, tool, arguments",
    [
        ("how was my last ride?", "get_last_activity", {"activity_type": "CYCLING"}),
        ("last activity", "get_last_activity", {}),
        ("sleep", "get_sleep_data", {"days": 7}),
        ("fitness on 2026-12-01", "get_fitness_scores", {"date": "2026-12-01"}),
        ("plan", "get_training_plan", {}),
        (
            "move week 2 session 3 to 2026-12-05 push",
            "reschedule_workout",
            {"workout_id": "week-2-session-3", "new_date": "2026-12-05", "strategy": "push"},
        ),
        ("realign my plan", "realign_plan", {}),
        ("make the next 14 days lighter", None, None),
        ("lighter next 3 days", "lighten_plan", {"days": 3}),
        ("not feeling 100% 7 days", "lighten_plan", {"days": 7}),
        (
            "done session 1.2 on 2026-11-20 rating 4 notes felt strong",
            "mark_workout_complete",
            {
                "workout_id": "week-1-session-2",
                "date": "2026-11-20",
                "rating": 4,
                "notes": "felt strong",
            },
        ),
    ],
)
def test_variants_of_the_commands(command, tool, arguments):
    parsed = parse_command(command)
    if tool is None:
        assert parsed is None
    else:
        assert (parsed.name, parsed.arguments) == (tool, arguments)


@pytest.mark.parametrize(
    "command, message",
    [
        ("skip session 2.3", "Say why"),
        ("sleep 91", "1 to 90 nights"),
        ("log exercise 1.1.1 31x5", "at most 30 sets"),
        ("lighter 2 days", "3 to 14 days"),
        ("lighter 15 days", "3 to 14 days"),
        ("not feeling 100%", "3 to 14 days"),
    ],
)
def test_incomplete_commands_say_what_to_type(command, message):
    with pytest.raises(CommandError, match=message):
        parse_command(command)


def test_the_existing_exercise_skip_is_not_taken_for_a_session_skip():
    assert parse_command("skip exercise 1.2.3").name == "modify_exercise"


def test_a_read_is_answered_with_the_tools_data_and_a_write_waits_for_apply():
    provider = OfflineProvider()
    asked = provider.complete(
        turns=[Turn(role="user", content="sleep 3")], tools=tool_definitions()
    )
    assert [c.name for c in asked.tool_calls] == ["get_sleep_data"]
    answer = provider.complete(
        turns=[
            Turn(role="user", content="sleep 3"),
            Turn(role="assistant", content=asked.text, tool_calls=asked.tool_calls),
            Turn(
                role="tool",
                content="Sleep, last 3 days: {...}",
                tool_call_id=asked.tool_calls[0].id,
            ),
        ],
        tools=tool_definitions(),
    )
    assert answer.text.startswith("Sleep, last 3 days: {...}")
    wrote = provider.complete(
        turns=[Turn(role="user", content="skip session 2.3 because sick")], tools=tool_definitions()
    )
    assert "Apply Changes" in wrote.text and wrote.tool_calls[0].name == "skip_workout"


def test_the_help_lists_the_training_commands():
    text = help_text()
    for _, example in [
        ("", "show my last run"),
        ("", "sleep 7"),
        ("", "fitness"),
        ("", "move session 2.3 to 2026-12-05 swap"),
        ("", "skip session 2.3 because sick"),
        ("", "done session 2.3 rating 4"),
        ("", "realign"),
        ("", "lighter 5 days"),
    ]:
        assert example in text
