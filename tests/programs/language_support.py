"""The program the language tests read: seed 000's week (Monday lower body, Wednesday upper body,
Friday full body, four exercises each, 3 × 8-10 @ 135 lbs, 120 s rest) for four weeks from this
Monday, so week 1 holds today; and ``say``, which understands a sentence with a fresh ``World``
over it, as the chat does per message."""

from __future__ import annotations

from typing import Any

from chat.evals import fixtures
from coach.llm.base import Turn, World
from coach.llm.offline.understand import Understood, understand
from coach.toolcalls import ToolCall
from coach.tools.base import ToolContext

DAYS = [
    {
        "name": "Lower Body",
        "day": "Monday",
        "exercises": ["Back Squat", "Romanian Deadlift", "Leg Press", "Plank"],
    },
    {
        "name": "Upper Body",
        "day": "Wednesday",
        "exercises": ["Bench Press", "Barbell Row", "Overhead Press", "Face Pull"],
    },
    {
        "name": "Full Body",
        "day": "Friday",
        "exercises": ["Deadlift", "Push-up", "Dumbbell Row", "Farmer Carry"],
    },
]


def build_world() -> fixtures.World:
    return fixtures.build({"program": "grid", "weeks": 4, "days": DAYS})


def say(built: fixtures.World, sentence: str, *, before: list[Any] = ()) -> Understood | None:
    """``sentence`` understood; ``before`` are earlier calls of the conversation, as
    ``(name, arguments)``, newest last."""
    turns = [
        Turn(
            role="assistant",
            content="",
            tool_calls=[ToolCall(id=f"c{n}", name=name, arguments=args)],
        )
        for n, (name, args) in enumerate(before)
    ]
    world = World(
        ctx=ToolContext(athlete=built.athlete, program=built.program, user=built.athlete),
        today=built.today,
        turns=turns,
    )
    return understand(sentence, world)


def calls(result: Understood | None) -> list[tuple[str, dict[str, Any]]]:
    assert result is not None, "not understood"
    assert result.ask is None, result.ask
    assert not result.problem, result.problem
    return [(c.name, c.arguments) for c in result.calls]


def ex(week: int, session: int, number: int, **updates: Any) -> tuple[str, dict[str, Any]]:
    """A ``modify_exercise`` call as ``calls`` lists it."""
    return (
        "modify_exercise",
        {
            "weekNumber": week,
            "sessionNumber": session,
            "exerciseNumber": number,
            "updates": updates,
        },
    )
