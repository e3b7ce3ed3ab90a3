"""The offline coach's library commands (seed 003): each becomes the tool call a model would make,
and a command it recognises but can't use says what to type."""

from __future__ import annotations

import pytest

from coach.llm.base import Turn
from coach.llm.offline import OfflineProvider, parse_command
from coach.llm.offline.grammar import CommandError
from library.tools.offline import LIBRARY_HELP
from tests.llm.offline_support import ask


@pytest.mark.parametrize(
    ("command", "name", "arguments"),
    [
        ("find workouts legs", "search_workout_library", {"query": "legs"}),
        ("Find workout quick cardio", "search_workout_library", {"query": "quick cardio"}),
        ("find 3 workouts legs", "search_workout_library", {"query": "legs", "limit": 3}),
        ("search library for easy run", "search_workout_library", {"query": "easy run"}),
        (
            "schedule workout 12 on 2026-12-01",
            "add_workout_to_calendar",
            {"workout_id": 12, "date": "2026-12-01"},
        ),
        (
            "schedule workout 12 on 2026-12-01 weekly 4",
            "add_workout_to_calendar",
            {"workout_id": 12, "date": "2026-12-01", "recurrence": "weekly", "count": 4},
        ),
        (
            "schedule workout w_12 on 2026-12-01 weekly for 4 weeks",
            "add_workout_to_calendar",
            {"workout_id": 12, "date": "2026-12-01", "recurrence": "weekly", "count": 4},
        ),
        (
            "schedule workout 12 on 2026-12-01 daily until 2026-12-05",
            "add_workout_to_calendar",
            {"workout_id": 12, "date": "2026-12-01", "recurrence": "daily", "until": "2026-12-05"},
        ),
        ("go to calendar", "navigate_to_page", {"page": "calendar"}),
        ("take me to the library", "navigate_to_page", {"page": "library"}),
        ("go to my settings page", "navigate_to_page", {"page": "settings"}),
        ("open workout 12", "navigate_to_page", {"page": "workout", "workout_id": 12}),
    ],
)
def test_a_library_command_becomes_its_tool_call(command, name, arguments):
    parsed = parse_command(command)
    assert (parsed.name, parsed.arguments) == (name, arguments)


def test_save_workout_reads_exercises_and_one_cardio_block():
    parsed = parse_command("save workout Easy Spin cycling 40 min easy: zone2 40 min Cycling")
    assert parsed.name == "save_workout_to_library"
    assert parsed.arguments == {
        "title": "Easy Spin",
        "sport": "cycling",
        "duration": 40,
        "intensity": "easy",
        "description": "Saved by the offline coach.",
        "exercises": [],
        "cardio": {"type": "zone2", "duration": 40, "modality": "Cycling"},
    }


@pytest.mark.parametrize(
    ("command", "hint"),
    [
        ("schedule workout twelve tomorrow", "schedule workout 12 on 2026-12-01"),
        ("schedule workout 12 on 2026-12-01 weekly", '"weekly 4" or "weekly until DATE"'),
        ("save workout Legs", "save workout Leg Burner strength 45 min hard"),
        ("save workout Legs strength 45 min hard: squats forever", '"squats forever" is not'),
        ("go to the moon", "I can open home, library, calendar, workout, fitness, settings"),
        ("go to workout", 'Say which workout, e.g. "open workout 12"'),
        ("go to calendar 3", "Only a workout takes a number"),
    ],
)
def test_a_library_command_it_cant_use_says_what_to_type(command, hint):
    with pytest.raises(CommandError) as raised:
        parse_command(command)
    assert hint in str(raised.value)


def test_open_with_an_unknown_word_is_not_a_library_command():
    assert parse_command("open the pod bay doors") is None


def test_help_lists_the_library_commands():
    text = ask("help").text
    for _, example in LIBRARY_HELP:
        assert example in text
        assert parse_command(example) is not None


def test_a_search_is_answered_with_the_tools_text_and_nothing_to_apply():
    provider = OfflineProvider()
    asked = provider.complete(turns=[Turn(role="user", content="find workouts legs")], tools=None)
    [call] = asked.tool_calls
    answer = provider.complete(
        turns=[
            Turn(role="user", content="find workouts legs"),
            Turn(role="assistant", tool_calls=[call]),
            Turn(
                role="tool",
                tool_call_id=call.id,
                content='Found these workouts:\n1. "Legs" (ID: 3)',
            ),
        ],
        tools=None,
    )
    assert answer.tool_calls == []
    assert answer.text == 'Found these workouts:\n1. "Legs" (ID: 3)\n---\nhelp'
