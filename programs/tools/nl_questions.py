"""Questions about one exercise of the athlete's own plan (``language``): how many sets or reps,
how heavy, how long the rest, which day. Each is answered by the ``get_week`` read of that
exercise (where and how it is planned, in words), never by a change; the week is the one named,
else the first one from the current week on that holds the exercise. A name that fits several exercises
("rows") is asked back, as everywhere."""

from __future__ import annotations

from coach.llm.offline.grammar import Parsed
from coach.llm.offline.language import Ask, Intent, Slots

from .nl_refs import exercises_meant, named_week, said_day
from .nl_rules import SS

# How people ask about an exercise they do, in the words of the question.
_DOING = (
    "(am i|do i|will i|should i|are we|do we|have i|i am|i do|i'm) [got|going to|gonna]"
    " [be] (doing|do|have|get|got|planned|lifting|lift|using|use|going|go)"
)
_COUNT = "(sets|reps|sets and reps|reps and sets|working sets|sets of reps)"


def answer(slots: Slots) -> list[Parsed] | Ask:
    """The ``get_week`` read of the exercise asked about (see the module docstring)."""
    found = exercises_meant(slots, every_week=named_week(slots) is None)
    if isinstance(found, Ask):
        return found
    first = min(found, key=lambda e: e.week)
    args = {"weekNumber": first.week, "exercise": first.name}
    if "day" in slots:  # "how heavy are squats on monday": that day's only
        args["dayOfWeek"] = said_day(slots)
    return [Parsed("get_week", args, f"show {first.name} in week {first.week}")]


QUESTION = Intent(
    "exercise_question",
    (
        f"how many {_COUNT} [of|on|for|in|with] <ex> {SS} [{_DOING}] {SS}",
        f"how many {_COUNT} {_DOING} (of|on|for|in|with) <ex> {SS}",
        f"how many <ex> {_COUNT} {_DOING} {SS}",
        f"how (heavy|much weight|much) (is|are|{_DOING} [on|for|with]) <ex> {SS} [going to be]",
        f"(what|which|how much) (weight|load) (is|are|{_DOING}) (on|for|with|at|in) <ex> {SS}",
        "(what's|what is|whats|what are) <the> (weight|load|target|target load|rest|rest time"
        f"|sets|reps|sets and reps|plan|scheme) (on|for|of|with|in) <ex> {SS}",
        f"when {_DOING} <ex> {SS}",
        f"when (is|are) <ex> {SS}",
        f"(what|which) (day|days|session|workout|workouts) (is|are|{_DOING}|has|have) <ex> [on|in] {SS}",
        "how (long|much rest|much rest time) (do i|am i|should i|will i|are we|do we|do you)"
        f" [get to] [be] (rest|resting|get) (on|for|between|with|in) [sets of] <ex> [sets] {SS}",
        f"how (long|much) (is|are) <the> rest (on|for|between|with|in) [sets of] <ex> [sets] {SS}",
    ),
    build=answer,
    examples=("how many sets of deadlifts am I doing", "when do I do overhead press"),
)
