"""The days an athlete can't train (issue 22, part 4): the athlete marks and clears only their own
(crafted ids and fields change nobody else's), the coach sees them on the coach's calendar, and
the dry run warns, in words and without refusing, when a change puts a session on one: on the
coach's calendar, in the program editor and on the chat's card."""

from __future__ import annotations

import datetime

import pytest
from django.db import transaction
from django.urls import reverse

from chat import services as chat_services
from chat.agent import run_turn
from chat.models import PendingToolBatch
from coach.engine import preview_calls
from coach.llm.offline import OfflineProvider
from coach.plan import DemoSeed
from coach.toolcalls import ToolCall
from coach.tools.base import ToolContext
from programs.models import Session
from tests.factories import ConversationFactory, UserFactory
from tests.programs.editor_support import page_tree, send
from tests.training.calendar_support import coached_program, move, post, session, url
from training import availability
from training import demo as training_demo
from training.models import UnavailableDay

pytestmark = pytest.mark.django_db

FRIDAY = datetime.date(2026, 11, 6)  # week 1 of the programs below: no session that day
WARNING = "a day the athlete marked as one they can't train on"


def marked(athlete) -> list[datetime.date]:
    return list(UnavailableDay.objects.filter(athlete=athlete).values_list("date", flat=True))


def mark_url() -> str:
    return reverse("training:unavailable_mark")


# --- marking and clearing ----------------------------------------------------------------------


def test_an_athlete_marks_a_day_with_a_note_and_sees_it_on_their_calendar(client):
    athlete = UserFactory()
    client.force_login(athlete)
    response = client.post(mark_url(), {"date": "2026-11-06", "note": "Work trip"})
    assert response.status_code == 302 and "date=2026-11-06" in response["Location"]
    assert marked(athlete) == [FRIDAY]
    page = client.get(reverse("training:calendar"), {"date": "2026-11-06"}).content.decode()
    assert "Can't train: Work trip" in page
    client.post(mark_url(), {"date": "2026-11-06", "note": "Wedding"})  # again: the note changes
    assert list(UnavailableDay.objects.values_list("note", flat=True)) == ["Wedding"]


def test_a_crafted_athlete_field_marks_only_the_signed_in_athletes_day(client):
    athlete, other = UserFactory(), UserFactory()
    client.force_login(athlete)
    client.post(mark_url(), {"date": "2026-11-06", "athlete": other.pk, "athlete_id": other.pk})
    assert marked(athlete) == [FRIDAY] and marked(other) == []


def test_an_athlete_clears_their_own_day_and_another_athletes_id_is_not_found(client):
    athlete, other = UserFactory(), UserFactory()
    own = UnavailableDay.objects.create(athlete=athlete, date=FRIDAY)
    theirs = UnavailableDay.objects.create(athlete=other, date=FRIDAY)
    client.force_login(athlete)
    crafted = client.post(reverse("training:unavailable_clear", args=[theirs.pk]))
    assert crafted.status_code == 404 and marked(other) == [FRIDAY]
    client.post(reverse("training:unavailable_clear", args=[own.pk]))
    assert marked(athlete) == []


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"date": "friday"}, "YYYY-MM-DD"),
        ({"date": "2026-02-30"}, "YYYY-MM-DD"),
        ({"date": "0001-01-01"}, "must be between"),
        ({"date": "2026-11-06", "note": "x" * 121}, "keep it to 120"),
    ],
)
def test_bad_input_gets_words_and_marks_nothing(client, fields, words):
    athlete = UserFactory()
    client.force_login(athlete)
    page = client.post(mark_url(), fields, follow=True).content.decode()
    assert words in page and "Nothing was marked" in page
    assert marked(athlete) == []


def test_an_athlete_keeps_a_bounded_number_of_marked_days(client, monkeypatch):
    monkeypatch.setattr(availability, "MAX_MARKED", 2)
    athlete = UserFactory()
    client.force_login(athlete)
    for day in ("2099-01-01", "2099-01-02", "2099-01-03"):
        client.post(mark_url(), {"date": day})
    assert len(marked(athlete)) == 2


@pytest.mark.parametrize("method", ("get", "post"))
def test_nobody_signed_in_marks_nothing(client, method):
    athlete = UserFactory()
    mark = UnavailableDay.objects.create(athlete=athlete, date=FRIDAY)
    for target in (mark_url(), reverse("training:unavailable_clear", args=[mark.pk])):
        response = getattr(client, method)(target, {"date": "2026-11-07"})
        assert response.status_code in (302, 405)
    assert marked(athlete) == [FRIDAY]


# --- the coach sees them; the dry run warns ---------------------------------------------------


def test_the_coach_sees_the_athletes_days_on_the_coach_calendar(client):
    program = coached_program("coach-ann")
    UnavailableDay.objects.create(athlete=program.athlete, date=FRIDAY, note="Exams")
    client.force_login(program.coach)
    page = client.get(url(program.athlete), {"date": "2026-11-02"}).content.decode()
    assert "Can't train: Exams" in page


