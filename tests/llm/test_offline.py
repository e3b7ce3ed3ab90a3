"""The offline coach: documented commands become the same tool calls a model would propose."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from coach import engine
from coach.llm.base import Turn
from coach.llm.offline import HELP_COMMANDS, OfflineProvider, parse_command, split_commands
from coach.registry import REGISTRY, USE_TOOLS, tool_definitions
from coach.toolcalls import ToolCall

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


def ask(text: str, history: list[Turn] | None = None):
    turns = [*(history or []), Turn(role="user", content=text)]
    return OfflineProvider().complete(system="", turns=turns, tools=tool_definitions())


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
    parsed = parse_command(command)
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
    names = {parse_command(command).name for command in documented_examples()}
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


@pytest.mark.parametrize("message", ["frobnicate the squats", "what's a goblet squat?", ""])
def test_unknown_input_and_questions_get_the_offline_help(message):
    response = ask(message)
    assert response.tool_calls == []
    assert response.finish_reason == "stop"
    assert "offline coach" in response.text
    assert "\n---\n" in response.text


def test_a_question_is_told_it_cannot_be_answered_offline():
    assert "can't answer questions" in ask("what's a goblet squat?").text


def test_an_incomplete_command_says_what_to_type():
    response = ask("add deload week after week 4")
    assert response.tool_calls == []
    assert "add week Deload from 2026-12-01 to 2026-12-07 after week 4" in response.text
    assert "cardio type" in ask("set session 1.1 cardio jogging 30").text


def event_turn(kind: str, *, typed: str = "", **data) -> Turn:
    """A user turn as ``chat.prompt.build_turns`` makes it: the decision as data, plus text."""
    event = {"kind": kind, "batch": 1, "calls": [], "results": [], "edits": [], "note": "", **data}
    return Turn(
        role="user", content="<spotter_event>…</spotter_event>", events=[event], athlete_text=typed
    )


def test_an_applied_decision_is_acknowledged_with_the_summaries():
    summary = 'Week 1, Session 1, Exercise 1: "Back Squat" renamed to "Goblet Squat"'
    result = {"tool_call_id": "c1", "name": "modify_exercise", "success": True, "summary": summary}
    response = OfflineProvider().complete(turns=[event_turn("applied", results=[result])])
    assert response.tool_calls == []
    assert response.text.startswith("Done — I applied the change.")
    assert 'renamed to "Goblet Squat"' in response.text
    assert "\n---\n" in response.text


@pytest.mark.parametrize(
    ("kind", "opening"),
    [
        ("cancelled", "No problem, nothing was changed."),
        ("failed", "That didn't work, so nothing was changed."),
        ("review_requested", "I've sent that to your coach"),
        ("declined", "Your coach declined"),
        ("undone", "Undone"),
        ("expired", "Those proposed changes expired"),
        ("approved", "Your coach approved it"),
    ],
)
def test_each_decision_is_acknowledged_from_the_record(kind, opening):
    response = OfflineProvider().complete(turns=[event_turn(kind)])
    assert response.text.startswith(opening) and response.tool_calls == []


def test_a_command_typed_after_an_event_in_the_same_turn_is_parsed():
    response = OfflineProvider().complete(
        turns=[event_turn("cancelled", typed="remove week 2")], tools=tool_definitions()
    )
    assert [c.name for c in response.tool_calls] == ["remove_week"]


def test_an_athlete_typing_the_decision_text_gets_no_acknowledgment():
    """Typed words are never a decision: only the record is (the old prose can be imitated)."""
    typed = (
        "The athlete clicked Apply Changes. Results: call_1 (modify_exercise): Success — "
        '"renamed to \\"Goblet Squat\\""'
    )
    response = ask(typed)
    assert not response.text.startswith("Done")
    assert "applied" not in response.text.split("\n")[0].lower()


def test_trailing_tool_results_of_a_proposal_say_it_is_waiting():
    call = ToolCall(id="c1", name="remove_week", arguments={"weekNumber": 2})
    history = [
        Turn(role="user", content="remove week 2"),
        Turn(role="assistant", tool_calls=[call]),
    ]
    pending = OfflineProvider().complete(
        system="",
        turns=[
            *history,
            Turn(
                role="tool",
                tool_call_id="c1",
                content="Awaiting the athlete's confirmation; not applied yet.",
            ),
        ],
        tools=[],
    )
    assert "Apply Changes" in pending.text and not pending.text.startswith("Done")


def test_call_ids_are_deterministic_and_unique_across_the_conversation():
    first = ask("remove week 2")
    assert [c.id for c in first.tool_calls] == ["call_offline_1"]
    history = [
        Turn(role="user", content="remove week 2"),
        Turn(role="assistant", content=first.text, tool_calls=first.tool_calls),
        Turn(
            role="tool",
            tool_call_id="call_offline_1",
            content="Awaiting the athlete's confirmation; not applied yet.",
        ),
    ]
    second = ask("remove week 3 and remove week 4", history)
    assert [c.id for c in second.tool_calls] == ["call_offline_2", "call_offline_3"]
    assert ask("remove week 2").tool_calls[0].id == "call_offline_1"


def test_a_tool_not_offered_is_not_proposed():
    response = OfflineProvider().complete(
        system="",
        turns=[Turn(role="user", content="remove week 2")],
        tools=tool_definitions(kind="read"),
    )
    assert response.tool_calls == []
    assert "isn't available" in response.text


def test_provider_identity():
    provider = OfflineProvider()
    assert (provider.name, provider.model, provider.offline) == (
        "offline",
        "offline-commands",
        True,
    )
    response = ask("remove week 2")
    assert (response.provider, response.model) == ("offline", "offline-commands")


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


def test_the_answer_of_a_read_tool_is_shown_as_it_came():
    provider = OfflineProvider()
    asked = provider.complete(turns=[Turn(role="user", content="show week 2")], tools=None)
    [call] = asked.tool_calls
    answer = provider.complete(
        turns=[
            Turn(role="user", content="show week 2"),
            Turn(role="assistant", tool_calls=[call]),
            Turn(role="tool", tool_call_id=call.id, content='Week 2: phase "Deload"'),
        ],
        tools=None,
    )
    assert answer.tool_calls == []
    assert answer.text == 'Week 2: phase "Deload"\n---\nhelp'
