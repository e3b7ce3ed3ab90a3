"""Engine messages in the athlete's words (``coach.wording.athlete_words``)."""

import pytest

from coach.wording import athlete_words


@pytest.mark.parametrize(
    ("precise", "athlete"),
    [
        (
            "newPosition must be from 1 to 4: Week 1, session 1 has only 4 exercises.",
            "New position must be from 1 to 4: Week 1, session 1 has only 4 exercises.",
        ),
        (
            "Exercise 2 is already at position 2; choose a different newPosition.",
            "Exercise 2 is already at position 2; choose a different new position.",
        ),
        (
            'updates.scheduledDate must be an ISO date like 2026-11-02 (got "x").',
            'Date must be a date like 2026-11-02 (got "x").',
        ),
        (
            "Change 2 of 2 (remove_exercise) failed: Week 1 has 3 sessions.",
            "Change 2 of 2 (remove an exercise) failed: Week 1 has 3 sessions.",
        ),
        (
            "Something went wrong while running modify_session; nothing was changed.",
            "Something went wrong while making the change (change a session); nothing was changed.",
        ),
        (
            "weeks.0.endDate must not be before startDate.",
            "End date must not be before start date.",
        ),
        ("updates: at least one field is required.", "At least one field is required."),
        ('position must be from 1 to 4 or "end".', 'Position must be from 1 to 4 or "at the end".'),
    ],
)
def test_athlete_words_replace_argument_paths_and_tool_names(precise, athlete):
    assert athlete_words(precise) == athlete
    assert athlete_words(precise) == athlete_words(athlete_words(precise))  # idempotent


@pytest.mark.parametrize(
    "plain",
    [
        "Week 2, session 1 has only 4 exercises; exercise 5 doesn't exist.",
        "Numbers are week.session.exercise, e.g. 1.2.3 is week 1.",
        "Try 2026-12-01.",
    ],
)
def test_plain_messages_are_left_as_they_are(plain):
    assert athlete_words(plain) == plain