def test_a_drag_onto_a_marked_day_warns_and_still_applies(client):
    program = coached_program("coach-ann")
    UnavailableDay.objects.create(athlete=program.athlete, date=FRIDAY)
    client.force_login(program.coach)
    first = session(program, 1, 1)
    answer = move(client, program, first, FRIDAY.isoformat()).json()
    assert answer["ok"]
    assert f"Week 1, Session 1: {first.name} falls on 2026-11-06 (Friday), {WARNING}." in answer[
        "html"
    ].replace("&#x27;", "'")
    applied = post(client, program, "apply", kind="move", session=first.pk, date="2026-11-06")
    assert applied.json()["applied"]  # a warning, never a refusal
    assert session(program, 1, 1).scheduled_date == FRIDAY


def test_only_a_session_the_change_puts_on_a_marked_day_is_warned_about():
    program = coached_program("coach-ann")
    monday = session(program, 1, 1).scheduled_date
    UnavailableDay.objects.create(athlete=program.athlete, date=monday)  # already on it
    ctx = ToolContext(athlete=program.athlete, program=program, user=program.coach)
    unrelated = ToolCall(
        id="c1",
        name="reschedule_workout",
        arguments={"workout_id": "week-2-session-1", "new_date": "2026-11-13", "strategy": "swap"},
    )
    assert not any(
        WARNING in w for w in preview_calls(ctx=ctx, calls=[unrelated]).preview["warnings"]
    )
    onto = ToolCall(
        id="c2",
        name="reschedule_workout",
        arguments={"workout_id": "week-1-session-2", "new_date": "2026-11-02", "strategy": "swap"},
    )
    warnings = preview_calls(ctx=ctx, calls=[onto]).preview["warnings"]
    assert [w for w in warnings if WARNING in w] == [
        f"Week 1, Session 2: {session(program, 1, 2).name} falls on 2026-11-02 (Monday), {WARNING}."
    ]


def test_the_program_editor_preview_warns_when_a_date_lands_on_a_marked_day(client):
    program = coached_program("coach-ann")
    UnavailableDay.objects.create(athlete=program.athlete, date=FRIDAY)
    client.force_login(program.coach)
    tree = page_tree(program)
    tree["weeks"][0]["sessions"][0]["fields"]["scheduled_date"] = FRIDAY.isoformat()
    answer = send(client, program, "preview", tree).json()
    assert WARNING in answer["html"].replace("&#x27;", "'")
    assert session(program, 1, 1).scheduled_date != FRIDAY


def test_the_chats_card_says_the_warning_in_words(client):
    conversation = ConversationFactory()
    program = conversation.program
    target = session(program, 1, 1)
    UnavailableDay.objects.create(athlete=conversation.athlete, date=FRIDAY)
    client.force_login(conversation.athlete)
    client.post(
        reverse("chat:session_move", args=[target.pk]),
        {"new_date": FRIDAY.isoformat(), "strategy": "swap"},
    )
    batch = PendingToolBatch.objects.get(conversation=conversation)
    assert any(WARNING in w for w in batch.preview["warnings"])
    page = client.get(reverse("chat:home")).content.decode().replace("&#x27;", "'")
    assert f"⚠ Week 1, Session 1: {target.name} falls on 2026-11-06 (Friday), {WARNING}." in page
    assert Session.objects.get(pk=target.pk).scheduled_date != FRIDAY


def test_the_coachs_proposal_in_the_chat_carries_the_warning_on_its_card(client):
    conversation = ConversationFactory()
    target = session(conversation.program, 1, 1)
    UnavailableDay.objects.create(athlete=conversation.athlete, date=FRIDAY)
    with transaction.atomic():
        _, placeholder = chat_services.message_send(
            conversation=conversation, text="move session 1.1 to 2026-11-06 swap"
        )
    run_turn(placeholder=placeholder, provider=OfflineProvider())
    batch = PendingToolBatch.objects.get(conversation=conversation)
    assert [c["name"] for c in batch.calls] == ["reschedule_workout"]
    client.force_login(conversation.athlete)
    page = client.get(reverse("chat:home")).content.decode().replace("&#x27;", "'")
    assert f"⚠ Week 1, Session 1: {target.name} falls on 2026-11-06 (Friday), {WARNING}." in page


@pytest.mark.parametrize("today", [datetime.date(2026, 11, 26), datetime.date(2026, 11, 27)])
def test_the_demo_marks_the_coming_saturday_once(today):
    athlete = UserFactory()
    for _ in range(2):
        training_demo.demo(DemoSeed(today=today, people={"athlete": athlete}))
    (day,) = marked(athlete)
    assert day.weekday() == 5 and (day - today).days >= 2
