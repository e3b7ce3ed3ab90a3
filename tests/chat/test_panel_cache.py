"""The program panel is rendered once per program version, week and day (``chat.panel``), and the
Undo buttons are read from the messages the page loaded: a change always shows up (a stale cache
is a bug), whichever way the program changed."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from chat import services
from chat.models import Message
from chat.panel import week_panel
from chat.views.common import undoable_events
from programs.models import Exercise, Program, Session
from programs.services import object_update, program_bump_version
from programs.workout_log import session_complete, session_skip
from tests.chat.test_views_work import HX, open_batch, version
from tests.factories import build_program


@pytest.fixture
def conversation(db):
    program = build_program(weeks=3, sessions=2, exercises=2, start_date=timezone.localdate())
    return services.conversation_for_athlete(athlete=program.athlete)


@pytest.fixture
def athlete_client(client, conversation):
    client.force_login(conversation.athlete)
    return client


def first_exercise(conversation) -> Exercise:
    return Exercise.objects.get(
        session__week__program=conversation.program,
        session__week__position=1,
        session__position=1,
        position=1,
    )


def page(client) -> str:
    return client.get("/").content.decode()


def test_the_second_rendering_of_a_version_reads_nothing(conversation, django_assert_num_queries):
    program = conversation.program
    with django_assert_num_queries(3):  # weeks, sessions, exercises
        first = week_panel(program)
    with django_assert_num_queries(0):
        again = week_panel(program)
    assert again == first and again.version == program.version


def test_an_exercise_renamed_by_a_service_shows_on_the_next_page(athlete_client, conversation):
    exercise = first_exercise(conversation)
    assert exercise.name in page(athlete_client)  # cached now
    object_update(obj=exercise, fields={"name": "Zercher Squat"})
    assert "Zercher Squat" in page(athlete_client)


def test_an_applied_batch_shows_in_the_panel_it_sends_and_on_the_next_page(
    athlete_client, conversation
):
    page(athlete_client)
    shown = version(conversation)
    batch = open_batch(conversation)  # renames 1.1.1 to "X"
    html = athlete_client.post(
        reverse("chat:batch_apply", args=[batch.pk]),
        {"revision": batch.revision, "program_version": shown},
        headers=HX,
    ).content.decode()
    assert '<span class="ex-name">X</span>' in html
    assert '<span class="ex-name">X</span>' in page(athlete_client)


def test_undo_brings_the_old_name_back_and_removes_its_undo_button(athlete_client, conversation):
    original = first_exercise(conversation).name
    batch = open_batch(conversation)
    athlete_client.post(
        reverse("chat:batch_apply", args=[batch.pk]), {"revision": batch.revision}, headers=HX
    )
    html = page(athlete_client)
    undo_url = reverse("chat:batch_undo", args=[batch.pk])
    assert '<span class="ex-name">X</span>' in html and undo_url in html
    athlete_client.post(undo_url, headers=HX)
    html = page(athlete_client)
    assert f'<span class="ex-name">{original}</span>' in html
    assert '<span class="ex-name">X</span>' not in html
    assert undo_url not in html  # the batch is undone: no Undo button on its event line


def test_a_completed_or_skipped_session_shows_at_once(athlete_client, conversation):
    first, second = Session.objects.filter(
        week__program=conversation.program, week__position=1
    ).order_by("position")
    assert '<span class="tag">done</span>' not in page(athlete_client)
    session_complete(session=first, on=timezone.localdate())
    assert '<span class="tag">done</span>' in page(athlete_client)
    session_skip(session=second, reason="Knee")
    assert 'title="Knee">skipped</span>' in page(athlete_client)


def test_a_program_saved_without_a_version_bump_still_shows_the_change(
    athlete_client, conversation
):
    # Not how Spotter changes a program, but the key has the row's updated_at too.
    assert conversation.program.name in page(athlete_client)
    program = Program.objects.get(pk=conversation.program.pk)
    program.name = "Renamed Block"
    program.save()
    assert "Renamed Block" in page(athlete_client)


def test_a_version_bump_alone_renders_again(conversation, django_assert_num_queries):
    program = conversation.program
    week_panel(program)
    Exercise.objects.filter(pk=first_exercise(conversation).pk).update(name="Quietly Changed")
    program_bump_version(program=program)
    program.refresh_from_db()
    assert "Quietly Changed" in week_panel(program).html


def test_the_current_week_follows_the_day(conversation):
    program = conversation.program
    today = timezone.localdate()
    this_week = week_panel(program, today=today).html
    next_week = week_panel(program, today=today + datetime.timedelta(days=7)).html
    assert "<h2>Week 1" in this_week and "<h2>Week 2" in next_week


def test_each_week_asked_for_is_its_own_rendering(athlete_client, conversation):
    assert "<h2>Week 1" in page(athlete_client)
    html = athlete_client.get(reverse("chat:program") + "?week=3", headers=HX).content.decode()
    assert "<h2>Week 3" in html
    assert "<h2>Week 1" in page(athlete_client)


def test_the_undo_buttons_read_from_the_loaded_messages_match_the_rule(
    athlete_client, conversation
):
    def buttons_match(expected_count: int) -> None:
        html = page(athlete_client)
        expected = undoable_events(conversation)
        assert len(expected) == expected_count
        for event in Message.objects.filter(conversation=conversation, role="event"):
            button = f'action="{reverse("chat:batch_undo", args=[event.batch_id])}"'
            assert (button in html) == (event.pk in expected), event.content

    batch = open_batch(conversation)
    athlete_client.post(
        reverse("chat:batch_apply", args=[batch.pk]), {"revision": batch.revision}, headers=HX
    )
    buttons_match(1)
    athlete_client.post(reverse("chat:batch_undo", args=[batch.pk]), headers=HX)
    buttons_match(0)
