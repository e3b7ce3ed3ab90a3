"""navigate_to_page (seed 003): the page's URL in the result, the valid pages named on a bad one,
and the links the chat shows, built only from successful stored calls."""

from __future__ import annotations

import pytest

from coach.engine import ToolContext, execute_read
from coach.links import page_links
from tests.coach.tool_helpers import call
from tests.factories import LibraryWorkoutFactory, UserFactory, build_program

pytestmark = pytest.mark.django_db


@pytest.fixture
def program():
    return build_program(weeks=1, sessions=1, exercises=1)


@pytest.fixture
def legs(program):
    return LibraryWorkoutFactory(owner=program.athlete, title="Leg Day Destroyer")


def read(program, name, **arguments):
    return execute_read(ctx=ToolContext.for_program(program), call=call(name, **arguments))


# --- navigate_to_page ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("page", "url"),
    [
        ("home", "/"),
        ("library", "/library/"),
        ("calendar", "/training/calendar/"),
        ("fitness", "/training/fitness/"),
        ("settings", "/training/settings/"),
    ],
)
def test_navigation_answers_with_the_pages_url(program, page, url):
    result = read(program, "navigate_to_page", page=page)
    assert result.success
    assert result.summary == f"The {page} page: {url} (a link to it is shown under the reply)."


def test_an_unknown_page_lists_the_valid_ones(program):
    result = read(program, "navigate_to_page", page="xyz")
    assert result.errors[0].code == "VALIDATION_ERROR"
    assert result.errors[0].message == (
        "page must be one of 'home', 'library', 'calendar', 'workout', 'fitness' or 'settings' "
        "(got 'xyz')."
    )


def test_the_workout_page_needs_a_visible_workout(program, legs):
    own = read(program, "navigate_to_page", page="workout", workout_id=legs.pk)
    assert own.success
    assert own.summary == (
        f'The workout "Leg Day Destroyer": /library/{legs.pk}/ (a link to it is shown under the '
        "reply)."
    )
    missing = read(program, "navigate_to_page", page="workout")
    assert missing.errors[0].code == "VALIDATION_ERROR"
    assert missing.errors[0].field == "workout_id"
    stranger = LibraryWorkoutFactory(owner=UserFactory())
    hidden = read(program, "navigate_to_page", page="workout", workout_id=stranger.pk)
    assert hidden.errors[0].code == "NOT_FOUND"


def test_page_links_come_only_from_successful_navigation_calls():
    steps = [
        {
            "tool_calls": [
                {"id": "a", "name": "navigate_to_page", "arguments": {"page": "calendar"}},
                {"id": "b", "name": "navigate_to_page", "arguments": {"page": "xyz"}},
                {"id": "c", "name": "navigate_to_page", "arguments": {"page": "fitness"}},
                {"id": "d", "name": "get_week", "arguments": {"weekNumber": 1}},
                {"id": "e", "name": "navigate_to_page", "arguments": {"page": "workout"}},
                {
                    "id": "f",
                    "name": "navigate_to_page",
                    "arguments": {"page": "workout", "workout_id": 7},
                },
            ],
            "results": [
                {"tool_call_id": "a", "is_error": False},
                {"tool_call_id": "b", "is_error": True},
                {"tool_call_id": "c", "is_error": True},
                {"tool_call_id": "f", "is_error": False},
            ],
        },
        "junk",
    ]
    assert page_links(steps) == [
        {"label": "Open the calendar", "url": "/training/calendar/"},
        {"label": "Open the workout", "url": "/library/7/"},
    ]
    assert page_links(None) == [] and page_links([{"tool_calls": "nope"}]) == []
