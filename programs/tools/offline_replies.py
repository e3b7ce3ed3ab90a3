"""The suggested replies about the program that the offline coach understands (the program
family's ``Commands.answer``): "Show my program" and "Show me my workouts" read the week around
today, "Show me the session" the week of the change the coach last proposed (from the
conversation's tool calls, data), and "Try a different exercise" / "Try something different" say
how to name one by its position."""

from __future__ import annotations

import re
from collections.abc import Sequence

from coach.llm.base import Turn
from coach.llm.offline.grammar import Parsed, ReplyAnswer, with_replies

SHOW_PROGRAM = re.compile(
    r"(show|see|view)( me)? (my|the) (program|plan|workouts?|training|schedule)", re.I
)
SHOW_SESSION = re.compile(r"(show|see|view)( me)? (the|that|this) (session|workout|day)", re.I)
DIFFERENT = re.compile(r"try (a different|another) \w+|try something (different|else)", re.I)
_WEEK_KEYS = ("weekNumber", "targetWeekNumber", "sourceWeekNumber")


def last_week(turns: Sequence[Turn]) -> int | None:
    """The week of the change the coach last proposed (or tried to)."""
    for turn in reversed(turns):
        for call in reversed(turn.tool_calls or []):
            args = call.arguments if isinstance(call.arguments, dict) else {}
            for key in _WEEK_KEYS:
                if isinstance(args.get(key), int):
                    return args[key]
    return None


def _show_week(number: int | None) -> ReplyAnswer:
    if number is None:  # the week around today (get_week's default)
        return ReplyAnswer(reads=[Parsed("get_week", {}, "show this week")])
    return ReplyAnswer(reads=[Parsed("get_week", {"weekNumber": number}, f"show week {number}")])


def answer(text: str, turns: Sequence[Turn]) -> ReplyAnswer | None:
    """The answer to ``text`` (stripped of its final punctuation) when it is one of the program's
    suggested replies, else None."""
    if SHOW_PROGRAM.fullmatch(text):
        return _show_week(None)
    if SHOW_SESSION.fullmatch(text):
        return _show_week(last_week(turns) or 1)
    if DIFFERENT.fullmatch(text):
        week = last_week(turns) or 1
        return ReplyAnswer(
            text=with_replies(
                "Tell me which one by its number: week.session.exercise, e.g. 1.2.3 is week 1, "
                "session 2, exercise 3. To see the numbers, type "
                f'"show week {week}"; then, for example, "rename exercise {week}.1.1 to '
                'Goblet Squat" or "remove exercise '
                f'{week}.1.2".',
                [f"show week {week}", "help"],
            )
        )
    return None
