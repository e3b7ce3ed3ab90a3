"""The library in everyday words (``library.tools.language``): searches, scheduling a workout by
its title or as "that one" from the search just shown, a workout typed in a sentence or composed,
and pages; a workout another athlete owns is never named, and a missing date is asked."""

from __future__ import annotations

import datetime

import pytest

from coach.llm.base import Turn, World
from coach.llm.offline.understand import understand
from coach.toolcalls import ToolCall
from coach.tools.base import ToolContext
from tests.factories import CoachFactory, LibraryWorkoutFactory, ProgramFactory, UserFactory

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 11, 26)  # a Thursday


@pytest.fixture
def athlete():
    athlete, coach = UserFactory(), CoachFactory()
    ProgramFactory(athlete=athlete, coach=coach)
    LibraryWorkoutFactory(owner=coach, scope="shared", title="Leg Day Destroyer", tags=["legs"])
    LibraryWorkoutFactory(owner=athlete, title="Hill Sprints", sport="running", tags=["hills"])
    LibraryWorkoutFactory(owner=UserFactory(), title="Someone Else's Secret")
    LibraryWorkoutFactory(owner=coach, scope="shared", title="Track 400s", sport="running")
    return athlete


def read(athlete, text: str, turns=()):
    ctx = ToolContext(athlete=athlete, program=None)
    world = World(ctx=ctx, today=TODAY, turns=[*turns, Turn(role="user", content=text)])
    return understand(text, world)


def calls(athlete, text: str, turns=()) -> list[tuple[str, dict]]:
    found = read(athlete, text, turns)
    assert found is not None and found.ask is None and not found.problem, (text, found)
    return [(c.name, c.arguments) for c in found.calls]


def pk(title: str) -> int:
    return LibraryWorkoutFactory._meta.model.objects.get(title=title).pk


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("Find me a leg workout", "leg"),
        ("got any good leg workouts?", "leg"),
        ("show me something quick for cardio", "quick for cardio"),
        ("look for upper body workouts in the library", "upper body"),
        ("find a core workuot", "core"),  # a typo
        ("I'm looking for a swim workout", "swim"),
        ("search the library for a mobility routine", "mobility routine"),
    ],
)
def test_a_search_in_words(athlete, text, query):
    assert calls(athlete, text) == [("search_workout_library", {"query": query})]


@pytest.mark.parametrize(
    ("text", "extra"),
    [
        ("put Leg Day Destroyer on my calendar for tomorrow", {"date": "2026-11-27"}),
        ("schedule leg day destroyer on saturday", {"date": "2026-11-28"}),
        ("schedule Leg Day Destroyer for thursday", {"date": "2026-12-03"}),  # the next one
        (
            "add Leg Day Destroyer every week for three weeks starting tomorrow",
            {"date": "2026-11-27", "recurrence": "weekly", "count": 3},
        ),
        (
            "Schedule Leg Day Destroyer every day for the next 60 days, starting tomorrow",
            {"date": "2026-11-27", "recurrence": "daily", "count": 60},  # the tool says 52
        ),
    ],
)
def test_a_workout_by_its_title_goes_on_the_day_said(athlete, text, extra):
    arguments = {"workout_id": pk("Leg Day Destroyer"), **extra}
    assert calls(athlete, text) == [("add_workout_to_calendar", arguments)]


def test_that_one_is_the_first_result_of_the_search_just_shown(athlete):
    searched = Turn(
        role="assistant",
        tool_calls=[ToolCall(id="c1", name="search_workout_library", arguments={"query": "legs"})],
    )
    assert calls(athlete, "schedule that one for saturday", [searched]) == [
        ("add_workout_to_calendar", {"workout_id": pk("Leg Day Destroyer"), "date": "2026-11-28"})
    ]


def test_that_one_without_a_search_says_how_to_name_it(athlete):
    found = read(athlete, "schedule that one for saturday")
    assert found.calls == [] and "Search first" in found.problem


def test_a_schedule_without_a_day_is_asked_with_chips(athlete):
    found = read(athlete, "put Leg Day Destroyer on my calendar")
    assert found.calls == []
    assert found.ask.question == "Which day should I put Leg Day Destroyer on?"
    assert found.ask.options == (
        "schedule Leg Day Destroyer for tomorrow",
        "schedule Leg Day Destroyer for saturday",
    )


def test_another_athletes_workout_is_never_named(athlete):
    found = read(athlete, "schedule Someone Else's Secret for tomorrow")
    assert found is None or not found.calls


def test_a_workout_typed_in_a_sentence_is_saved():
    text = (
        "save a workout called Quick Legs: 3 sets of 15 goblet squats and 3 sets of 12 lunges, "
        "20 minutes, moderate"
    )
    [(name, arguments)] = calls(UserFactory(), text)
    assert name == "save_workout_to_library"
    assert {k: arguments[k] for k in ("title", "sport", "duration", "intensity")} == {
        "title": "Quick Legs",
        "sport": "strength",
        "duration": 20,
        "intensity": "moderate",
    }
    assert [(e["name"], e["sets"], e["reps"]) for e in arguments["exercises"]] == [
        ("Goblet squats", 3, "15"),
        ("Lunges", 3, "12"),
    ]


def test_a_workout_asked_for_is_composed_from_the_equipment_said():
    text = "Create a 30 minute HIIT workout I can do at home with just dumbbells and save it"
    [(name, arguments)] = calls(UserFactory(), text)
    assert name == "save_workout_to_library"
    assert (arguments["duration"], arguments["sport"], arguments["intensity"]) == (
        30,
        "conditioning",
        "hard",
    )
    assert [e["name"] for e in arguments["exercises"]][:2] == ["Dumbbell Thruster", "Renegade Row"]


def test_a_workout_without_its_minutes_is_asked():
    found = read(UserFactory(), "save a workout called Arms: 3 sets of 10 curls, hard")
    assert found.calls == [] and "how many minutes" in found.ask.question


@pytest.mark.parametrize(
    ("text", "page"),
    [
        ("Take me to my calendar", "calendar"),
        ("open my calendar", "calendar"),
        ("where are my settings?", "settings"),
        ("take me to the workout library", "library"),
        ("show me the fitness chart page", "fitness"),
        ("bring me to the library", "library"),
    ],
)
def test_a_page_in_words(athlete, text, page):
    assert calls(athlete, text) == [("navigate_to_page", {"page": page})]


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("something for legs under 30 min", "quick legs"),  # short: the search's own hint
        ("any hiit workouts for 20 minutes?", "quick hiit"),
        ("do you have any 45 minute leg workouts", "leg"),  # long: no hint, no minutes
        ("show me some mobility stuff", "mobility"),
        ("got anything for core", "core"),
    ],
)
def test_a_length_is_read_out_of_the_words_searched(athlete, text, query):
    assert calls(athlete, text) == [("search_workout_library", {"query": query})]


def test_that_one_on_a_day_is_the_search_result_not_an_exercise_called_that_one(athlete):
    searched = Turn(
        role="assistant",
        tool_calls=[ToolCall(id="c1", name="search_workout_library", arguments={"query": "legs"})],
    )
    assert calls(athlete, "add that one for sunday", [searched]) == [
        ("add_workout_to_calendar", {"workout_id": pk("Leg Day Destroyer"), "date": "2026-11-29"})
    ]


def test_a_trailing_please_is_no_part_of_the_page(athlete):
    assert calls(athlete, "take me to the calendar pls") == [
        ("navigate_to_page", {"page": "calendar"})
    ]


def test_a_title_with_a_number_glued_to_letters_is_still_the_workout(athlete):
    assert calls(athlete, "add Track 400s to friday") == [
        ("add_workout_to_calendar", {"workout_id": pk("Track 400s"), "date": "2026-11-27"})
    ]


def test_could_you_schedule_is_a_schedule(athlete):
    assert calls(athlete, "could you put Leg Day Destroyer on my calendar for tomorrow") == [
        ("add_workout_to_calendar", {"workout_id": pk("Leg Day Destroyer"), "date": "2026-11-27"})
    ]


def test_next_friday_said_on_a_thursday_is_asked(athlete):
    found = read(athlete, "schedule Leg Day Destroyer next friday")
    assert found.calls == [] and "27 November or 4 December" in found.ask.question
    assert found.ask.options == (
        "schedule Leg Day Destroyer on 2026-11-27",
        "schedule Leg Day Destroyer on 2026-12-04",
    )


def test_next_monday_is_not_asked(athlete):
    assert calls(athlete, "schedule Leg Day Destroyer next monday") == [
        ("add_workout_to_calendar", {"workout_id": pk("Leg Day Destroyer"), "date": "2026-11-30"})
    ]


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("something easy for a recovery day", "easy for a recovery day"),
        ("any short cardio i can do in a hotel room", "short cardio hotel room"),
    ],
)
def test_something_and_what_i_can_do_where_are_searches(athlete, text, query):
    assert calls(athlete, text) == [("search_workout_library", {"query": query})]


def test_something_wrong_with_my_knee_is_no_search(athlete):
    found = read(athlete, "something is wrong with my knee")
    assert found is None or not any(c.name == "search_workout_library" for c in found.calls)


def test_anything_i_can_do_for_my_back_searches_the_back(athlete):
    assert calls(athlete, "anything i can do for my back") == [
        ("search_workout_library", {"query": "back"})
    ]


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("what's in the library for upper body", "upper body"),
        ("anything in the library with kettlebells", "kettlebells"),
        ("what do you have for legs in the library", "legs"),
        ("any workouts for my back", "back"),
        ("got any routines that target glutes", "glutes"),
    ],
)
def test_the_library_asked_what_it_has_for_a_body_part_or_equipment(athlete, text, query):
    assert calls(athlete, text) == [("search_workout_library", {"query": query})]


@pytest.mark.parametrize(
    "text",
    ["any workouts for tomorrow", "got any sessions for this weekend", "workouts for next week"],
)
def test_workouts_for_a_day_are_no_search_for_the_day(athlete, text):
    found = read(athlete, text)
    assert found is None or not any(c.name == "search_workout_library" for c in found.calls)
